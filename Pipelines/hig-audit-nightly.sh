#!/usr/bin/env bash
# Runs one nightly hig-audit pass as described by nightly.yml (default: beside this script).
#
#   hig-audit-nightly.sh [path/to/nightly.yml]
#
# Logs go to standard error (cron mails them; systemd puts them in the journal). Exit status, for
# alerting: 0 all input read; 3 committed but some input was skipped (look at the log); 4 committed, but
# an output (--out, the dashboard, the malformed-line report, the Excel export) was not written; 1 fatal, nothing
# committed (the store is unchanged and the next run does the work); 64 a usage error in nightly.yml
# (an output that is one of the inputs or the store), nothing read; 75 another run holds the lock.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
pipeline="${1:-$here/nightly.yml}"
pipeline_dir="$(cd "$(dirname "$pipeline")" && pwd)"

log() { printf '%s hig-audit-nightly: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >&2; }

[ -r "$pipeline" ] || { log "cannot read $pipeline"; exit 1; }

# The value of a "key: value" line, comments and surrounding blanks removed.
value() {
    sed -n "s/^$1:[[:space:]]*//p" "$pipeline" | sed 's/[[:space:]]#.*$//; s/[[:space:]]*$//' | head -n 1
}
# The "  - item" lines under "key:".
items() {
    awk -v key="$1:" '
        $0 ~ "^" key { inside = 1; next }
        inside && /^[[:space:]]*-[[:space:]]/ { sub(/^[[:space:]]*-[[:space:]]*/, ""); sub(/[[:space:]]+#.*$/, ""); print; next }
        inside && /^[^[:space:]#]/ { inside = 0 }
    ' "$pipeline"
}
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$pipeline_dir/$1" ;; esac }

hig_audit="$(value hig_audit)"; hig_audit="${hig_audit:-hig-audit}"
store="$(value store)"
[ -n "$store" ] || { log "nightly.yml sets no store"; exit 1; }
store="$(absolute "$store")"
mapfile -t inputs < <(items inputs)
[ "${#inputs[@]}" -gt 0 ] || { log "nightly.yml lists no inputs"; exit 1; }

args=(nightly --store "$store")
config="$(value config)"; [ -n "$config" ] && args+=(--config "$(absolute "$config")")
out="$(value out)"; [ -n "$out" ] && args+=(--out "$(absolute "$out")")
dashboard="$(value dashboard)"; [ -n "$dashboard" ] && args+=(--dashboard "$(absolute "$dashboard")")
dashboard_templates="$(value dashboard_templates)"
[ -n "$dashboard" ] && [ -n "$dashboard_templates" ] && args+=(--dashboard-templates "$(absolute "$dashboard_templates")")
[ "$(value close_open)" = "true" ] && args+=(--close-open)
[ "$(value strict)" = "true" ] && args+=(--strict)
[ "$(value allow_missing)" = "true" ] && args+=(--allow-missing)
[ "$(value quiet)" = "true" ] && args+=(--quiet)
[ "$(value verbose)" = "true" ] && args+=(--verbose)
idle_runs="$(value idle_runs)"; [ -n "$idle_runs" ] && args+=(--idle-runs "$idle_runs")
jobs="$(value jobs)"; [ -n "$jobs" ] && args+=(--jobs "$jobs")
for input in "${inputs[@]}"; do args+=("$(absolute "$input")"); done

# One run at a time: a second run waits for no one, it just leaves.
mkdir -p "$(dirname "$store")"
exec 9>"$store.lock"
if ! flock -n 9; then
    log "another run holds $store.lock; not starting"
    exit 75
fi

log "starting: $hig_audit ${args[*]}"
"$hig_audit" "${args[@]}"
status=$?
case $status in
    0) log "run committed; all input read" ;;
    3) log "run committed, but some input was skipped (see the messages above)" ;;
    4) log "run committed, but an output was not written (see the messages above)" ;;
    66) log "an input in nightly.yml does not exist or holds no log (a missing mount?); nothing was read, the store is unchanged" ;;
    *) log "run failed with status $status; the store is unchanged" ;;
esac

excel_out="$(value excel_out)"
if { [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || [ "$status" -eq 4 ]; } && [ -n "$excel_out" ]; then
    if "$hig_audit" export --store "$store" --out "$(absolute "$excel_out")" --excel; then
        log "Excel export written to $excel_out"
    else
        log "Excel export failed; the run is committed"
        status=4
    fi
fi
exit "$status"
