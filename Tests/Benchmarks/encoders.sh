#!/usr/bin/env bash
# Decoding cost per writer: callgrind instructions a line of IngestThroughput (reading and decoding,
# zstd included) on a file of each SDK encoder's lines alone, on the mixed file and on the uniform one,
# next to `zstd -dc` of the same file.
#
#   Tests/Benchmarks/encoders.sh [TARGET_BYTES]      (default 40000000 of NDJSON per sample)
#   HIG=path/to/hig-audit INGEST=path/to/IngestThroughput Tests/Benchmarks/encoders.sh
#
# `sample --encoders mixed` gives device i the encoder `SDKEncoder.allCases[(i - 1) % 7]` (devices
# are numbered from ipad-0001), so the per-device layout of the mixed sample, joined by encoder, is a
# file per writer holding the same kind of sessions. The time-first samples, joined in path order,
# are the uniform and mixed inputs. Needs valgrind, zstd, python3; builds as instructions.sh does
# unless HIG and INGEST are given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${1:-40000000}"
work="$here/work/encoders-$target"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }

if [ -z "${HIG:-}" ] || [ -z "${INGEST:-}" ]; then
    echo "== building (release, no debug information)" >&2
    rm -f "$here/.build-instructions/release.yaml" "$here/.build-instructions/release/description.json"
    swift build -c release --static-swift-stdlib --package-path "$here" --scratch-path "$here/.build-instructions" \
        -Xswiftc -gnone --product IngestThroughput >&2
    swift build -c release --static-swift-stdlib --package-path "$root" --scratch-path "$here/.build-instructions-cli" \
        -Xswiftc -gnone --product hig-audit >&2
    mkdir -p "$work/bin"
    objcopy --strip-debug "$here/.build-instructions/release/IngestThroughput" "$work/bin/IngestThroughput"
    objcopy --strip-debug "$here/.build-instructions-cli/release/hig-audit" "$work/bin/hig-audit"
    HIG="$work/bin/hig-audit"
    INGEST="$work/bin/IngestThroughput"
fi
mkdir -p "$work"
cd "$work"

encoders=(hig-audit python javascript go dotnet foundation c-logger)
if [ ! -f enc-c-logger.ndjson.zst ]; then
    echo "== generating (seed 2026, no noise)" >&2
    rm -rf mixed-dev mixed-time uniform-time
    "$HIG" sample --target-bytes "$target" --seed 2026 --no-noise --encoders mixed --layout device --out mixed-dev --quiet
    "$HIG" sample --target-bytes "$target" --seed 2026 --no-noise --encoders mixed --out mixed-time --quiet
    "$HIG" sample --target-bytes "$target" --seed 2026 --no-noise --out uniform-time --quiet
    for mix in mixed uniform; do
        find "$mix-time" -name '*.zst' | sort | xargs zstd -qdcf | zstd -q -3 -f -o "$mix.ndjson.zst"
    done
    for k in "${!encoders[@]}"; do
        ls mixed-dev/devices/*.zst | python3 -c "
import re, sys
for path in sys.stdin:
    if (int(re.search(r'ipad-(\d+)', path).group(1)) - 1) % 7 == $k: print(path.strip())" \
            | xargs zstd -qdcf | zstd -q -3 -f -o "enc-${encoders[$k]}.ndjson.zst"
    done
fi

count() { # command...
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
printf '%-16s %8s %14s %12s %14s\n' input lines "zstd -dc/line" "total/line" "decoding/line"
for name in uniform mixed $(printf 'enc-%s ' "${encoders[@]}"); do
    lines=$(zstd -qdcf "$name.ndjson.zst" | wc -l)
    zstd_ir=$(count zstd -qdcf "$name.ndjson.zst")
    ingest_ir=$(count "$INGEST" "$name.ndjson.zst")
    awk -v n="$name" -v l="$lines" -v z="$zstd_ir" -v i="$ingest_ir" \
        'BEGIN { printf "%-16s %8d %14.0f %12.0f %14.0f\n", n, l, z / l, i / l, (i - z) / l }'
done
