#!/usr/bin/env bash
# Runs one nightly hig-audit pass as described by nightly.yml (default: beside this script), then its
# gate: `gate: worse` compares the sessions this run closed against the run before, and the newest app
# version against the one before it, as `hig-audit compare --fail-on worse` decides; `gate: new` fails
# when a violation this run recorded has a (rule, screen) pair the `baseline:` file lacks, as
# `hig-audit query --baseline --fail-on new` decides. `gate: worse new` does both.
#
#   hig-audit-nightly.sh [--log FILE] [path/to/nightly.yml]
#
# Logs go to standard error (systemd puts them in the journal). With --log FILE they are appended to
# FILE instead, and repeated on standard error only when the job needs attention (any status but 0, 3
# and 75), so that cron mails a night that went wrong and stays quiet otherwise.
#
# Exit status (Pipelines/README.md, "Exit status"); 0, 3 and 75 are a job that needs nobody:
#   0   committed; all input read; the gate found no rule worse
#   3   committed, but some input was skipped (a warning: counted in the journal; strict: true makes it 1)
#   4   committed, but an output (out, dashboard, excel_out, the malformed-line report) was not written
#   5   committed, and the gate found a rule worse or a new violation (the journal line "gate: worse …"
#       or "gate: new …" names the rules)
#   6   committed, but the gate could not compare (the store could not be read)
#   1   fatal, nothing committed: unreadable nightly.yml, store or baseline, damaged store, skipped input
#       with strict, gate: new without baseline:
#   64  a usage error in nightly.yml (an output that is one of the inputs or the store, an input that is
#       an SQLite file) or in the wrapper's own arguments, nothing read
#   66  an input does not exist or holds no log (a missing mount), nothing read
#   75  another run holds the lock, nothing done
#   127 the hig-audit executable (hig_audit:) is missing, nothing done
#   130 hig-audit was interrupted by SIGINT (Ctrl-C), nothing committed
#   143 hig-audit was interrupted by SIGTERM, nothing committed
# When several apply, the first of 5, 6, 4, 3 is the status; every one has its journal line.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
log_file=""
pipeline="$here/nightly.yml"
log() { printf '%s hig-audit-nightly: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >&2; }
usage() { log "$1; usage: hig-audit-nightly.sh [--log FILE] [path/to/nightly.yml]"; exit 64; }
while [ $# -gt 0 ]; do
    case "$1" in
        --log) [ $# -ge 2 ] && [ -n "$2" ] || usage "--log needs a file"; log_file="$2"; shift 2 ;;
        --log=?*) log_file="${1#--log=}"; shift ;;
        -*) usage "unknown option $1" ;;
        *) pipeline="$1"; shift ;;
    esac
done

# --log: this run's lines are collected, appended to the log file at the end, and repeated on the
# original standard error when the status needs attention.
if [ -n "$log_file" ]; then
    run_lines="$(mktemp)"
    exec 3>&2 2>"$run_lines"
    finish_log() {
        local status=$?
        cat "$run_lines" >> "$log_file" || cat "$run_lines" >&3
        case $status in 0 | 3 | 75) ;; *) cat "$run_lines" >&3 ;; esac
        rm -f "$run_lines"
    }
    trap finish_log EXIT
fi

[ -r "$pipeline" ] || { log "cannot read $pipeline"; exit 1; }
pipeline_dir="$(cd "$(dirname "$pipeline")" && pwd)"
# The file as Unix text: a nightly.yml saved on Windows (CRLF line ends, a byte order mark) reads the same.
pipeline_text="$(sed '1s/^\xEF\xBB\xBF//; s/\r$//' "$pipeline")"

# A value as YAML writes it: plain (a " #" comment and trailing blanks removed), or in single or
# double quotes, which keep what they hold (" #" too) and are removed (no escapes inside them).
scalar() {
    local raw="$1"
    case "$raw" in
        \"*\"*) raw="${raw#\"}"; printf '%s\n' "${raw%%\"*}" ;;
        \'*\'*) raw="${raw#\'}"; printf '%s\n' "${raw%%\'*}" ;;
        *) printf '%s\n' "$raw" | sed 's/[[:space:]]#.*$//; s/[[:space:]]*$//' ;;
    esac
}
# The value of a "key: value" line.
value() {
    scalar "$(printf '%s\n' "$pipeline_text" | sed -n "s/^$1:[[:space:]]*//p" | head -n 1)"
}
# The "  - item" lines under "key:", each a value as `scalar` reads it.
items() {
    local item
    printf '%s\n' "$pipeline_text" | awk -v key="$1:" '
        $0 ~ "^" key { inside = 1; next }
        inside && /^[[:space:]]*-[[:space:]]/ { sub(/^[[:space:]]*-[[:space:]]*/, ""); print; next }
        inside && /^[^[:space:]#]/ { inside = 0 }
    ' | while IFS= read -r item; do scalar "$item"; done
}
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$pipeline_dir/$1" ;; esac }

hig_audit="$(value hig_audit)"; hig_audit="${hig_audit:-hig-audit}"
store="$(value store)"
[ -n "$store" ] || { log "nightly.yml sets no store"; exit 1; }
store="$(absolute "$store")"
mapfile -t inputs < <(items inputs)
[ "${#inputs[@]}" -gt 0 ] || { log "nightly.yml lists no inputs"; exit 1; }
gate="$(value gate | tr ',' ' ')"
for kind in $gate; do
    case "$kind" in
        worse | new) ;;
        *) log "nightly.yml: gate: takes worse and/or new (or nothing, for no gate), not '$kind'"; exit 1 ;;
    esac
done
baseline="$(value baseline)"
[ -n "$baseline" ] && baseline="$(absolute "$baseline")"
if [[ " $gate " == *" new "* ]] && [ -z "$baseline" ]; then
    log "nightly.yml: gate: new needs baseline: (a file written by hig-audit baseline); nothing was run"
    exit 1
fi
gate_alpha="$(value gate_alpha)"
gate_compare="$(value gate_compare | tr ',' ' ')"; gate_compare="${gate_compare:-nights releases}"
for side in $gate_compare; do
    case "$side" in
        nights | releases) ;;
        *) log "nightly.yml: gate_compare: lists nights and/or releases, not '$side'"; exit 1 ;;
    esac
done
gates_on() { [[ " $gate " == *" worse "* ]] && [[ " $gate_compare " == *" $1 "* ]]; }

if ! command -v "$hig_audit" > /dev/null 2>&1; then
    log "the hig-audit executable '$hig_audit' is not found or not executable (hig_audit: in $pipeline); nothing was run"
    exit 127
fi

args=(nightly --store "$store")
config="$(value config)"; [ -n "$config" ] && args+=(--config "$(absolute "$config")")
[ -n "$baseline" ] && args+=(--baseline "$baseline")
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
    130 | 143) log "run interrupted by a signal (status $status); nothing was committed, the store is unchanged" ;;
    *) log "run failed with status $status; the store is unchanged" ;;
esac
case $status in 0 | 3 | 4) ;; *) exit "$status" ;; esac

# One row of a read-only query on the store, as comma-separated values without the header.
query_row() {
    "$hig_audit" query --store "$store" --sql "$1" --format csv --quiet | sed -n '2{s/\r$//;p;q}'
}

# The warning of a night that skipped input, with what it skipped (the run's row in the store).
if [ "$status" -eq 3 ]; then
    skipped="$(query_row "SELECT id, malformed_lines, truncated_files, files_changed, faults, skipped_bytes FROM runs ORDER BY id DESC LIMIT 1")"
    IFS=, read -r run_id malformed truncated changed faults skipped_bytes <<< "$skipped"
    log "warning: run ${run_id:-?} skipped input: ${malformed:-?} malformed lines, ${truncated:-?} truncated files, ${changed:-?} changed files, ${faults:-?} unreadable files or corrupt frames, ${skipped_bytes:-?} bytes skipped; the run is committed (strict: true would make this a failure)"
fi

excel_out="$(value excel_out)"
if [ -n "$excel_out" ]; then
    if "$hig_audit" export --store "$store" --out "$(absolute "$excel_out")" --excel; then
        log "Excel export written to $excel_out"
    else
        log "Excel export failed; the run is committed"
        status=4
    fi
fi

# The gate: `hig-audit compare --fail-on worse` on two sides; says which rules got worse.
gate_status=0
found_worse=0
found_new=0
compare_sides() {
    local what="$1"; shift
    local shown="$hig_audit compare --store $store $*"
    local command=(compare --store "$store" "$@" --fail-on worse --format csv --quiet)
    [ -n "$gate_alpha" ] && command+=(--alpha "$gate_alpha")
    local table compared
    table="$("$hig_audit" "${command[@]}")"
    compared=$?
    case $compared in
        0) log "gate: no rule worse in $what" ;;
        5)
            local worse
            worse="$(printf '%s\n' "$table" | tr -d '\r' | awk -F, '
                NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rule") r = i; if ($i == "verdict") v = i }; next }
                r && v && $v == "worse" { printf "%s%s", (n++ ? ", " : ""), $r }')"
            log "gate: worse in $what: ${worse:-see the table} ($shown prints the table)"
            gate_status=5
            found_worse=1
            ;;
        *)
            log "gate: could not compare $what (hig-audit compare exited $compared; see the message above)"
            [ "$gate_status" -eq 5 ] || gate_status=6
            ;;
    esac
}
if gates_on nights; then
    nights="$(query_row "SELECT (SELECT MAX(id) FROM runs), (SELECT COUNT(*) FROM sessions WHERE run_id = (SELECT MAX(id) FROM runs)), (SELECT MAX(run_id) FROM sessions WHERE run_id < (SELECT MAX(id) FROM runs))")"
    if [ -z "$nights" ]; then
        log "gate: could not read the runs of $store (see the message above)"
        gate_status=6
    else
        IFS=, read -r head_run head_sessions base_run <<< "$nights"
        if [ "${head_sessions:-0}" -eq 0 ]; then
            log "gate: run $head_run closed no session; no night to compare"
        elif [ -z "$base_run" ]; then
            log "gate: run $head_run is the first to close sessions; no night before it to compare"
        else
            compare_sides "run $head_run (this night) than in run $base_run (the night before)" --base-run "$base_run" --head-run "$head_run"
        fi
    fi
fi
if gates_on releases; then
    # The newest two by version number (5.10.0 after 5.9.2), not by name or by when they came.
    # In hex: CSV quotes a version with a comma and puts ' before one that starts with - = + or @ (so
    # that no spreadsheet runs it), and the gate needs the version itself.
    if ! listed="$("$hig_audit" query --store "$store" --format csv --quiet \
        --sql "SELECT DISTINCT hex(app_version) FROM sessions WHERE app_version <> ''")"; then
        log "gate: could not read the app versions of $store (see the message above)"
        gate_status=6
        versions=()
    else
        mapfile -t hexes < <(printf '%s\n' "$listed" | tail -n +2 | tr -d '\r' | sed '/^$/d')
        decoded=()
        for hex in "${hexes[@]}"; do
            # A version with a line break cannot be one line of the sort below; none is passed on.
            value="$(printf '%s' "$hex" | sed 's/../\\x&/g')"
            value="$(printf '%b.' "$value")"; value="${value%.}"
            case "$value" in *$'\n'* | '') continue ;; esac
            decoded+=("$value")
        done
        mapfile -t sorted < <([ "${#decoded[@]}" -eq 0 ] || printf '%s\n' "${decoded[@]}" | sort -V)
        versions=()
        if [ "${#sorted[@]}" -gt 0 ]; then
            newest="${sorted[${#sorted[@]}-1]}"
            # The one before is the newest version that is no whole-component prefix of the newest, nor
            # it of that one: compare takes a version as a prefix (5.2 holds 5.2.1), and refuses sides
            # that share sessions.
            for ((i = ${#sorted[@]} - 2; i >= 0; i--)); do
                candidate="${sorted[i]}"
                case "$newest." in "$candidate."*) continue ;; esac
                case "$candidate." in "$newest."*) continue ;; esac
                versions=("$candidate" "$newest")
                break
            done
            [ "${#versions[@]}" -eq 2 ] || versions=("$newest")
        fi
    fi
    if [ "$gate_status" -eq 6 ]; then
        :
    elif [ "${#versions[@]}" -lt 2 ]; then
        log "gate: fewer than two app versions in the store; no release to compare"
    else
        compare_sides "${versions[1]} (the newest release) than in ${versions[0]} (the one before)" --base="${versions[0]}" --head="${versions[1]}"
    fi
fi

# gate: new: the violations of the sessions this run closed, against the baseline, as
# `hig-audit query --run N --baseline FILE --fail-on new` decides.
if [[ " $gate " == *" new "* ]]; then
    head_run="$(query_row "SELECT MAX(id) FROM runs")"
    shown="$hig_audit query --store $store --run ${head_run:-?} --baseline $baseline"
    if [ -z "$head_run" ]; then
        checked=1
    else
        table="$("$hig_audit" query --store "$store" --run "$head_run" --baseline "$baseline" --fail-on new --format csv --quiet)"
        checked=$?
    fi
    case $checked in
        0) log "gate: no new violation in run $head_run (this night) against $baseline" ;;
        5)
            new_rules="$(printf '%s\n' "$table" | tr -d '\r' | awk -F, '
                NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rule") r = i; if ($i == "new_violations") n = i }; next }
                r && n && $n > 0 { printf "%s%s (%s)", (k++ ? ", " : ""), $r, $n }')"
            log "gate: new in run $head_run (this night) against $baseline: ${new_rules:-see the table} ($shown prints the table)"
            gate_status=5
            found_new=1
            ;;
        *)
            log "gate: could not check run ${head_run:-?} against $baseline (hig-audit query exited $checked; see the message above)"
            [ "$gate_status" -eq 5 ] || gate_status=6
            ;;
    esac
fi

if [ "$gate_status" -ne 0 ]; then
    status=$gate_status
fi
case $status in
    0) log "done: status 0" ;;
    3) log "done: status 3 (input skipped; a warning, not a failure)" ;;
    4) log "done: status 4 (an output was not written)" ;;
    5)
        found="a rule worse"
        [ "$found_new" -eq 1 ] && found="a new violation"
        [ "$found_worse" -eq 1 ] && [ "$found_new" -eq 1 ] && found="a rule worse and a new violation"
        log "done: status 5 (the gate found $found)"
        ;;
    6) log "done: status 6 (the gate could not compare)" ;;
esac
exit "$status"
