#!/usr/bin/env bash
# Importing speed (SPEC §7, issue 47): `analyze --from FORMAT` on an export against `analyze` on the
# NDJSON `import` writes from it (the same events), in lines a second, for each format.
#
#   Tests/Benchmarks/import.sh [TARGET_BYTES]     (default 300000000 of NDJSON sampled, then re-encoded)
#   HIG=path/to/hig-audit Tests/Benchmarks/import.sh
#
# The export is `hig-audit sample` re-encoded by `to_export.py` under the `hig.*` convention (every
# event `hig.<type>`), so both runs judge the same events. CPU time on one thread each (`--jobs 1`),
# and wall time at the default `--jobs` (the machine's cores: `--from` then reads on one thread while
# the run's thread judges, `analyze` on as many as the inputs allow). Needs python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${1:-300000000}"
work="$here/work/import-$target"
source "$here/release_binary.sh"
mkdir -p "$work"
cd "$work"
if [ ! -f sample.ndjson ]; then
    echo "== generating (seed 2026, no noise)" >&2
    rm -rf sample
    "$HIG" sample --target-bytes "$target" --no-noise --seed 2026 --out sample >&2
    find sample -name '*.zst' | sort | xargs zstd -qdcf > sample.ndjson
fi
lines() { wc -l < "$1"; }
best() { # best CPU seconds (user + system) of 2 runs of the command: a shared machine's wall time wanders
    local best=""
    for _ in 1 2; do
        local took
        /usr/bin/time -o cpu.txt -f "%U %S" "$@" > /dev/null 2>&1 || true
        took=$(awk '{ print $1 + $2 }' cpu.txt)
        if [ -z "$best" ] || [ "$(echo "$took < $best" | bc)" = 1 ]; then best=$took; fi
    done
    echo "$best"
}
wall() { # best wall seconds of 3 runs of the command at the default --jobs
    local best=""
    for _ in 1 2 3; do
        local took
        /usr/bin/time -o wall.txt -f "%e" "$@" > /dev/null 2>&1 || true
        took=$(cat wall.txt)
        if [ -z "$best" ] || [ "$(echo "$took < $best" | bc)" = 1 ]; then best=$took; fi
    done
    echo "$best"
}
printf '| format | export | lines | --from CPU | lines/s | imported NDJSON | analyze CPU | lines/s | ratio | --from wall | analyze wall | ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n'
# `otlp-batched`: OTLP with up to 100 records a line (`to_export.py`); its rate is in records, the
# NDJSON's lines it becomes.
for format in posthog datadog-rum otlp otlp-batched; do
    from_format="${format%-batched}"
    [ -f "$format.jsonl" ] || python3 "$here/to_export.py" "$format" < sample.ndjson > "$format.jsonl"
    "$HIG" import --from "$from_format" "$format.jsonl" -o "$format.ndjson" -q
    ndjson_lines=$(lines "$format.ndjson")
    export_lines=$ndjson_lines
    [ "$format" = otlp-batched ] || export_lines=$(lines "$format.jsonl")
    from=$(best "$HIG" analyze --jobs 1 --from "$from_format" "$format.jsonl" --table summary --format csv)
    native=$(best "$HIG" analyze --jobs 1 "$format.ndjson" --table summary --format csv)
    from_wall=$(wall "$HIG" analyze --from "$from_format" "$format.jsonl" --table summary --format csv)
    native_wall=$(wall "$HIG" analyze "$format.ndjson" --table summary --format csv)
    printf '| %s | %s MB | %s | %.2f s | %.0f | %s MB | %.2f s | %.0f | %.2f | %.2f s | %.2f s | %.2f |\n' "$format" \
        "$(( $(stat -L -c %s "$format.jsonl") / 1000000 ))" "$export_lines" "$from" "$(echo "$export_lines / $from" | bc -l)" \
        "$(( $(stat -L -c %s "$format.ndjson") / 1000000 ))" "$native" "$(echo "$ndjson_lines / $native" | bc -l)" \
        "$(echo "($export_lines / $from) / ($ndjson_lines / $native)" | bc -l)" \
        "$from_wall" "$native_wall" "$(echo "($export_lines / $from_wall) / ($ndjson_lines / $native_wall)" | bc -l)"
done
