#!/usr/bin/env bash
# hig-audit on session ids written as UUIDs, as most apps write them, against the same logs with
# `sample`'s 16-digit ids: the cost of an id too long to be a short inline text.
#
#   Tests/Benchmarks/uuid_sessions.sh
#
# The input is jobs.sh's uniform six files (run jobs.sh once first) with every `"session":"<16 hex>"`
# rewritten as the UUID `"session":"<8>-<4>-<4>-8000-<12>"` (the same digits, so sessions stay apart),
# each file recompressed as jobs.sh compresses it, into work/uuid-six-files/. In RUNS alternating rounds
# (measure.py): `zstd -dc` and `analyze --out` (--jobs 1 and the default) of both. Set HIG=path to time
# an existing binary instead of building one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${RUNS:-5}"
hex="$here/work/jobs/uniform-six-files"
uuid="$here/work/uuid-six-files"
[ -d "$hex" ] || { echo "no $hex: run Tests/Benchmarks/jobs.sh once first" >&2; exit 2; }

source "$here/release_binary.sh"

if [ ! -d "$uuid" ]; then
    echo "== rewriting the session ids of $hex as UUIDs" >&2
    mkdir -p "$uuid.part"
    for file in "$hex"/*.zst; do
        zstd -qdc "$file" \
            | sed -E 's/"session":"([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})"/"session":"\1-\2-\3-8000-\1\2"/' \
            | zstd -q -3 -T1 -o "$uuid.part/$(basename "$file")"
    done
    mv "$uuid.part" "$uuid"
fi

json=$(python3 "$here/measure.py" "$runs" \
    "zstd -dc, 16-digit ids" -- sh -c "zstd -qdc '$hex'/*.zst" --- \
    "zstd -dc, UUIDs" -- sh -c "zstd -qdc '$uuid'/*.zst" --- \
    "analyze --jobs 1, 16-digit ids" -- "$HIG" analyze --quiet --jobs 1 "$hex" --out "$here/work/uuid-out-hex-1" --- \
    "analyze --jobs 1, UUIDs" -- "$HIG" analyze --quiet --jobs 1 "$uuid" --out "$here/work/uuid-out-uuid-1" --- \
    "analyze, 16-digit ids" -- "$HIG" analyze --quiet "$hex" --out "$here/work/uuid-out-hex" --- \
    "analyze, UUIDs" -- "$HIG" analyze --quiet "$uuid" --out "$here/work/uuid-out-uuid")
python3 - "$json" <<'PY'
import json, sys
results = {r["label"]: r for r in json.loads(sys.argv[1])}
print(f'  {"step":<32} {"best s":>7} {"median":>7} {"CPU s":>7} {"RSS MiB":>8}')
for label, r in results.items():
    print(f'  {label:<32} {r["best_s"]:>7.3f} {r["median_s"]:>7.3f} {r["best_cpu_s"]:>7.3f} {r["peak_rss_mib"]:>8.1f}')
for ids in ("16-digit ids", "UUIDs"):
    zstd = results[f"zstd -dc, {ids}"]
    print(f'  {ids}: analyze / zstd -dc {results[f"analyze, {ids}"]["best_s"] / zstd["best_s"]:.2f}x, '
          f'--jobs 1 / zstd -dc {results[f"analyze --jobs 1, {ids}"]["best_s"] / zstd["best_s"]:.2f}x')
PY
