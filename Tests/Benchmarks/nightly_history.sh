#!/usr/bin/env bash
# Times `nightly` into a store that earlier nights filled, next to `analyze` of the same night: the
# case users run every night, which jobs.sh (a new store each time) does not measure. The store holds
# NIGHTS synthetic nights with VIOLATIONS violations (dashboard_store.py, defaults 30 and 300,000,
# ~134 MB); each nightly run starts from a fresh copy of it, and the copy alone is timed too, so that
# it can be taken off. The nights are jobs.sh's per-device inputs (run jobs.sh once first).
#
#   Tests/Benchmarks/nightly_history.sh [VIOLATIONS [NIGHTS]]       RUNS=7 for more rounds (default 5)
#   HIG=path/to/hig-audit Tests/Benchmarks/nightly_history.sh       # an existing release build
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
violations="${1:-300000}"
nights="${2:-30}"
runs="${RUNS:-5}"
work="$here/work/history"
jobs_work="$here/work/jobs"
mkdir -p "$work"

source "$here/release_binary.sh"

store="$work/store-$violations-$nights.sqlite"
"$here/filled_store.sh" "$HIG" "$store" "$nights" "$violations"
echo "store: $(du -h "$store" | cut -f1), $violations violations over $nights nights" >&2

for encoding in uniform mixed; do
    input="$jobs_work/$encoding-per-device"
    [ -d "$input" ] || { echo "no $input: run Tests/Benchmarks/jobs.sh first" >&2; exit 1; }
    copy="$work/copy.sqlite"
    echo "== $encoding per-device night into the filled store" >&2
    python3 "$here/measure.py" "$runs" \
        "analyze --out" -- "$HIG" analyze --quiet "$input" --out "$work/out-analyze" --- \
        "copy of the store" -- sh -c "rm -f '$copy'* && cp '$store' '$copy'" --- \
        "copy, then nightly" -- sh -c "rm -f '$copy'* && cp '$store' '$copy' && exec '$HIG' nightly --quiet --store '$copy' --close-open '$input'" --- \
        "copy, then nightly --out" -- sh -c "rm -f '$copy'* && cp '$store' '$copy' && exec '$HIG' nightly --quiet --store '$copy' --close-open --out '$work/out-nightly' '$input'" \
        > "$work/results.json"
    python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
by = {r["label"]: r for r in results}
for r in results:
    print(f"  {r['label']:<26} best {r['best_s']:.3f} s  median {r['median_s']:.3f} s"
          f"  CPU {r['best_cpu_s']:.3f} s  RSS {r['peak_rss_mib']:.1f} MiB")
analyze, copy = by["analyze --out"]["best_s"], by["copy of the store"]["best_s"]
for label in ("copy, then nightly", "copy, then nightly --out"):
    print(f"  {label}, less the copy, / analyze: {(by[label]['best_s'] - copy) / analyze:.2f}x")
PY
done
