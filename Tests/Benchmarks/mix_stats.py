#!/usr/bin/env python3
"""The event mix of an NDJSON log, to hold `sample --mix field` to issue 49's field figures.

    zstd -qdcf FILE | python3 Tests/Benchmarks/mix_stats.py [VIOLATIONS]

Prints, as JSON: lines, bytes a line, the share of `touch` `moved` lines, haptics per 1,000 lines,
sessions, the sessions in progress in reading order (from a session's first line to its last: the
peak, and the mean over lines), and how often a line's session differs from the line before's. With
VIOLATIONS (e.g. the `violations` total of `analyze`'s summary) also violations per 1,000 lines.
Unreadable lines are counted, not judged. The field data (issue 49): 171 bytes a line, 29 % moved,
85 haptics and ~23 violations per 1,000 lines, ~3,000 sessions interleaved line by line.
"""
import json
import sys

lines = nbytes = moved = haptics = unreadable = switches = 0
first, last = {}, {}
previous = None
for raw in sys.stdin.buffer:
    nbytes += len(raw)
    index = lines
    lines += 1
    try:
        event = json.loads(raw)
        session, kind = event["session"], event["type"]
    except (ValueError, KeyError, TypeError):
        unreadable += 1
        continue
    if kind == "touch" and event.get("phase") == "moved":
        moved += 1
    elif kind == "haptic":
        haptics += 1
    first.setdefault(session, index)
    last[session] = index
    if previous is not None and session != previous:
        switches += 1
    previous = session

# Sessions in progress at each line: opened at their first line, closed after their last.
delta = [0] * (lines + 1)
for session, start in first.items():
    delta[start] += 1
    delta[last[session] + 1] -= 1
open_now = peak = total = 0
for index in range(lines):
    open_now += delta[index]
    peak = max(peak, open_now)
    total += open_now

result = {
    "lines": lines,
    "bytes_per_line": round(nbytes / max(lines, 1), 1),
    "moved_share": round(moved / max(lines, 1), 4),
    "haptics_per_1000_lines": round(1000 * haptics / max(lines, 1), 1),
    "sessions": len(first),
    "peak_sessions_in_progress": peak,
    "mean_sessions_in_progress": round(total / max(lines, 1)),
    "session_changes_per_line": round(switches / max(lines - 1, 1), 3),
    "unreadable_lines": unreadable,
}
if len(sys.argv) > 1:
    result["violations_per_1000_lines"] = round(1000 * int(sys.argv[1]) / max(lines, 1), 1)
print(json.dumps(result))
