import ArgumentParser
import Foundation
import HIGAuditCore
import HIGAuditStore

extension GroupOrder: ExpressibleByArgument {}

extension GroupDimension {
    /// `--group-by`'s value: one dimension or several separated by commas (`app_version,day`).
    static func list(_ text: String) throws -> [GroupDimension] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return try names.map { name in
            guard let dimension = GroupDimension(rawValue: name) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("'\(name)' is no dimension; --group-by takes \(known), one or more separated by commas")
            }
            return dimension
        }
    }
}
extension Severity: ExpressibleByArgument {}

/// The store and the store-only filters shared by `query` and `export`.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The results store written by `hig-audit nightly` (opened read-only).", valueName: "file"))
    var store: String

    @Option(name: .customLong("severity"), help: ArgumentHelp("Only violations of this severity: warning or error (repeatable).", valueName: "level"))
    var severities: [Severity] = []

    @Option(name: .customLong("run"), help: ArgumentHelp("Only sessions closed by this nightly run (repeatable; `runs` in --sql lists them).", valueName: "id"))
    var runs: [Int64] = []
}

/// `hig-audit query`: ad-hoc questions over the results store. The work is done by `QueryFrontend`.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Ask the results store a question: the tables of analyze, filtered, grouped, or your own SQL.",
        discussion: """
            Without --group-by or --sql, prints the tables of `analyze` (--table) over every session the store \
            holds, narrowed by the filters exactly as analyze narrows them: --app-version, --device, --session, \
            --run and --since/--until (as an overlap) choose the session population; --rule, --severity, \
            --screen and --since/--until (on start_ts) choose the violations that count. --session takes an id \
            or the start of one, as show does: a prefix of several ids lists them (usage error). Without \
            --table, every format but csv gets an overview (summary, worst screens, ingest health); csv, which \
            holds one table, the summary.

            --group-by (one or more of rule, app_version, screen, day, device, comma-separated or repeated) \
            prints one row per group with violations, sessions_affected, sessions_total and \
            pct_sessions_affected = 100 × affected ÷ total (percent, as in summary and compare). sessions_total \
            counts the population's sessions with the group's app version, device and UTC day (a session counts \
            on every day its events span, within --since/--until); rule and screen do not narrow it, but a rule \
            that needs every touch (forced-tab-switch, unprompted-permission-request, destructive-double-tap) leaves \
            out the sessions whose log lacks some touches, which it does not judge, as summary does, and so do \
            rows without a rule when --rule or --severity admits only such rules. Rows come with the most violations \
            first (--sort rate: the highest share first), within each day and app version, which keep their \
            order; --sort dimensions orders them by the dimensions' values.

            --sql runs your own SELECT on a read-only connection (the schema is in Pipelines/README.md); it \
            cannot change the store or reach outside it: ATTACH, transactions, writes, most pragmas and \
            functions such as fts3_tokenizer and load_extension are refused, and a query still running after \
            --sql-timeout seconds (default 30) is stopped with an error.

            Examples:
              hig-audit query --store results.sqlite
              hig-audit query --store results.sqlite --group-by screen \\
                  --rule forced-tab-switch --app-version 5.2
              hig-audit query --store results.sqlite --group-by day,rule \\
                  --since 2026-11-01
              hig-audit query --store results.sqlite --table violations --session 9F3A \\
                  --format csv
              hig-audit query --store results.sqlite \\
                  --sql "SELECT app_version, COUNT(*) FROM sessions GROUP BY 1"
              hig-audit query --store results.sqlite --baseline baseline.json \\
                  --since 2026-11-20 --fail-on new

            Violations a nightly run suppressed (the exclude: entries of its config, in force that night) \
            count only in summary's suppressed column, whatever the config says now; --show-suppressed lists \
            them in violations too, with a suppressed column. --judgements prints, per run (--run narrows), \
            the SHA-256 of its config file, its baseline and the exclude: entries it was judged with (csv: the runs \
            only; `--sql "SELECT * FROM run_exclusions"` lists the entries).

            --baseline FILE (written by `hig-audit baseline`) marks each violation known when its (rule, \
            screen) pair is in the file and new otherwise: summary gains new_violations, violations (and the \
            files of --out) a new column; nothing else changes. --fail-on new then exits 5 when any violation \
            is new, after every output is written.

            Exit status: 0 on success; 5 with --fail-on new when a violation is new; 1 when the store or the \
            baseline cannot be read, the store is damaged or is not a hig-audit store, or the SQL is invalid, \
            refused or timed out; 64 on a usage error (a --session prefix of several \
            ids included).
            """
    )

    @OptionGroup(title: "Store") var storeOptions: StoreOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Filters") var filters: FilterOptions
    @OptionGroup(title: "Baseline") var baseline: BaselineOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<StoreReadingMessages>

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Break violations down by rule, app_version, screen, day or device: one or more, comma-separated (app_version,day) or repeated, in order.",
            valueName: "dimensions"),
        completion: .list(GroupDimension.allCases.map(\.rawValue)),
        transform: GroupDimension.list)
    var groupByLists: [[GroupDimension]] = []

    /// The dimensions of every `--group-by`, in the order given.
    var groupBy: [GroupDimension] { groupByLists.flatMap { $0 } }

    @Option(
        help: ArgumentHelp(
            "Order of --group-by's rows: violations (the default: most first, within each day and app version, which keep their order), rate (highest rate first, likewise) or dimensions (by the dimensions' values in the order given).",
            valueName: "order"))
    var sort: GroupOrder = .violations

    @Option(help: ArgumentHelp("Run this SELECT on a read-only connection and print its result. It may read the store only: ATTACH, transactions, writes, most pragmas and functions that reach outside the data (fts3_tokenizer, load_extension) are refused.", valueName: "select"))
    var sql: String?

    @Flag(help: "List the violations nightly runs suppressed (exclude: entries) in the violations table too, with a suppressed column (true/false).")
    var showSuppressed = false

    @Flag(help: "Print how each run judged its violations: the SHA-256 of its config file, its --baseline, and its exclude: entries with their config lines and reasons.")
    var judgements = false

    @Option(help: ArgumentHelp("Stop a --sql query that runs longer than this, with an error (default 30).", valueName: "seconds"))
    var sqlTimeout: Double = 30

    func validate() throws {
        guard sqlTimeout > 0, sqlTimeout.isFinite else {
            throw ValidationError("--sql-timeout must be a number of seconds above 0, not \(sqlTimeout).")
        }
        if sql != nil, !groupBy.isEmpty { throw ValidationError("--sql and --group-by cannot be combined.") }
        if judgements, sql != nil || !groupBy.isEmpty || baseline.baseline != nil || !output.tables.isEmpty || showSuppressed {
            throw ValidationError("--judgements prints the runs' judgements; it cannot be combined with --sql, --group-by, --baseline, --table or --show-suppressed.")
        }
        if showSuppressed, sql != nil || !groupBy.isEmpty {
            throw ValidationError("--show-suppressed lists suppressed violations in analyze's violations table; it cannot be combined with --sql or --group-by.")
        }
        if sort != .violations, groupBy.isEmpty { throw ValidationError("--sort orders the rows of --group-by; give --group-by too.") }
        if sql != nil || !groupBy.isEmpty, baseline.baseline != nil {
            throw ValidationError("--baseline marks analyze's tables (summary, violations); it cannot be combined with --sql or --group-by.")
        }
        if sql != nil || !groupBy.isEmpty, !output.tables.isEmpty {
            throw ValidationError("--table chooses analyze's tables; it cannot be combined with --sql or --group-by.")
        }
        if output.format == .csv, output.tables.count > 1 {
            throw ValidationError("--format csv prints one table; use --out DIR to write every table as its own CSV file.")
        }
    }

    func run() throws {
        try QueryFrontend(command: self).run()
    }
}
