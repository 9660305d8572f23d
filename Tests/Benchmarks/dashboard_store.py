#!/usr/bin/env python3
"""Fills a hig-audit results store with synthetic nights, for timing `hig-audit dashboard` at scale.

Usage: dashboard_store.py STORE NIGHTS VIOLATIONS

STORE must be a store `hig-audit nightly` made (its schema, rules and first run); this adds NIGHTS runs,
one a night, with sessions spread over app versions that roll out one after another, and VIOLATIONS
violations in all, through the store's own tables, as nightly runs would have written them. The same
arguments always give the same rows (fixed seed).
"""
import random
import sqlite3
import sys

DAY_MS = 86_400_000
START_MS = 1_787_443_200_000  # 2026-08-23T00:00:00Z: 90 nights end just before the sample night.
VERSIONS = ["5.0.0", "5.1.0", "5.1.1", "5.2.0", "5.2.1", "5.3.0"]
SCREENS = [f"screen-{i:02d}" for i in range(40)] + ["canvas", "gallery", "settings", ""]


def main():
    store, nights, violations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(2026)
    db = sqlite3.connect(store)
    rules = [(rule, severity) for rule, severity in db.execute("SELECT rule, severity FROM rules ORDER BY rule")]
    assert rules, "the store has no rules: make it with hig-audit nightly first"
    # Rare and common rules alike: weights spread over two orders of magnitude.
    weights = [2 ** (i % 7) for i in range(len(rules))]
    first_run = (db.execute("SELECT COALESCE(MAX(id), 0) FROM runs").fetchone()[0]) + 1
    next_file = (db.execute("SELECT COALESCE(MAX(id), 0) FROM input_files").fetchone()[0]) + 1
    per_night = violations // nights
    sessions_per_night = max(1, per_night // 4)
    for night in range(nights):
        run = first_run + night
        midnight = START_MS + night * DAY_MS
        files = []
        for index in range(40):
            files.append((next_file, f"uploads/{night:03d}/ipad-{index:04d}.ndjson.zst", 4096, f"{run:08x}{index:056x}",
                          1 << 20, f"{index:064x}", 1 << 20, 8 << 20, 20_000, 20_000, 0, run, run))
            next_file += 1
        db.executemany(
            "INSERT INTO input_files (id, display_path, head_length, head_sha256, size, content_sha256,"
            " resume_stored_offset, resume_decompressed_offset, resume_lines_before, counted_lines, held_back,"
            " first_run, last_run) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", files)
        # Versions roll out: each night's sessions mostly run the two newest versions of the time.
        newest = min(len(VERSIONS) - 1, night * len(VERSIONS) // nights)
        sessions = []
        for index in range(sessions_per_night):
            version = VERSIONS[max(0, newest - (1 if rng.random() < 0.3 else 0))]
            first_ts = midnight + rng.randrange(DAY_MS - 3_600_000)
            sessions.append((f"n{night:03d}-s{index:06d}", f"ipad-{rng.randrange(2000):04d}", version, first_ts,
                             first_ts + rng.randrange(60_000, 3_600_000), rng.randrange(20, 2000), 0, run))
        rows = []
        for index in range(per_night if night < nights - 1 else violations - per_night * (nights - 1)):
            session = sessions[rng.randrange(len(sessions))]
            rule, severity = rng.choices(rules, weights)[0]
            start = rng.randrange(session[3], session[4])
            file = files[rng.randrange(len(files))][0]
            line = rng.randrange(1, 20_000)
            rows.append((run, rule, severity, session[0], session[1], session[2], rng.choice(SCREENS), start, start + 500,
                         1, "synthetic", f"uploads/{night:03d}:{line}", file, line))
        db.executemany(
            "INSERT INTO violations (run_id, rule, severity, session, device, app_version, screen, start_ts, end_ts,"
            " count, detail, source, source_file, source_line) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        db.executemany(
            "INSERT INTO sessions (session, device, app_version, first_ts, last_ts, events, violations, run_id)"
            " VALUES (?,?,?,?,?,?,?,?)", sessions)
        db.execute(
            "INSERT INTO runs (id, started_at, finished_at, close_open, files, files_skipped, files_changed,"
            " compressed_bytes, decompressed_bytes, frames, lines, events, sessions, sessions_closed, open_sessions,"
            " malformed_lines, late_events, duplicate_events, unknown_types, skipped_bytes, truncated_files,"
            " unbalanced_dismisses, faults, violations) VALUES (?,?,?,0,40,0,0,?,?,80,?,?,?,?,0,?,?,?,0,0,0,0,?,?)",
            (run, midnight + DAY_MS + 9_000_000, midnight + DAY_MS + 9_300_000, 40 << 20, 320 << 20, 800_000,
             790_000, len(sessions), len(sessions), rng.randrange(20), rng.randrange(50), rng.randrange(200),
             rng.randrange(2), len(rows)))
    db.execute("UPDATE sessions SET violations = (SELECT COUNT(*) FROM violations v WHERE v.session = sessions.session)")
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
