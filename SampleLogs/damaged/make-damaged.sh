#!/bin/sh
# Rebuilds SampleLogs/damaged/: the faults an operator meets in a night's uploads, made from clean
# `hig-audit sample` output with the zstd CLI, so that every byte is explained.
#
#   SampleLogs/damaged/make-damaged.sh        (from anywhere; uses $HIG_AUDIT, else `swift run hig-audit`)
#
# The clean source is one device's three short sessions (`--seed 7 --no-noise`), 300 lines taken in
# time order. Each file gets its own stretch of that time, in the order the files are read
# (lexicographic), so the good data reads as one well-ordered stream:
#   corrupt-frame.ndjson.zst     lines   1-120 as three frames of 40 lines; the middle frame's
#                                compressed block is overwritten with bytes that cannot decode
#   garbage.ndjson.zst           no log at all: the HTML error page a proxy returned, stored as the upload
#   malformed-lines.ndjson       lines 121-180 as plain NDJSON, five of them broken in five ways
#   truncated-upload.ndjson.zst  lines 181-300 as three frames of 40 lines, the file cut 64 bytes
#                                before its end (an upload still in progress)
#   zero-filled-tail.ndjson.zst  lines 301-320 as one frame, then 4096 zero bytes (the block a crash
#                                left unwritten)
# So the good data is 80 + 55 + 80 + 20 = 235 events.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
if [ -n "${HIG_AUDIT:-}" ]; then
    hig_audit() { "$HIG_AUDIT" "$@"; }
else
    hig_audit() { swift run --quiet hig-audit "$@"; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hig_audit sample --out "$work/sample" --sessions 3 --devices 1 --seed 7 --no-noise \
    --session-length short --move-sampling-ms 250 2>/dev/null
# Every file of the sample in path order (= time order), decompressed.
find "$work/sample" -name '*.ndjson.zst' | LC_ALL=C sort | xargs zstd -dcq > "$work/all.ndjson"
[ "$(wc -l < "$work/all.ndjson")" -ge 320 ] || { echo "sample too short" >&2; exit 1; }

lines() { sed -n "$1,$2p" "$work/all.ndjson"; }
frame() { lines "$1" "$2" | zstd -q -c --check -3; }

# A corrupt frame between good ones: the frame header stays valid, its single compressed block is
# overwritten from byte 16 of the frame on with 0xFF bytes, which no zstd decoder accepts.
frame 1 40 > "$work/f1"
frame 41 80 > "$work/f2"
frame 81 120 > "$work/f3"
size=$(wc -c < "$work/f2")
head -c 16 "$work/f2" > "$work/f2.bad"
head -c $((size - 16)) /dev/zero | tr '\000' '\377' >> "$work/f2.bad"
cat "$work/f1" "$work/f2.bad" "$work/f3" > "$here/corrupt-frame.ndjson.zst"

# A file of garbage: not zstd, not text lines of JSON.
cat > "$here/garbage.ndjson.zst" <<'HTML'
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
HTML

# Five malformed lines among good ones: a trailing comma, no `ts`, single quotes, a line cut short,
# an unparsable time. Every sample line starts with {"ts":" and ends with }, so each edit breaks it.
lines 121 180 | sed \
    -e '5s/}$/,}/' \
    -e '15s/^{"ts":"[^"]*",/{/' \
    -e "25s/\"session\":\"\\([0-9a-f]*\\)\"/'session':'\\1'/" \
    -e '35s/^\(.\{60\}\).*/\1/' \
    -e '45s/"ts":"\([^"]*\)"/"ts":"\1 (retried)"/' \
    > "$here/malformed-lines.ndjson"

# A truncated upload: three frames, the file cut inside the last one.
{ frame 181 220; frame 221 260; frame 261 300; } > "$work/truncated"
size=$(wc -c < "$work/truncated")
head -c $((size - 64)) "$work/truncated" > "$here/truncated-upload.ndjson.zst"

# Good frames, then a file-system block of zeros where a crash cut the write short.
frame 301 320 > "$here/zero-filled-tail.ndjson.zst"
head -c 4096 /dev/zero >> "$here/zero-filled-tail.ndjson.zst"

ls -l "$here"
