#!/usr/bin/env python3
"""Self instructions per machine instruction of the functions whose (mangled) name matches a pattern.

    python3 Tests/Benchmarks/by-instruction.py CALLGRIND_FILE PATTERN BINARY

The release build that instructions.sh profiles has no debug information, so callgrind_annotate
cannot say which lines of a function cost what. Profiled with `--dump-instr=yes`, callgrind keeps a
cost per instruction address; this sums them for the functions whose mangled name matches PATTERN (a
regular expression, e.g. `LineShapesV7matches`; `nm BINARY | grep` finds it) and prints BINARY's
disassembly of them (`objdump -d`), each instruction with its count: a hot loop's instructions show
how many times it turned, a spill shows as a store and load on every turn. Calls' inclusive costs are
left out (their callees' own lines count there). Addresses are taken as the binary's own, as for a
binary linked at a fixed address (the release build is).
"""
import collections
import re
import subprocess
import sys

if len(sys.argv) != 4:
    sys.exit("usage: by-instruction.py CALLGRIND_FILE PATTERN BINARY")
path, pattern, binary = sys.argv[1], sys.argv[2], sys.argv[3]
names = {}
costs = collections.Counter()
function = None
address = 0
call_follows = False


def position(token, previous):
    """A callgrind position: absolute (0x…), relative (+n, -n) or the same (*)."""
    if token.startswith("0x"):
        return int(token, 16)
    if token.startswith("+"):
        return previous + int(token[1:])
    if token.startswith("-"):
        return previous - int(token[1:])
    if token == "*":
        return previous
    return int(token)


def name(spec):
    """A compressed name, `(id) name` the first time and `(id)` after."""
    match = re.match(r"\((\d+)\)(?: (.*))?", spec)
    if match.group(2) is not None:
        names[match.group(1)] = match.group(2)
    return names.get(match.group(1), "?")


for raw in open(path, errors="replace"):
    line = raw.rstrip("\n")
    if not line:
        continue
    if line.startswith("fn="):
        function = name(line[3:])
    elif line.startswith("cfn="):
        name(line[4:])
    elif line.startswith("calls="):
        call_follows = True
    elif line[0].isdigit() or line[0] in "+-*":
        parts = line.split()
        address = position(parts[0], address)
        if call_follows:
            call_follows = False
        elif function and re.search(pattern, function) and len(parts) >= 3:
            costs[address] += int(parts[-1])

print("self instructions:", sum(costs.values()))
if costs:
    disassembly = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", "--start-address=%d" % min(costs),
         "--stop-address=%d" % (max(costs) + 16), binary],
        capture_output=True, text=True, check=True).stdout
    for row in disassembly.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s*(.*)", row)
        if match:
            # Jump targets' symbol names are long and say nothing the address does not.
            text = re.sub(r" <[^>]*>", "", match.group(2))
            print("%12d  %s: %s" % (costs.get(int(match.group(1), 16), 0), match.group(1), text))
