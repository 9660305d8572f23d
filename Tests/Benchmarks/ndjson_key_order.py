#!/usr/bin/env python3
"""Writes NDJSON lines again with each writer's keys in one order a type, every value's bytes as written.

    python3 Tests/Benchmarks/ndjson_key_order.py [device|session] < mixed.ndjson > one-order.ndjson

A writer that puts keys in a new order on every line (Foundation's JSONEncoder, the `foundation`
devices of `sample --encoders mixed`) then keeps the order of its first line of each type: per device
(the default), or per session (an app writing a Swift dictionary, whose order is fixed by the
process's hash seed and so changes from one launch to the next). A line already in its order comes
out byte for byte as it came in. The events are the same, in the same places, so `analyze` gives the
same tables; the difference in cost between the two files is what the decoder pays for the order
(Tests/Benchmarks/README.md, "Writers that keep an order of their own").

Members are cut at the top level of each object without decoding their values (escapes, number
spellings and nested objects stay as written); a line moved into its order is written with `,` and
`:` and no spaces between members. A line that does not start with `{"` and end with `}` (spaces
around its separators or inside its braces) is written unchanged.
"""
import sys


def members(line):
    """The (key, value) pairs of a top-level object, as written; None when the line is not one."""
    n = len(line)
    if n < 2 or line[0] != "{" or line[-1] != "}":
        return None
    out = []
    i = 1
    if line[1:].strip() == "}":
        return out
    while i < n - 1:
        if line[i] != '"':
            return None
        j = i + 1
        while j < n and line[j] != '"':
            j += 2 if line[j] == "\\" else 1
        if j >= n or j + 1 >= n or line[j + 1] != ":":
            return None
        key = line[i:j + 1]
        k = start = j + 2
        depth = 0
        in_string = False
        while k < n - 1 or (depth > 0 and k < n):
            c = line[k]
            if in_string:
                if c == "\\":
                    k += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
            elif c == "," and depth == 0:
                break
            k += 1
        out.append((key, line[start:k]))
        i = k + 1
    return out


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] not in ("device", "session")):
        sys.exit("usage: ndjson_key_order.py [device|session] < in.ndjson > out.ndjson")
    per = '"%s"' % (sys.argv[1] if len(sys.argv) == 2 else "device")
    orders = {}
    for raw in sys.stdin.buffer:
        text = raw.decode("utf-8", "surrogateescape")
        ending = "\r\n" if text.endswith("\r\n") else "\n" if text.endswith("\n") else ""
        line = text[:len(text) - len(ending)]
        pairs = members(line)
        if not pairs:
            sys.stdout.buffer.write(raw)
            continue
        values = dict(pairs)
        order = orders.setdefault((values.get(per), values.get('"type"')), {})
        for key, _ in pairs:
            order.setdefault(key, len(order))
        ordered = sorted(pairs, key=lambda pair: order[pair[0]])
        if ordered == pairs:
            sys.stdout.buffer.write(raw)
            continue
        out = "{" + ",".join(key + ":" + value for key, value in ordered) + "}" + ending
        sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))


if __name__ == "__main__":
    main()
