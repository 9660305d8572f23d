#!/usr/bin/env bash
# hig-audit benchmark: ingestion and full analysis against `zstd -dc` on the same file.
#
#   Tests/Benchmarks/run.sh [TARGET_BYTES]      (default 300000000, about 300 MB of NDJSON)
#
# 1. builds hig-audit and the ingest harness as the README's install step does (release, with the Swift
#    runtime linked in: `--static-swift-stdlib`);
# 2. generates realistic logs with `hig-audit sample --target-bytes` (clean data, fixed seed), joins them
#    in reading order into one NDJSON file and compresses it with `zstd -3` (one file, one stream);
# 3. times, in RUNS alternating rounds (measure.py): `zstd -dc FILE > /dev/null`; decode+parse+validate
#    (IngestThroughput); the full `hig-audit analyze FILE --out DIR` (all rules, every table written);
#    the nightly job into a new store (`nightly --close-open --out`) and its re-run over the
#    already-counted file; best and median wall time, best CPU time, peak RSS;
# 4. repeats the full analysis on four times the sessions (four days instead of one: same concurrency)
#    to show that peak memory follows open sessions, not input size, and on the one-day events laid out
#    device by device (`sample --layout device`, joined in path order), whose tables must be the same.
# Needs: swift, zstd, python3. Work files go to Tests/Benchmarks/work/ (ignored by git).
# Every `zstd -d` here has -f: without it zstd skips an input that is a symbolic link (inputs linked
# into a worktree's work/) with a warning that -q hides, and a baseline of nothing looks very fast.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target_bytes="${1:-300000000}"
runs="${RUNS:-3}"
# ENCODERS=mixed generates the inputs with `sample --encoders mixed` (each device one of several SDKs'
# JSON writers), in files of their own (`one-day-mixed.ndjson.zst`, ...). MIX=field generates them with
# `sample --mix field` (issue 49's field-like event mix: short sessions, fewer moved touches, more
# haptics and violations, ~3,000 sessions interleaved line by line in the stream layout), with mixed
# encoders unless ENCODERS says otherwise (`one-day-mixed-field.ndjson.zst`, ...).
mix="${MIX:-}"
encoders="${ENCODERS:-$([ -n "$mix" ] && echo mixed || echo uniform)}"
suffix=$([ "$encoders" = uniform ] && echo "" || echo "-$encoders")$([ -z "$mix" ] || echo "-$mix")
work="$here/work"
mkdir -p "$work"

echo "== building (release, Swift runtime linked in: the README's install build)" >&2
# SwiftPM keeps the harness's build plan across runs and does not see a source file added to the
# package it depends on by path ("cannot find 'X' in scope"); dropping the plan makes it plan again,
# recompiling only what changed.
rm -f "$here/.build/release.yaml" "$here/.build/release/description.json"
swift build -c release --static-swift-stdlib --package-path "$root" --product hig-audit >&2
swift build -c release --static-swift-stdlib --package-path "$here" --product IngestThroughput >&2
hig="$root/.build/release/hig-audit"
ingest="$here/.build/release/IngestThroughput"

make_input() { # days name [layout]
    # The mix's own layout (stream for MIX=field) unless one is named; time without a mix.
    local days="$1" name="$2" layout="${3:-$([ -n "$mix" ] && echo "" || echo time)}"
    local file="$work/$name$suffix.ndjson.zst"
    if [ ! -f "$file" ]; then
        echo "== generating $name ($days day(s), ~$((target_bytes * days / 1000000)) MB, ${layout:-$mix mix's} layout)" >&2
        rm -rf "$work/$name"
        "$hig" sample --out "$work/$name" --target-bytes "$((target_bytes * days))" --days "$days" \
            --seed 2026 --no-noise ${layout:+--layout "$layout"} ${mix:+--mix "$mix"} --encoders "$encoders" >&2
        find "$work/$name" -name '*.zst' -print0 | LC_ALL=C sort -z | xargs -0 zstd -qdcf \
            | zstd -q -3 -T1 -o "$file"
        rm -rf "$work/$name"
    fi
    echo "$file"
}

one=$(make_input 1 one-day)
# The same events with each device's uploads in a row (SPEC §2: each device is its own stream).
by_device=$(make_input 1 one-day-by-device device)
four=$(make_input 4 four-days)
raw_bytes=$(zstd -qdcf "$one" | wc -c)
events=$(zstd -qdcf "$one" | wc -l)
echo "== input: $raw_bytes bytes of NDJSON, $events lines, $(stat -c %s "$one") bytes compressed" >&2

# Every one-day step in one call, in alternation (see measure.py): rounds of zstd, decode, analyze,
# nightly and its re-run (which needs the store the round's nightly made).
one_json=$(python3 "$here/measure.py" "$runs" \
    "zstd -dc" -- zstd -qdcf "$one" --- \
    "decode+parse+validate" -- "$ingest" "$one" --- \
    "analyze --out (1 day)" -- "$hig" analyze "$one" --out "$work/out-one" --- \
    "nightly --out (new store)" -- sh -c "rm -f '$work/store.sqlite'* && exec '$hig' nightly --quiet --store '$work/store.sqlite' --close-open --out '$work/out-nightly' '$one'" --- \
    "nightly re-run" -- "$hig" nightly --quiet --store "$work/store.sqlite" "$one")
four_json=$(python3 "$here/measure.py" 1 \
    "zstd -dc (4 days)" -- zstd -qdcf "$four" --- \
    "analyze --out (4 days)" -- "$hig" analyze "$four" --out "$work/out-four" --- \
    "analyze --out (by device)" -- "$hig" analyze "$by_device" --out "$work/out-by-device")
for table in summary by_version by_screen haptics worst_screens; do
    [ -f "$work/out-one/$table.csv" ] || continue
    cmp -s "$work/out-one/$table.csv" "$work/out-by-device/$table.csv" \
        || echo "!! $table differs between the time-first and the by-device reading" >&2
done

python3 - "$raw_bytes" "$events" "$one_json" "$four_json" <<'PY'
import json, sys
raw, events = int(sys.argv[1]), int(sys.argv[2])
zstd, ingest, analyze, nightly, rerun = json.loads(sys.argv[3])
zstd4, analyze4, by_device = json.loads(sys.argv[4])
def row(r, base):
    mbs = raw / r["best_s"] / 1e6
    return (f'{r["label"]:<26} {r["best_s"]:>7.3f} {r["median_s"]:>7.3f} {r["best_cpu_s"]:>7.3f} {mbs:>6.0f} '
            f'{events / r["best_s"] / 1e6:>6.2f} {r["best_s"] / base["best_s"]:>7.2f}x '
            f'{r["best_cpu_s"] / base["best_cpu_s"]:>7.2f}x {r["peak_rss_mib"]:>8.1f}')
print(f'{"step":<26} {"best s":>7} {"median":>7} {"CPU s":>7} {"MB/s":>6} {"Mev/s":>6} {"vs zstd":>8} '
      f'{"CPU vs":>8} {"RSS MiB":>8}')
for r in (zstd, ingest, analyze, nightly, rerun):
    print(row(r, zstd))
print(f'{analyze4["label"]:<26} {analyze4["best_s"]:>7.3f} {"":>7} {analyze4["best_cpu_s"]:>7.3f} {"":>6} {"":>6} '
      f'{analyze4["best_s"] / zstd4["best_s"]:>7.2f}x {"":>8} {analyze4["peak_rss_mib"]:>8.1f}')
print(row(by_device, zstd))
print()
print(f'targets (best wall time, alternate runs): decode+parse+validate <= 2.0x zstd: {ingest["best_s"] / zstd["best_s"]:.2f}x '
      f'(median {ingest["median_s"] / zstd["median_s"]:.2f}x); '
      f'analyze <= 2.5x zstd: {analyze["best_s"] / zstd["best_s"]:.2f}x (median {analyze["median_s"] / zstd["median_s"]:.2f}x); '
      f'RSS 4x input within 20%: {analyze4["peak_rss_mib"] / analyze["peak_rss_mib"] - 1:+.1%}, under 100 MiB; '
      f'nightly <= 1.3x analyze --out: {nightly["best_s"] / analyze["best_s"]:.2f}x; re-run {rerun["best_s"]:.2f} s; '
      f'by device vs time-first: {by_device["best_s"] / analyze["best_s"]:.2f}x time, '
      f'{by_device["peak_rss_mib"] / analyze["peak_rss_mib"] - 1:+.1%} RSS')
PY
