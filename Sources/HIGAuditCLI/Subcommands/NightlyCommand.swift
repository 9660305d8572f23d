import ArgumentParser
import HIGAuditCore

/// `hig-audit nightly`: the incremental batch job over a results store. The work is done by
/// `NightlyFrontend`; this type only declares the command line.
struct NightlyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract: "Count new log files into a results store, continuing sessions from the previous run.",
        discussion: """
            Reads the inputs the store has not counted yet, continues the sessions the previous run left open, \
            runs the enabled rules and records runs, input files, closed sessions, violations and ingest counters \
            in the store (an SQLite file, created if missing) in one transaction: a run killed at any moment \
            leaves the store as it was, and the next run does the work.

            Files are recognised by their content, not their name: a file already counted is skipped even when \
            renamed or copied; a file that grew (an upload appended frames) has only its new part read; a file \
            whose beginning changed is reported and not counted again. An unterminated last line (a file still \
            being written) is held back until a later run finds it complete. Sessions still open at the end are \
            checkpointed with their engine state and continue in the next run: each device is its own stream, so a \
            device that uploads days late continues its sessions; the sessions of a device that sends nothing for \
            --idle-runs runs close then. --close-open ends the run as end of input does and closes them all \
            (for backfills and the last run of a series).

            The config's exclude: entries in force on the run's day (UTC) suppress the violations they match: \
            they are stored flagged, count only in summary's suppressed column, and stay suppressed for every \
            later query, export and dashboard, whatever the config says then. Each run records the SHA-256 of \
            its config file, its exclude: entries and the --baseline it was given (`hig-audit query --judgements` \
            lists them). --baseline FILE marks the tables of --out and the dashboard as `query --baseline` does; \
            --fail-on new then exits 5 when a violation of the sessions this run closed is new.

            Examples:
              hig-audit nightly --store results.sqlite uploads/2026-11-20
              hig-audit nightly --store results.sqlite --config rules.yml \\
                  --out tables/ --dashboard dashboard/ uploads/
              hig-audit nightly --store backfill.sqlite --close-open archive/  # a backfill
              hig-audit query --store results.sqlite --group-by app_version \\
                  --rule forced-tab-switch

            Exit status: 0 when all input was read; 3 when the run committed but skipped some input \
            (malformed lines, corrupt frames, truncated, unreadable or changed files); 4 when the run committed \
            but --out, --dashboard or --malformed-report could not be written after it; 5 with --fail-on new when \
            the run committed and a violation it recorded is new (after every output is written; 4 outranks it, \
            it outranks 3); 1 on a fatal error (unreadable, \
            damaged or foreign store, unreadable --baseline, unusable --out, skipped input with --strict; nothing is committed); \
            66 when a named input does not exist or no input holds a log, e.g. an unmounted volume (nothing is \
            read or committed; --allow-missing reads what exists); 64 on a usage error (an output that is an \
            input or the store, an input that is an SQLite file such as the store; nothing is read); 130 when \
            interrupted by Ctrl-C (SIGINT), 143 by SIGTERM (the run is rolled back: the store is unchanged).
            """
    )

    @Option(help: ArgumentHelp("The results store (SQLite file), created if it does not exist.", valueName: "file"))
    var store: String

    @Flag(help: "End the run as end of input does: close every open session instead of checkpointing it.")
    var closeOpen = false

    @Option(
        help: ArgumentHelp(
            "Close the checkpointed sessions of a device that sent nothing for this many runs in a row (default 7; runs that read no new file do not count). Overrides the config file's idle_runs.",
            valueName: "runs"))
    var idleRuns: Int?

    @Option(
        help: ArgumentHelp(
            "After the run, write every table of the whole store to this directory as CSV and JSON, each file replaced atomically.",
            valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Write one shard's partial store (shards 0 to N-1): only the sessions whose first event's device hashes to K are processed. Needs --close-open and a new store; `hig-audit merge` joins the parts (Pipelines/spark/README.md).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "With --shard: read the files listed here (one per line, in the run's order) instead of the inputs; a line `count<TAB>path` marks a file whose file counters this shard counts, `read<TAB>path` one another shard counts; a path that starts with a double quote is a JSON string, so that a name with a line break or tab fits its line. Without it every shard reads every input and shard 0 counts the files.",
            valueName: "file"))
    var shardFiles: String?

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Configuration") var config: ConfigOptions
    @OptionGroup(title: "Dashboard") var dashboard: DashboardOptions
    @OptionGroup(title: "Baseline") var baseline: BaselineOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<NightlyMessages>

    func validate() throws {
        if input.inputs.isEmpty, shardFiles == nil {
            throw ValidationError("Give at least one input: a log file or a directory.")
        }
        if let shard, DeviceShard(parsing: shard) == nil {
            throw ValidationError("--shard takes K/N with 0 ≤ K < N ≤ \(DeviceShard.maximumCount), not \(shard).")
        }
        if shard != nil, !closeOpen {
            throw ValidationError("--shard writes a partial store, which closes its sessions: add --close-open.")
        }
        if shardFiles != nil, shard == nil {
            throw ValidationError("--shard-files lists one shard's files: give --shard K/N too.")
        }
        if shardFiles != nil, !input.inputs.isEmpty {
            throw ValidationError("--shard-files lists the files to read: give no inputs besides it.")
        }
        if let idleRuns, idleRuns < 1 {
            throw ValidationError("--idle-runs must be 1 or more, not \(idleRuns).")
        }
        if input.inputs.contains("-") {
            throw ValidationError("nightly identifies files by their content and cannot read standard input; save it to a file first.")
        }
    }

    func run() throws {
        let status = try NightlyFrontend(command: self).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
