#!/usr/bin/env bash
# Times `hig-audit dashboard` on a large store: NIGHTS nightly runs (default 90) holding VIOLATIONS
# violations (default 1,000,000), filled by dashboard_store.py through the store's schema, and prints
# the page's size. The bar (issue 29): under 3 s, a page under 2 MB.
#
#   Tests/Benchmarks/dashboard.sh [VIOLATIONS [NIGHTS]]      RUNS=5 for more rounds (default 3)
#   HIG_AUDIT=path/to/hig-audit Tests/Benchmarks/dashboard.sh  # an existing release build
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
violations="${1:-1000000}"
nights="${2:-90}"
runs="${RUNS:-3}"
work="$here/work/dashboard"
mkdir -p "$work"

if [ -z "${HIG_AUDIT:-}" ]; then
    swift build -c release --static-swift-stdlib --package-path "$root" --product hig-audit >&2
    HIG_AUDIT="$(swift build -c release --static-swift-stdlib --package-path "$root" --show-bin-path)/hig-audit"
fi

store="$work/store-$violations-$nights.sqlite"
"$here/filled_store.sh" "$HIG_AUDIT" "$store" "$nights" "$violations"
sqlite_count() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$store" "$1"; }
echo "store: $(sqlite_count 'SELECT COUNT(*) FROM violations') violations, $(sqlite_count 'SELECT COUNT(*) FROM sessions') sessions, $(sqlite_count 'SELECT COUNT(*) FROM runs') runs, $(du -h "$store" | cut -f1)" >&2

python3 "$here/measure.py" "$runs" dashboard -- "$HIG_AUDIT" dashboard --store "$store" --out "$work/site"
echo "page: $(wc -c < "$work/site/index.html") bytes" >&2
