#!/usr/bin/env bash
# Importing speed (SPEC §7, issue 47), for each format, in lines a second: `analyze --from FORMAT` on an
# export, and `import` of it into a plain NDJSON file, each against `analyze` on the NDJSON `import`
# writes from it (the same events).
#
#   Tests/Benchmarks/import.sh [TARGET_BYTES]     (default 300000000 of NDJSON sampled, then re-encoded)
#   HIG=path/to/hig-audit Tests/Benchmarks/import.sh
#   MIX=field Tests/Benchmarks/import.sh 75000000 (issue 49's field-like mix, one day, mixed encoders
#                                                  unless ENCODERS says otherwise, as run.sh generates it)
#   FORMATS="otlp otlp+attributes-shuffled" Tests/Benchmarks/import.sh
#                                                 (the exports measured; FORMAT+VARIANT is FORMAT's export
#                                                  rewritten by export_variants.py VARIANT)
#
# The export is `hig-audit sample` re-encoded by `to_export.py` under the `hig.*` convention (every
# event `hig.<type>`), so both runs judge the same events. CPU time on one thread each (`--jobs 1`),
# and wall time at the default `--jobs` (the machine's cores: `--from` then reads on one thread while
# the run's thread judges, `analyze` on as many as the inputs allow). Needs python3.
#
# A shared or virtual machine's times wander by a third from run to run, more than the differences
# measured here, so the two runs are timed in pairs, one right after the other (PAIRS of them, 10 by
# default), and each figure is the median: of each side's times, and of the pairs' ratios.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${1:-300000000}"
mix="${MIX:-}"
encoders="${ENCODERS:-$([ -n "$mix" ] && echo mixed || echo uniform)}"
suffix=$([ "$encoders" = uniform ] && echo "" || echo "-$encoders")$([ -z "$mix" ] || echo "-$mix")
work="$here/work/import-$target$suffix"
source "$here/release_binary.sh"
mkdir -p "$work"
cd "$work"
if [ ! -f sample.ndjson ]; then
    echo "== generating (seed 2026, no noise)" >&2
    rm -rf sample
    "$HIG" sample --target-bytes "$target" --no-noise --seed 2026 --out sample \
        ${mix:+--mix "$mix" --days 1} --encoders "$encoders" >&2
    find sample -name '*.zst' | sort | xargs zstd -qdcf > sample.ndjson
fi
lines() { wc -l < "$1"; }
pairs="${PAIRS:-10}"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# paired FORMAT EXPORT NDJSON JOBS FIELD: `pairs` pairs of runs, the export's (`--from FORMAT`) then the
# NDJSON's, at `--jobs JOBS`; FIELD is what /usr/bin/time reports of each (`%U %S` CPU, `%e` wall).
# Prints the median seconds of the export's runs, of the NDJSON's, and the median of the pairs' ratios
# (NDJSON seconds over export seconds).
# With JOBS `import`, the export's side is `import` into a plain file (one thread) and the NDJSON's
# `analyze --jobs 1`.
paired() {
    local format=$1 export=$2 ndjson=$3 jobs=$4 field=$5 jobs_option=()
    [ "$jobs" = default ] || [ "$jobs" = import ] || jobs_option=(--jobs "$jobs")
    [ "$jobs" = import ] && jobs_option=(--jobs 1)
    : > pairs.txt
    for _ in $(seq "$pairs"); do
        if [ "$jobs" = import ]; then
            /usr/bin/time -o a.txt -f "$field" "$HIG" import --from "$format" "$export" -o imported.ndjson -q > /dev/null 2>&1 || true
        else
            /usr/bin/time -o a.txt -f "$field" "$HIG" analyze "${jobs_option[@]}" --from "$format" "$export" --table summary --format csv > /dev/null 2>&1 || true
        fi
        /usr/bin/time -o b.txt -f "$field" "$HIG" analyze "${jobs_option[@]}" "$ndjson" --table summary --format csv > /dev/null 2>&1 || true
        echo "$(awk '{ print $1 + $2 }' a.txt) $(awk '{ print $1 + $2 }' b.txt)" >> pairs.txt
    done
    echo "$(awk '{ print $1 }' pairs.txt | median) $(awk '{ print $2 }' pairs.txt | median) $(awk '{ print $2 / $1 }' pairs.txt | median)"
}
printf '| format | export | lines | --from CPU | imported NDJSON | analyze CPU | ratio a line | --from wall | analyze wall | ratio a line | import CPU | analyze CPU | ratio a line |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
# `otlp-batched`: OTLP with up to 100 records a line (`to_export.py`); its rate is in records, the
# NDJSON's lines it becomes.
for format in ${FORMATS:-posthog datadog-rum otlp otlp-batched}; do
    encoded="${format%%+*}"
    from_format="${encoded%-batched}"
    # Written aside and moved into place, so that a run stopped midway (or an unknown variant) leaves no
    # partial export for the next run to take.
    if [ ! -f "$encoded.jsonl" ]; then
        python3 "$here/to_export.py" "$encoded" < sample.ndjson > "$encoded.jsonl.part"
        mv "$encoded.jsonl.part" "$encoded.jsonl"
    fi
    if [ ! -f "$format.jsonl" ]; then
        python3 "$here/export_variants.py" "$from_format" "${format#*+}" < "$encoded.jsonl" > "$format.jsonl.part"
        mv "$format.jsonl.part" "$format.jsonl"
    fi
    "$HIG" import --from "$from_format" "$format.jsonl" -o "$format.ndjson" -q
    ndjson_lines=$(lines "$format.ndjson")
    export_lines=$ndjson_lines
    [ "$encoded" = otlp-batched ] || export_lines=$(lines "$format.jsonl")
    read -r from native cpu_ratio < <(paired "$from_format" "$format.jsonl" "$format.ndjson" 1 "%U %S")
    read -r from_wall native_wall wall_ratio < <(paired "$from_format" "$format.jsonl" "$format.ndjson" default "%e")
    read -r import_cpu import_native import_ratio < <(paired "$from_format" "$format.jsonl" "$format.ndjson" import "%U %S")
    # A line of the export against a line of the NDJSON (a batched export's lines count its records).
    scale=$(echo "$export_lines / $ndjson_lines" | bc -l)
    printf '| %s | %s MB | %s | %.2f s | %s MB | %.2f s | %.2f | %.2f s | %.2f s | %.2f | %.2f s | %.2f s | %.2f |\n' "$format" \
        "$(( $(stat -L -c %s "$format.jsonl") / 1000000 ))" "$export_lines" "$from" \
        "$(( $(stat -L -c %s "$format.ndjson") / 1000000 ))" "$native" "$(echo "$cpu_ratio * $scale" | bc -l)" \
        "$from_wall" "$native_wall" "$(echo "$wall_ratio * $scale" | bc -l)" \
        "$import_cpu" "$import_native" "$(echo "$import_ratio * $scale" | bc -l)"
done
rm -f imported.ndjson
