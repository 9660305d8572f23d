#!/usr/bin/env python3
"""When the session engine parks and wakes devices, replayed outside it (SessionEngine+Parking).

    zstd -dc work/one-day-mixed-field.ndjson.zst | python3 parking_replay.py [KEPT_AWAKE] [QUIET] [FACTOR]

Runs the engine's quiet queue over each line's `session`, `device`, `ts` and `type`, with the
default `max_lateness_ms` and `session_gap_ms`, and counts parks, the events they pack, what woke each
(the device's next session, or its own) and how long it had been quiet. KEPT_AWAKE is
`keptAwakeSessions` (default 4,096; 0 parks by quiet alone, as before 2026-11-29), QUIET
`quietAfterEvents` (10,000), FACTOR `inProgressQuietFactor` (4). For a clean input (no duplicates,
nothing late) it gives the engine's own counts: on the field day 7,563 parks and 158,202 packed events
with KEPT_AWAKE 0, 265 and 5,440 with 4,096 (callgrind's call counts of `park` and
`PackedWriter.event`). Lines without `session` or `ts` are skipped; late and duplicate events are not
told apart from accepted ones.
"""
import collections
import json
import sys
from datetime import datetime

LATENESS = 10_000
GAP = 1_800_000
MAX_DOUBLINGS = 6


def millis(value):
    if isinstance(value, (int, float)):
        return int(value)
    text = value.replace("Z", "+00:00")
    fraction = 0
    if "." in text:
        head, rest = text.split(".", 1)
        digits = 0
        while digits < len(rest) and rest[digits].isdigit():
            digits += 1
        fraction = int((rest[:digits] + "000")[:3])
        text = head + rest[digits:]
    return int(datetime.fromisoformat(text).timestamp()) * 1000 + fraction


def quantiles(values):
    values = sorted(values)
    return [values[int(len(values) * q)] for q in (0.1, 0.25, 0.5, 0.75, 0.9)] if values else []


def main():
    kept_awake = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    quiet = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    factor = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    sessions = {}  # session -> {device, newest, end, pending: [ts]}
    devices = {}  # device -> {clock, sessions, spoke, wakes, parked}
    queue = collections.OrderedDict()  # device -> events when it joined
    closed = set()
    in_memory = 0  # sessions of devices not parked (the engine's `open.count`)
    events = 0
    parks = packed = 0
    parked_now = {}  # device -> (events packed, all its sessions ended)
    woke = collections.Counter()
    woke_events = collections.Counter()
    quiet_at_wake = collections.defaultdict(list)
    for line in sys.stdin:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        key, ts = event.get("session"), event.get("ts")
        if key is None or ts is None:
            continue
        ts = millis(ts)
        if key in closed:
            continue
        session = sessions.get(key)
        if session is not None and ts < session["newest"] - LATENESS:
            continue
        device_key = session["device"] if session else (event.get("device") or "")
        device = devices.get(device_key)
        if device and device["parked"]:
            count, ended = parked_now.pop(device_key)
            kind = ("own session" if session else "next session", "ended" if ended else "in progress")
            woke[kind] += 1
            woke_events[kind] += count
            quiet_at_wake[kind].append(events - device["spoke"])
            device["parked"] = False
            device["wakes"] = min(device["wakes"] + 1, MAX_DOUBLINGS)
            device["spoke"] = events
            in_memory += len(device["sessions"])
            queue[device_key] = events
        if session is None:
            if device is None:
                device = devices[device_key] = dict(clock=ts, sessions=set(), spoke=events, wakes=0, parked=False)
                queue[device_key] = events
            session = sessions[key] = dict(device=device_key, newest=ts, end=None, pending=[])
            device["sessions"].add(key)
            in_memory += 1
        events += 1
        session["newest"] = max(session["newest"], ts)
        if event.get("type") == "session.end" and (session["end"] is None or ts < session["end"]):
            session["end"] = ts
        session["pending"].append(ts)
        ready = session["newest"] - LATENESS
        session["pending"] = [waiting for waiting in session["pending"] if waiting > ready]
        device["clock"] = ts
        device["spoke"] = events
        for other in list(device["sessions"]):
            held = sessions[other]
            if (held["end"] is not None and ts >= held["end"] + LATENESS) or ts > held["newest"] + GAP:
                device["sessions"].discard(other)
                closed.add(other)
                del sessions[other]
                in_memory -= 1
        if not device["sessions"]:
            del devices[device_key]
            queue.pop(device_key, None)
        while in_memory > kept_awake and queue:
            first, joined = next(iter(queue.items()))
            if events - joined < quiet:
                break
            del queue[first]
            candidate = devices[first]
            in_progress = any(sessions[held]["end"] is None for held in candidate["sessions"])
            threshold = quiet << candidate["wakes"]
            if in_progress:
                threshold *= factor
            if events - candidate["spoke"] >= threshold:
                candidate["parked"] = True
                count = sum(len(sessions[held]["pending"]) for held in candidate["sessions"])
                parks += 1
                packed += count
                in_memory -= len(candidate["sessions"])
                parked_now[first] = (count, not in_progress)
            else:
                queue[first] = events
    print(f"events {events}, parks {parks}, packed events {packed}")
    for kind in sorted(woke):
        print(f"woken for its {kind[0]} ({kind[1]}): {woke[kind]} parks, {woke_events[kind]} events; "
              f"accepted events of quiet, quantiles 10-25-50-75-90%: {quantiles(quiet_at_wake[kind])}")
    at_end = collections.Counter("ended" if ended else "in progress" for _, ended in parked_now.values())
    print(f"parked at the end: {dict(at_end)}, {sum(count for count, _ in parked_now.values())} events")


if __name__ == "__main__":
    main()
