#!/usr/bin/env bash
# hig-audit on several cores, and against DuckDB, on ~150 MB of logs in two shapes and two encodings.
#
#   Tests/Benchmarks/jobs.sh [TARGET_BYTES]      (default 150000000, about 150 MB of NDJSON)
#
# Inputs (generated once into Tests/Benchmarks/work/jobs/, fixed seed, no noise):
#   six-files       the time-first sample joined, in path order, into 6 zstd files (~25 MB each)
#   per-device      one zstd file per device (`sample --layout device`), DEVICES of them (default
#                   700, one session each on average: about as many bytes as the six files)
#   one-file        the six files' frames in one file (`cat`): one large input, which a reader
#                   thread reads in two stages
# each written by `sample`'s own encoder (uniform) and, when `sample` has `--encoders`, by a mix of
# SDK encoders (mixed: key orders, spacing, escapes, timestamp styles differ by device).
# For each input, in RUNS alternating rounds (measure.py): `zstd -dc` of every file; `analyze --out`
# with --jobs 1 and with the default (the cores available); `nightly --close-open` into a new store
# with the default jobs; DuckDB 2.x with 2 threads running two rules' SQL (duckdb_two_rules.py), when
# the duckdb Python package is installed. Prints best and median wall time, CPU time and peak RSS.
# Set HIG=path to time an existing binary instead of building the release one; SHAPES="one-file" or
# ENCODINGS="uniform" to measure fewer inputs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target_bytes="${1:-150000000}"
runs="${RUNS:-5}"
work="$here/work/jobs"
mkdir -p "$work"

source "$here/release_binary.sh"

encodings=(uniform)
if "$HIG" sample --help | grep -q -- '--encoders'; then encodings+=(mixed); fi

device_count="${DEVICES:-700}"

generate() { # encoding layout dir
    local encoding="$1" layout="$2" dir="$3"
    local size=(--target-bytes "$target_bytes")
    [ "$layout" = device ] && size=(--sessions "$device_count" --devices "$device_count")
    local extra=()
    [ "$encoding" = mixed ] && extra=(--encoders mixed)
    "$HIG" sample --out "$dir" "${size[@]}" --seed 2026 --no-noise --layout "$layout" "${extra[@]}" >&2
}

make_inputs() { # encoding
    local encoding="$1"
    local six="$work/$encoding-six-files" per_device="$work/$encoding-per-device"
    if [ ! -d "$six" ]; then
        echo "== generating $encoding inputs (~$((target_bytes / 1000000)) MB)" >&2
        local tmp="$work/$encoding-tmp"
        rm -rf "$tmp" && generate "$encoding" time "$tmp"
        mkdir -p "$six.part"
        find "$tmp" -name '*.zst' | LC_ALL=C sort > "$work/list"
        local total; total=$(wc -l < "$work/list")
        split -n l/6 -d "$work/list" "$work/group-"
        for group in "$work"/group-*; do
            xargs zstd -qdcf < "$group" | zstd -q -3 -T1 -o "$six.part/part-${group##*-}.ndjson.zst"
        done
        rm -rf "$tmp" "$work"/group-* "$work/list"
        mv "$six.part" "$six"
        echo "   six files from $total uploads" >&2
    fi
    local one="$work/$encoding-one-file"
    if [ ! -d "$one" ]; then
        mkdir -p "$one.part"
        find "$six" -name '*.zst' | LC_ALL=C sort | xargs cat > "$one.part/all.ndjson.zst"
        mv "$one.part" "$one"
    fi
    if [ ! -d "$per_device" ]; then
        rm -rf "$per_device.part"
        generate "$encoding" device "$per_device.part" && mv "$per_device.part" "$per_device"
    fi
}

have_duckdb=0
python3 -c 'import duckdb' 2>/dev/null && have_duckdb=1

[ -n "${ENCODINGS:-}" ] && read -r -a encodings <<< "$ENCODINGS"
read -r -a shapes <<< "${SHAPES:-six-files per-device one-file}"

for encoding in "${encodings[@]}"; do
    make_inputs "$encoding"
    for shape in "${shapes[@]}"; do
        input="$work/$encoding-$shape"
        mapfile -t files < <(find "$input" -name '*.zst' | LC_ALL=C sort)
        raw=$(zstd -qdcf "${files[@]}" | wc -c)
        events=$(zstd -qdcf "${files[@]}" | wc -l)
        commands=(
            "zstd -dc" -- zstd -qdcf "${files[@]}" ---
            "analyze --out --jobs 1" -- "$HIG" analyze --quiet --jobs 1 "$input" --out "$work/out-1" ---
            "analyze --out" -- "$HIG" analyze --quiet "$input" --out "$work/out-n" ---
            "nightly --out (new store)" -- sh -c "rm -f '$work/store.sqlite'* && exec '$HIG' nightly --quiet --store '$work/store.sqlite' --close-open --out '$work/out-nightly' '$input'"
        )
        if [ "$have_duckdb" = 1 ]; then
            commands+=(--- "duckdb, 2 threads" -- python3 "$here/duckdb_two_rules.py" --threads 2 "$input")
        fi
        echo "== $encoding $shape: ${#files[@]} files, $raw bytes, $events lines" >&2
        json=$(python3 "$here/measure.py" "$runs" "${commands[@]}")
        for table in violations summary by_version by_screen haptics ingest worst_screens; do
            cmp -s "$work/out-1/$table.csv" "$work/out-n/$table.csv" \
                || echo "!! $table.csv differs between --jobs 1 and the default" >&2
        done
        python3 - "$encoding $shape" "$raw" "$events" "$json" <<'PY'
import json, os, sys
name, raw, events = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
results = json.loads(sys.argv[4])
zstd = results[0]
analyze = next(r for r in results if r["label"] == "analyze --out")
print(f"{name}: {raw / 1e6:.0f} MB, {events} lines")
print(f'  {"step":<28} {"best s":>7} {"median":>7} {"CPU s":>7} {"Mev/s":>6} {"vs zstd":>8} {"RSS MiB":>8}')
for r in results:
    print(f'  {r["label"]:<28} {r["best_s"]:>7.3f} {r["median_s"]:>7.3f} {r["best_cpu_s"]:>7.3f} '
          f'{events / r["best_s"] / 1e6:>6.2f} {r["best_s"] / zstd["best_s"]:>7.2f}x {r["peak_rss_mib"]:>8.1f}')
nightly = next(r for r in results if r["label"].startswith("nightly"))
line = (f'  analyze / zstd -dc: best {analyze["best_s"] / zstd["best_s"]:.2f}x, median '
        f'{analyze["median_s"] / zstd["median_s"]:.2f}x; nightly / analyze: {nightly["best_s"] / analyze["best_s"]:.2f}x')
duck = next((r for r in results if r["label"].startswith("duckdb")), None)
if duck:
    line += f'; duckdb / analyze: {duck["best_s"] / analyze["best_s"]:.1f}x'
print(line)
# The floor of the default jobs' wall time if the second core cost nothing: one thread's CPU time
# spread evenly over the cores, with no hand-over, no wait and no serial start or end.
one = next(r for r in results if r["label"] == "analyze --out --jobs 1")
cores = os.cpu_count() or 1
floor = one["best_cpu_s"] / cores
print(f'  floor on {cores} cores (--jobs 1 CPU / {cores}): {floor:.3f} s = {floor / zstd["best_s"]:.2f}x zstd -dc; '
      f'the default jobs: {analyze["best_cpu_s"] / one["best_cpu_s"]:.2f}x the CPU of --jobs 1, '
      f'{analyze["best_s"] / floor:.2f}x the floor')
PY
    done
done
