#!/usr/bin/env python3
"""Sessions and devices open at once while a log is read as SPEC §2 says (device clocks).

    zstd -qdc FILE | python3 Tests/Benchmarks/open_sessions.py [MAX_LATENESS_MS] [SESSION_GAP_MS]

Replays the closing rules on clean logs (run.sh's; unreadable lines are skipped and counted, late and
duplicate events are not told apart)
and prints the peak of open sessions and of devices with open sessions, and the open sessions at the
end. An independent reading of the rules, for the benchmark's note on memory; it is not the engine.
"""
import json
import re
import sys
from datetime import datetime

RFC3339 = re.compile(r"(?P<seconds>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(?P<fraction>\d+))?(?P<zone>[Zz]|[+-]\d\d:\d\d)")

lateness = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
gap = int(sys.argv[2]) if len(sys.argv) > 2 else 1_800_000


def millis(ts):
    """RFC 3339 (any offset, any fraction digits, truncated to milliseconds) or integer milliseconds."""
    if isinstance(ts, int):
        return ts
    match = RFC3339.fullmatch(ts)
    whole = datetime.fromisoformat(match["seconds"] + (match["zone"].replace("Z", "+00:00").replace("z", "+00:00")))
    return int(whole.timestamp()) * 1000 + int((match["fraction"] or "").ljust(3, "0")[:3])


sessions = {}   # id -> [device, newest, end]
devices = {}    # device -> set of open session ids
closed = set()
peak_sessions = peak_devices = skipped = 0
for line in sys.stdin:
    if not line.strip():
        continue
    try:
        event = json.loads(line)
        sid, ts = event["session"], millis(event["ts"])
    except (ValueError, KeyError, TypeError, AttributeError):
        skipped += 1
        continue
    if sid in closed:
        continue
    state = sessions.get(sid)
    if state is None:
        state = sessions[sid] = [event.get("device") or "", ts, None]
        devices.setdefault(state[0], set()).add(sid)
    state[1] = max(state[1], ts)
    if event["type"] == "session.end" and (state[2] is None or ts < state[2]):
        state[2] = ts
    peak_sessions = max(peak_sessions, len(sessions))
    peak_devices = max(peak_devices, len(devices))
    device = state[0]
    for other in list(devices[device]):
        newest, end = sessions[other][1], sessions[other][2]
        if (end is not None and ts >= end + lateness) or ts > newest + gap:
            devices[device].discard(other)
            del sessions[other]
            closed.add(other)
    if not devices[device]:
        del devices[device]
print(json.dumps({"peak_open_sessions": peak_sessions, "peak_open_devices": peak_devices,
                  "open_at_end": len(sessions), "sessions": len(sessions) + len(closed),
                  "lines_skipped": skipped}))
