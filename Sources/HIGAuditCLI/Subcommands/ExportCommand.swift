import ArgumentParser
import HIGAuditCore
import HIGAuditIO
import HIGAuditStore

/// `hig-audit export`: every table of the store as CSV files for spreadsheets.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every table of the results store as CSV files (violations.csv, summary.csv, …).",
        discussion: """
            All files come from one consistent snapshot of the store, and each is written to a temporary name \
            and renamed, so a dashboard or a colleague never opens half a file, even while a nightly run commits.

            CSV is RFC 4180 (quotes doubled; fields with comma, quote, CR or LF quoted; CRLF line ends) and UTF-8. \
            A cell from log data that begins with =, +, -, @, tab or CR gets a ' in front so that no spreadsheet runs \
            it as a formula. --excel is for opening the files in a spreadsheet: it adds a UTF-8 byte order mark (Excel \
            needs it for non-ASCII text) and keeps ids that look like numbers or dates (app version 5.10, session \
            00123) as text by writing them as ="5.10". Without --excel the files are plain, for scripts.

            The filters of `query` narrow the export the same way (--session takes the start of an id too). \
            --out is created with its parent folders if missing. Violations a nightly run suppressed (its \
            config's exclude: entries) count only in summary's suppressed column. --baseline FILE adds \
            new_violations to summary.csv and a new column to violations.csv, as `query --baseline` does; \
            --fail-on new then exits 5 when any exported violation is new, after every file is written.

            Examples:
              hig-audit export --store results.sqlite --out exports/ --excel
              hig-audit export --store results.sqlite --out exports/5.2 --app-version 5.2

            Exit status: 0 on success; 5 with --fail-on new when a violation is new; 1 when the store or the \
            baseline cannot be read or a file cannot be written; 64 on a usage error (a --session prefix of \
            several ids included).
            """
    )

    @OptionGroup(title: "Store") var storeOptions: StoreOptions
    @OptionGroup(title: "Filters") var filters: FilterOptions
    @OptionGroup(title: "Baseline") var baseline: BaselineOptions
    /// export says nothing on standard error but errors and the warning of a store that lacks shards.
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<StoreReadingMessages>

    @Option(help: ArgumentHelp("The directory to write the CSV files to (created, with its parent folders, if missing).", valueName: "dir"))
    var out: String

    @Flag(help: "For spreadsheets: a UTF-8 byte order mark, and number-like ids kept as text.")
    var excel = false

    func run() throws {
        let status = try reportingCommandErrors { () throws -> Int32 in
            let baseline = try self.baseline.load()
            let store = try storeOptions.open()
            ShardCoverageWarning.check(store, path: storeOptions.store, verbosity: verbosity.level)
            let selection = try storeOptions.selection(filters, in: store, verbosity: verbosity.level)
            let tables: StoredTables
            do {
                tables = try StoreExport.export(
                    store, to: out, formats: [.csv], spreadsheet: excel, selection: selection, baseline: baseline).tables
            } catch {
                throw FatalError("\(error)")
            }
            return baseline.map {
                BaselineMarking(baseline: $0, byScreen: tables.table(.byScreen))
                    .status(after: ExitStatus.success, gate: self.baseline.failOn, verbosity: verbosity.level)
            } ?? ExitStatus.success
        }
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
