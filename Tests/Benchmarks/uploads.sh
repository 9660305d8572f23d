#!/usr/bin/env bash
# hig-audit on a layout of one small file per upload: many inputs of a few lines each, where the cost
# per input (opening it, a zstd frame, handing it between threads) outweighs the lines.
#
#   Tests/Benchmarks/uploads.sh [FILES] [LINES_PER_FILE]     (default 20000 files of 3 lines)
#
# The files are the first FILES × LINES_PER_FILE lines of jobs.sh's uniform one-file input (run jobs.sh
# once first), cut in order into files of LINES_PER_FILE lines, each compressed on its own, 1,000 to a
# folder (work/uploads-FILES-LINES/up/NNN/uNNNNNN.ndjson.zst). In RUNS alternating rounds (measure.py):
# `zstd -dc` of every file (one process, the paths from a list), `analyze --out` with --jobs 1 and with
# the default (the cores available). Set HIG=path to time an existing binary instead of building one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
files="${1:-20000}"
lines_per_file="${2:-3}"
runs="${RUNS:-5}"
source_file="$here/work/jobs/uniform-one-file/all.ndjson.zst"
work="$here/work/uploads-$files-$lines_per_file"
[ -f "$source_file" ] || { echo "no $source_file: run Tests/Benchmarks/jobs.sh once first" >&2; exit 2; }

source "$here/release_binary.sh"

if [ ! -f "$work/list.txt" ]; then
    echo "== writing $files files of $lines_per_file lines" >&2
    rm -rf "$work"
    mkdir -p "$work/up"
    # head ends zstd with SIGPIPE, as it should.
    (set +o pipefail; zstd -qdc "$source_file" | head -n $((files * lines_per_file))) | python3 -c "
import os, sys
lines = sys.stdin.readlines()
per = $lines_per_file
for n in range(len(lines) // per):
    folder = '$work/up/%03d' % (n // 1000)
    os.makedirs(folder, exist_ok=True)
    with open('%s/u%06d.ndjson' % (folder, n), 'w') as out:
        out.writelines(lines[n * per:(n + 1) * per])
"
    find "$work/up" -name '*.ndjson' -print0 | xargs -0 zstd -q --rm -3
    find "$work/up" -name '*.zst' | sort > "$work/list.txt.part"
    mv "$work/list.txt.part" "$work/list.txt"
fi
echo "== $(wc -l < "$work/list.txt") files, $runs rounds" >&2

python3 "$here/measure.py" "$runs" \
    "zstd -dc" -- sh -c "xargs zstd -qdc < '$work/list.txt'" --- \
    "analyze --jobs 1" -- "$HIG" analyze --jobs 1 "$work/up" --out "$work/out-1" --- \
    "analyze" -- "$HIG" analyze "$work/up" --out "$work/out-n" \
    | python3 -c "
import json, sys
rows = json.load(sys.stdin)
zstd = rows[0]['best_s']
print('%-18s %8s %8s %8s %8s %9s' % ('command', 'best s', 'median s', 'cpu s', 'RSS MiB', '/zstd -dc'))
for r in rows:
    print('%-18s %8.3f %8.3f %8.3f %8.1f %8.2fx' % (
        r['label'], r['best_s'], r['median_s'], r['best_cpu_s'], r['peak_rss_mib'], r['best_s'] / zstd))
"
cmp -s <(cd "$work/out-1" && cat ./*.csv) <(cd "$work/out-n" && cat ./*.csv) || { echo "outputs of --jobs 1 and the default differ" >&2; exit 1; }
