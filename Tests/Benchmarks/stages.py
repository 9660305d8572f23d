#!/usr/bin/env python3
"""Where `analyze`'s instructions go, by stage, from a callgrind profile's inclusive costs.

    python3 Tests/Benchmarks/stages.py CALLGRIND_FILE LINES

Runs `callgrind_annotate --inclusive=yes` on a profile of `hig-audit analyze --jobs 1 ... --out`
(instructions.sh writes work/callgrind.analyze), demangles the names, and prints per stage the
inclusive instructions a line of its outermost function(s): the function and everything it calls.
Stages nest (the engine's figure holds the rules', the rules' the violation records'), so they do
not add up; `self` figures are instructions.sh's top list. Inlined code counts in the function it
was inlined into, so a stage is as fine as the release build's calls are.
"""
import re
import subprocess
import sys

profile, lines = sys.argv[1], int(sys.argv[2])
annotated = subprocess.run(
    ["callgrind_annotate", "--inclusive=yes", "--threshold=100", profile],
    capture_output=True, text=True, check=True).stdout
demangled = subprocess.run(["swift", "demangle", "--simplified"], input=annotated,
                           capture_output=True, text=True, check=True).stdout

costs = {}
total = None
for row in demangled.splitlines():
    match = re.match(r"^\s*([0-9,]+) \(\s*[0-9.]+%\)\s+(.*)$", row)
    if not match:
        continue
    cost = int(match[1].replace(",", ""))
    name = re.sub(r" \[[^\]]*\]$", "", match[2])
    name = re.sub(r"^[^ ]*?:(?=[A-Za-z_(])", "", name, count=1)
    if "PROGRAM TOTALS" in row:
        total = cost
        continue
    costs[name] = max(cost, costs.get(name, 0))

# (stage, pattern of its function): indented stages run inside the stage above them.
STAGES = [
    ("startup to the end (the CLI's main)", r"^HIGAuditCLI_main$"),
    ("  reading, decoding, engine (RunPipeline.read)", r"^RunPipeline\.read\(_:conclude:\)"),
    ("    zstd (libzstd's ZSTD_decompressContinue)", r"^ZSTD_decompressContinue$"),
    ("    decoding, with the engine it calls (AnalysisLineSink)", r"^specialized AnalysisLineSink\.(leadingLine|line)\("),
    ("      the engine, called back by the decoder", r"^SessionEngine\.ingest\("),
    ("        accepting: order, rules, closing", r"^SessionEngine\.accept\("),
    ("        rule dispatch and rules", r"^ConfiguredRules\.observe"),
    ("        closing sessions (finish, report, accumulator)", r"^SessionEngine\.close\("),
    ("          accumulator", r"^AnalysisAccumulator\.add\("),
    ("        parking quiet devices", r"^SessionEngine\.parkQuietDevices\("),
    ("  after the input: closing what is open", r"^SessionEngine\.finish\("),
    ("  tables and writers", r"^static FileOutput\.formatting"),
]

print(f"{'stage':<62} {'per line':>9}  functions (inclusive a line)")
print(f"{'whole run':<62} {total / lines:>9.0f}")
for stage, pattern in STAGES:
    matches = sorted(((cost, name) for name, cost in costs.items() if re.search(pattern, name)), reverse=True)
    # Matches of one pattern that call each other nest: their sum would count twice.
    best = sum(cost for cost, _ in matches) if len(matches) > 1 and "|" in pattern else (matches[0][0] if matches else 0)
    shown = ", ".join(f"{name.split('(')[0][-60:]} {cost / lines:.0f}" for cost, name in matches[:4])
    print(f"{stage:<62} {best / lines:>9.0f}  {shown}")
