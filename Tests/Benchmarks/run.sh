#!/usr/bin/env bash
# hig-audit benchmark: ingestion and full analysis against `zstd -dc` on the same file.
#
#   Tests/Benchmarks/run.sh [TARGET_BYTES]      (default 300000000, about 300 MB of NDJSON)
#
# 1. builds hig-audit and the ingest harness in release mode;
# 2. generates realistic logs with `hig-audit sample --target-bytes` (clean data, fixed seed), joins them
#    in reading order into one NDJSON file and compresses it with `zstd -3` (one file, one stream);
# 3. times, best of RUNS: `zstd -dc FILE > /dev/null`; decode+parse+validate (IngestThroughput);
#    the full `hig-audit analyze FILE --out DIR` (all rules, every table written); the nightly job into
#    a new store (`nightly --close-open --out`) and its re-run over the already-counted file;
# 4. repeats the full analysis on four times the sessions (four days instead of one: same concurrency)
#    to show that peak memory follows open sessions, not input size.
# Needs: swift, zstd, python3. Work files go to Tests/Benchmarks/work/ (ignored by git).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target_bytes="${1:-300000000}"
runs="${RUNS:-3}"
work="$here/work"
mkdir -p "$work"

echo "== building (release)" >&2
swift build -c release --package-path "$root" --product hig-audit >&2
swift build -c release --package-path "$here" --product IngestThroughput >&2
hig="$root/.build/release/hig-audit"
ingest="$here/.build/release/IngestThroughput"

make_input() { # days name
    local days="$1" name="$2"
    local file="$work/$name.ndjson.zst"
    if [ ! -f "$file" ]; then
        echo "== generating $name ($days day(s), ~$((target_bytes * days / 1000000)) MB)" >&2
        rm -rf "$work/$name"
        "$hig" sample --out "$work/$name" --target-bytes "$((target_bytes * days))" --days "$days" \
            --seed 2026 --no-noise >&2
        find "$work/$name" -name '*.zst' -print0 | LC_ALL=C sort -z | xargs -0 zstd -qdc \
            | zstd -q -3 -T1 -o "$file"
        rm -rf "$work/$name"
    fi
    echo "$file"
}

one=$(make_input 1 one-day)
four=$(make_input 4 four-days)
raw_bytes=$(zstd -qdc "$one" | wc -c)
events=$(zstd -qdc "$one" | wc -l)
echo "== input: $raw_bytes bytes of NDJSON, $events lines, $(stat -c %s "$one") bytes compressed" >&2

m() { python3 "$here/measure.py" "$@"; }
zstd_json=$(m "zstd -dc" "$runs" -- zstd -qdc "$one")
ingest_json=$(m "decode+parse+validate" "$runs" -- "$ingest" "$one")
analyze_json=$(m "analyze --out (1 day)" "$runs" -- "$hig" analyze "$one" --out "$work/out-one")
nightly_json=$(m "nightly --out (new store)" "$runs" -- sh -c "rm -f '$work/store.sqlite'* && exec '$hig' nightly --quiet --store '$work/store.sqlite' --close-open --out '$work/out-nightly' '$one'")
rerun_json=$(m "nightly re-run" "$runs" -- "$hig" nightly --quiet --store "$work/store.sqlite" "$one")
analyze4_json=$(m "analyze --out (4 days)" 1 -- "$hig" analyze "$four" --out "$work/out-four")
zstd4_json=$(m "zstd -dc (4 days)" 1 -- zstd -qdc "$four")

python3 - "$raw_bytes" "$events" "$zstd_json" "$ingest_json" "$analyze_json" "$zstd4_json" "$analyze4_json" \
    "$nightly_json" "$rerun_json" <<'PY'
import json, sys
raw, events = int(sys.argv[1]), int(sys.argv[2])
zstd, ingest, analyze, zstd4, analyze4, nightly, rerun = (json.loads(a) for a in sys.argv[3:])
def row(r, base):
    mbs = raw / r["best_s"] / 1e6
    return f'{r["label"]:<26} {r["best_s"]:>8.3f} {mbs:>9.0f} {events / r["best_s"] / 1e6:>10.2f} {r["best_s"] / base["best_s"]:>8.2f}x {r["peak_rss_mib"]:>9.1f}'
print(f'{"step":<26} {"best s":>8} {"MB/s":>9} {"Mevents/s":>10} {"vs zstd":>9} {"RSS MiB":>9}')
for r in (zstd, ingest, analyze, nightly, rerun):
    print(row(r, zstd))
print(f'{analyze4["label"]:<26} {analyze4["best_s"]:>8.3f} {"":>9} {"":>10} {analyze4["best_s"] / zstd4["best_s"]:>8.2f}x {analyze4["peak_rss_mib"]:>9.1f}')
print()
print(f'targets: decode+parse+validate <= 2.0x zstd: {ingest["best_s"] / zstd["best_s"]:.2f}x; '
      f'analyze <= 2.5x zstd: {analyze["best_s"] / zstd["best_s"]:.2f}x; '
      f'RSS 4x input within 20%: {analyze4["peak_rss_mib"] / analyze["peak_rss_mib"] - 1:+.1%}, under 100 MiB; '
      f'nightly <= 1.3x analyze --out: {nightly["best_s"] / analyze["best_s"]:.2f}x; re-run {rerun["best_s"]:.2f} s')
PY
