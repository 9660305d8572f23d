#!/usr/bin/env bash
# hig-audit instruction counts: the hot path measured in instructions (valgrind's callgrind), which are
# the same from run to run whatever else the machine is doing, next to `zstd -dc` on the same data.
#
#   Tests/Benchmarks/instructions.sh [SLICE_BYTES]     (default 30000000: the first ~30 MB of the
#                                                       benchmark's one-day input, cut at a line end)
#   SIMULATE=1 Tests/Benchmarks/instructions.sh         also simulate caches and branch prediction
#                                                       (cachegrind) for `zstd -dc` and `analyze --out`
#
# Wall time on a shared 2-core machine varies by ±30% between runs (seen: 0.80–1.41 s for the same
# decode run), too much to judge a change worth a few percent; instruction counts do not vary. They do
# not show cache misses or branch mispredictions, so a change that lowers them is confirmed with
# run.sh's wall times before it is kept (a stage-one quote bitmap once saved in string scanning the
# instructions it cost, and the wall time agreed).
#
# Prints, per step, instructions in total and per line, the ratio to `zstd -dc`, and the functions
# that execute the most instructions. Needs valgrind, zstd, swift; reuses run.sh's input in work/
# (run run.sh once first). Builds as run.sh does, without debug information, into
# .build-instructions: valgrind 3.19 cannot read the DWARF of Swift 6 binaries ("Possibly corrupted
# debuginfo file").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
slice_bytes="${1:-30000000}"
work="$here/work"
# ENCODERS=mixed counts on run.sh's mixed-encoder input (`ENCODERS=mixed run.sh` first); MIX=field on
# its field-like input (`MIX=field run.sh` first; mixed encoders unless ENCODERS says otherwise).
mix="${MIX:-}"
encoders="${ENCODERS:-$([ -n "$mix" ] && echo mixed || echo uniform)}"
suffix=$([ "$encoders" = uniform ] && echo "" || echo "-$encoders")$([ -z "$mix" ] || echo "-$mix")
input="$work/one-day$suffix.ndjson.zst"
scratch="$here/.build-instructions"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -f "$input" ] || { echo "no $input: run Tests/Benchmarks/run.sh once first" >&2; exit 2; }

echo "== building (release, no debug information)" >&2
# As in run.sh: a source file added to hig-audit is otherwise missed by the harness's kept build plan.
rm -f "$scratch/release.yaml" "$scratch/release/description.json"
swift build -c release --static-swift-stdlib --package-path "$here" --scratch-path "$scratch" -Xswiftc -gnone \
    --product IngestThroughput >&2
swift build -c release --static-swift-stdlib --package-path "$root" --scratch-path "$scratch-cli" -Xswiftc -gnone \
    --product hig-audit >&2
bin="$work/instructions-bin"
mkdir -p "$bin"
objcopy --strip-debug "$scratch/release/IngestThroughput" "$bin/IngestThroughput"
objcopy --strip-debug "$scratch-cli/release/hig-audit" "$bin/hig-audit"

slice="$work/slice-$slice_bytes$suffix.ndjson.zst"
if [ ! -f "$slice" ]; then
    # head -n -1 drops the line the byte limit cut in two; zstd -dc ends on SIGPIPE, as it should.
    (set +o pipefail; zstd -qdcf "$input" | head -c "$slice_bytes" | head -n -1 | zstd -q -3 -o "$slice.part")
    mv "$slice.part" "$slice"
fi
lines=$(zstd -qdcf "$slice" | wc -l)
echo "== slice: $lines lines, $(zstd -qdcf "$slice" | wc -c) bytes of NDJSON" >&2

count() { # out-file command...
    local out="$1"
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log"
    grep -o 'Collected : [0-9]*' "$out.log" | grep -o '[0-9]*$'
}
zstd_ir=$(count "$work/callgrind.zstd" zstd -qdcf "$slice")
decode_ir=$(count "$work/callgrind.decode" "$bin/IngestThroughput" "$slice")
rm -rf "$work/instructions-out"
# One thread (`--jobs 1`): the work itself. With reader threads the hand-over of events between
# threads adds instructions that buy wall time; jobs.sh measures that.
analyze_ir=$(count "$work/callgrind.analyze" "$bin/hig-audit" analyze --jobs 1 "$slice" --out "$work/instructions-out")

printf '%-24s %15s %12s %9s\n' step instructions "per line" "vs zstd"
for row in "zstd -dc:$zstd_ir" "decode+parse+validate:$decode_ir" "analyze --out:$analyze_ir"; do
    label="${row%%:*}"
    ir="${row##*:}"
    awk -v label="$label" -v ir="$ir" -v lines="$lines" -v base="$zstd_ir" \
        'BEGIN { printf "%-24s %15d %12.0f %8.2fx\n", label, ir, ir / lines, ir / base }'
done

top() { # callgrind-file
    echo
    echo "-- $(basename "$1"): functions by instructions executed (self), per line"
    callgrind_annotate --threshold=95 "$1" 2>/dev/null \
        | awk -v lines="$lines" '/^ *[0-9,]+ \([ 0-9.]+%\) / {
              n = $1; gsub(",", "", n); $1 = ""; $2 = ""; sub(/^ +/, "");
              sub(/ \[.*\]$/, ""); sub(/^.*:/, "");
              if (n + 0 > 0 && $0 != "PROGRAM TOTALS") printf "%10.0f  %s\n", n / lines, $0 }' \
        | head -16 | swift demangle --simplified | cut -c1-150 || true  # head's early exit is no failure
}
top "$work/callgrind.decode"
top "$work/callgrind.analyze"

# The slice's event mix (mix_stats.py), with the violations analyze found: what the counts above are per.
violations=$(awk -F, 'NR > 1 { total += $3 } END { print total + 0 }' "$work/instructions-out/summary.csv")
echo
echo "-- the slice's mix: $(zstd -qdcf "$slice" | python3 "$here/mix_stats.py" "$violations")"

# Cachegrind's models are simpler than a real CPU's (its branch predictor has little history, so
# patterned branches count as mispredicted more often than they are): upper bounds, for comparing
# builds and finding where the misses are, not cycle counts.
if [ "${SIMULATE:-0}" = 1 ]; then
    simulate() { # label out-file command...
        local label="$1" out="$2"
        shift 2
        valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="$out" "$@" \
            >/dev/null 2>"$out.log"
        awk -v label="$label" -v lines="$lines" '
            /D1  misses:/ { gsub(",", "", $4); d1 = $4 }
            /Mispredicts:/ { gsub(",", "", $3); mis = $3 }
            END { printf "%-24s %10.1f mispredicted branches, %5.1f L1 data misses a line\n", label, mis / lines, d1 / lines }' \
            "$out.log"
    }
    echo
    simulate "zstd -dc" "$work/cachegrind.zstd" zstd -qdcf "$slice"
    rm -rf "$work/instructions-out"
    simulate "analyze --out" "$work/cachegrind.analyze" "$bin/hig-audit" analyze --jobs 1 "$slice" --out "$work/instructions-out"
    echo
    echo "-- cachegrind.analyze: functions by mispredicted branches (conditional, indirect), per line"
    cg_annotate --show=Bcm,Bim --sort=Bcm "$work/cachegrind.analyze" 2>/dev/null \
        | awk -v lines="$lines" '/^ *[0-9,]+ / && !/PROGRAM TOTALS/ {
              gsub(/\([ 0-9.]+%\)/, ""); c = $1; i = $2; gsub(",", "", c); gsub(",", "", i);
              $1 = ""; $2 = ""; name = $0; sub(/^ +/, "", name); sub(/^[^:]*:/, "", name);
              printf "%8.2f %8.2f  %s\n", c / lines, i / lines, name }' \
        | head -12 | swift demangle --simplified | cut -c1-150 || true
fi
