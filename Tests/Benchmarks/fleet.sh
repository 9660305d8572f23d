#!/usr/bin/env bash
# hig-audit at fleet scale: one short session per device (session.start, app.ready, session.end, in
# time order), DEVICES devices, as issue 46 measured them. Prints, for `analyze` and for a `nightly`
# that leaves every session open (no --close-open: the checkpoint holds them all) followed by the
# night that continues them, the wall time, the CPU time (user and system) and CPU time per event, peak
# RSS and RSS per device. On a shared machine the CPU time is the figure to compare.
#
#   Tests/Benchmarks/fleet.sh [DEVICES...]      (default: 10000 100000)
#
# Inputs are made once into work/fleet-N.ndjson.zst. Set HIG=path to time an existing binary instead of
# building one, ANALYZE_ONLY=1 to time `analyze` alone. Peak RSS is GNU time's maximum resident set size.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work"
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
source "$here/release_binary.sh"

make_input() { # DEVICES FILE: one session a device, each 2.5 s long, devices 3 ms apart
    python3 - "$1" <<'PY' | zstd -q -3 -T1 -o "$2"
import sys
devices = int(sys.argv[1])
start = 1795197600000
out = sys.stdout
for d in range(devices):
    ts = start + 3 * d
    common = '"session":"s-%d","device":"d-%d","app_version":"5.2.%d"' % (d, d, d % 3)
    out.write('{"ts":%d,%s,"type":"session.start","screen":"home"}\n' % (ts, common))
    out.write('{"ts":%d,%s,"type":"app.ready"}\n' % (ts + 900, common))
    out.write('{"ts":%d,%s,"type":"session.end"}\n' % (ts + 2500, common))
PY
}

measure() { # LABEL EVENTS DEVICES COMMAND...: one line of figures
    local label="$1" events="$2" devices="$3"; shift 3
    local report; report="$(mktemp)"
    local status=0
    /usr/bin/time -f '%e %M %U %S' -o "$report" "$@" >/dev/null 2>&1 || status=$?
    read -r seconds kib user system < "$report"
    rm -f "$report"
    python3 - "$label" "$seconds" "$kib" "$events" "$devices" "$status" "$user" "$system" <<'PY'
import sys
label, seconds, kib, events, devices, status = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
cpu = float(sys.argv[7]) + float(sys.argv[8])
print(f"  {label:<44} {seconds:>7.2f} s {cpu:>7.2f} s CPU {cpu / events * 1e9:>6.0f} ns/event {kib / 1024:>8.1f} MiB "
      f"{kib * 1024 / devices:>7.0f} B/device  (exit {status})")
PY
}

for devices in "${@:-10000 100000}"; do
    input="$work/fleet-$devices.ndjson.zst"
    [ -f "$input" ] || { echo "== making $input" >&2; make_input "$devices" "$input"; }
    events=$((devices * 3))
    echo "$devices devices, $events events"
    measure "analyze" "$events" "$devices" "$HIG" analyze --quiet --table summary --format csv "$input"
    [ -z "${ANALYZE_ONLY:-}" ] || continue
    store="$work/fleet-$devices.sqlite"
    rm -f "$store" "$store"-*
    measure "nightly, every session left open" "$events" "$devices" "$HIG" nightly --quiet --store "$store" "$input"
    open=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT open_sessions FROM engine_checkpoint').fetchone()[0])" "$store")
    echo "  checkpointed open sessions: $open; store $(du -h "$store" | cut -f1)"
    empty="$work/fleet-empty.ndjson"
    : > "$empty"
    measure "nightly --close-open, continuing them" "$events" "$devices" "$HIG" nightly --quiet --allow-missing --close-open --store "$store" "$empty"
done
