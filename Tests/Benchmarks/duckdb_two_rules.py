#!/usr/bin/env python3
"""The comparison a user makes: DuckDB reading the same log files with SQL for two of hig-audit's
rules, end to end (process start to answer), with a fixed number of threads.

Usage: duckdb_two_rules.py [--threads N] FILE_OR_DIR...    (needs `pip install duckdb`)

Rules, as close to SPEC §3 as plain SQL gets in a few lines:
- haptic-overuse, burst part: a session's haptic i violates when haptics i-4..i fall within 2000 ms;
  counted as violating haptics (hig-audit merges runs of them into one violation, a detail the count
  does not need).
- forced-tab-switch: a `nav.tab_switch` with from != to and no tab-bar touch ending in the same session
  within the preceding 1000 ms (the restore grace and the one-touch-per-switch bookkeeping left out).
Timestamps are RFC 3339 strings with any offset or integer milliseconds (SPEC §1), so `ts` is read as
text and parsed; malformed lines are skipped (`ignore_errors`), as hig-audit skips them.
Prints the two counts and the seconds the query took; the wall time to compare is the process's.
"""
import argparse
import os
import sys
import time

import duckdb


def log_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in sorted(os.walk(path)):
                for name in sorted(names):
                    if name.endswith((".zst", ".ndjson", ".jsonl")):
                        yield os.path.join(root, name)
        else:
            yield path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("inputs", nargs="+")
    arguments = parser.parse_args()
    files = list(log_files(arguments.inputs))
    if not files:
        sys.exit("duckdb_two_rules.py: no log files")
    started = time.perf_counter()
    connection = duckdb.connect()
    connection.execute(f"SET threads = {arguments.threads}")
    listed = ", ".join("'" + file.replace("'", "''") + "'" for file in files)
    compression = "zstd" if files[0].endswith(".zst") else "none"
    connection.execute(f"""
        CREATE TEMP VIEW events AS
        SELECT session, type, kind, phase, target, "from" AS from_tab, "to" AS to_tab,
               CASE WHEN regexp_matches(ts, '^[0-9]+$') THEN CAST(ts AS BIGINT)
                    ELSE epoch_ms(CAST(ts AS TIMESTAMPTZ)) END AS ms
        FROM read_json([{listed}], format = 'newline_delimited', compression = '{compression}',
                       ignore_errors = true, union_by_name = true,
                       columns = {{ts: 'VARCHAR', session: 'VARCHAR', type: 'VARCHAR', kind: 'VARCHAR',
                                   phase: 'VARCHAR', target: 'VARCHAR', "from": 'VARCHAR', "to": 'VARCHAR'}})
        WHERE session IS NOT NULL AND ts IS NOT NULL
    """)
    bursts, forced = connection.execute("""
        WITH interesting AS MATERIALIZED (
            SELECT * FROM events
            WHERE type = 'haptic' OR type = 'nav.tab_switch'
               OR (type = 'touch' AND phase = 'ended' AND (target = 'tab_bar' OR target LIKE 'tab:%'))
        ),
        haptics AS (
            SELECT ms - lag(ms, 4) OVER (PARTITION BY session ORDER BY ms) AS span
            FROM interesting WHERE type = 'haptic'
        ),
        switches AS (
            SELECT s.session, s.ms,
                   EXISTS (SELECT 1 FROM interesting t
                           WHERE t.session = s.session AND t.type = 'touch'
                             AND t.ms BETWEEN s.ms - 1000 AND s.ms) AS touched
            FROM interesting s WHERE s.type = 'nav.tab_switch' AND s.from_tab <> s.to_tab
        )
        SELECT (SELECT count(*) FROM haptics WHERE span < 2000),
               (SELECT count(*) FROM switches WHERE NOT touched)
    """).fetchone()
    elapsed = time.perf_counter() - started
    print(f"haptic bursts (violating haptics): {bursts}; forced tab switches: {forced}; "
          f"{len(files)} files, {elapsed:.3f} s in DuckDB {duckdb.__version__} with {arguments.threads} threads")


if __name__ == "__main__":
    main()
