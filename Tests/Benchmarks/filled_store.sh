#!/usr/bin/env bash
# Makes STORE, unless it exists: a store that a real `nightly` run created (ten minutes of the sample
# night, for its schema and rules), then filled with NIGHTS synthetic nights holding VIOLATIONS
# violations by dashboard_store.py (fixed seed: the same arguments give the same rows).
#
#   Tests/Benchmarks/filled_store.sh HIG_AUDIT STORE NIGHTS VIOLATIONS
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
hig="$1" store="$2" nights="$3" violations="$4"
[ -f "$store" ] && exit 0
echo "filling $store" >&2
rm -f "$store.tmp"
"$hig" nightly --store "$store.tmp" --quiet --close-open "$root/SampleLogs/night-2026-11-20/2026-11-20/1800" || true
python3 "$here/dashboard_store.py" "$store.tmp" "$nights" "$violations"
mv "$store.tmp" "$store"
