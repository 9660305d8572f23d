#!/usr/bin/env bash
# Does a night cost more with every night the store holds? (issue 46, "Nights cost what the night
# holds".) Makes NIGHTS+1 nights of sample logs (`sample --days`, DEVICES devices, four sessions a
# device a day, moves sampled every 100 ms), runs `nightly` for
# the first NIGHTS of them into one store, then times the last night into a copy of that store and into
# a new store, in alternation (measure.py), and prints the ratio of the two.
#
#   Tests/Benchmarks/nights.sh [NIGHTS [DEVICES]]        (default: 30 nights, 200 devices)
#   HIG=path/to/hig-audit Tests/Benchmarks/nights.sh     # an existing release build
#   RUNS=5 for more rounds (default 3)
#
# The copy of the store is made by every timed command and timed alone too, so that it can be taken off.
# The store of NIGHTS nights is kept in work/ and reused: one made by an earlier version is migrated by
# every timed run (each starts from a copy), so remove it to time a build whose store schema is newer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
nights="${1:-30}"
devices="${2:-200}"
runs="${RUNS:-3}"
work="$here/work/nights-$nights-$devices"
mkdir -p "$work"
source "$here/release_binary.sh"

logs="$work/logs"
if [ ! -d "$logs" ]; then
    echo "== making $((nights + 1)) nights of logs in $logs" >&2
    "$HIG" sample --quiet --out "$logs" --days "$((nights + 1))" --devices "$devices" --sessions "$((devices * 4 * (nights + 1)))" \
        --move-sampling-ms 100
fi
days=($(cd "$logs" && ls -d 20*/ | sed 's:/$::' | sort))
[ "${#days[@]}" -ge "$((nights + 1))" ] || { echo "expected $((nights + 1)) day folders in $logs" >&2; exit 1; }
last="$logs/${days[$nights]}"

history="$work/history.sqlite"
if [ ! -f "$history" ]; then
    echo "== $nights nights into $history" >&2
    rm -f "$history.tmp"
    for ((night = 0; night < nights; night++)); do
        # 3: the sample's noise (malformed lines, late events) is skipped input.
        "$HIG" nightly --quiet --store "$history.tmp" "$logs/${days[$night]}" || [ $? -eq 3 ]
    done
    mv "$history.tmp" "$history"
fi
echo "store of $nights nights: $(du -h "$history" | cut -f1); night $((nights + 1)): $(du -sh "$last" | cut -f1) of logs" >&2

copy="$work/copy.sqlite"
fresh="$work/fresh.sqlite"
python3 "$here/measure.py" "$runs" \
    "copy of the store" -- sh -c "rm -f '$copy'* && cp '$history' '$copy'" --- \
    "copy, then the night into it" -- sh -c "rm -f '$copy'* && cp '$history' '$copy' && '$HIG' nightly --quiet --store '$copy' '$last'; [ \$? -le 3 ]" --- \
    "the night into a new store" -- sh -c "rm -f '$fresh'* && '$HIG' nightly --quiet --store '$fresh' '$last'; [ \$? -le 3 ]" \
    > "$work/results.json"
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
by = {r["label"]: r for r in results}
for r in results:
    print(f"  {r['label']:<32} best {r['best_s']:.3f} s  median {r['median_s']:.3f} s"
          f"  CPU {r['best_cpu_s']:.3f} s  RSS {r['peak_rss_mib']:.1f} MiB")
history = by["copy, then the night into it"]["best_s"] - by["copy of the store"]["best_s"]
fresh = by["the night into a new store"]["best_s"]
rss = by["copy, then the night into it"]["peak_rss_mib"] / by["the night into a new store"]["peak_rss_mib"]
print(f"  night into the history, less the copy, / night into a new store: time {history / fresh:.2f}x, peak RSS {rss:.2f}x")
PY
