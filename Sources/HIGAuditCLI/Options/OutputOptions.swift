#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HIGAuditCore
import HIGAuditIO

extension OutputFormat: ExpressibleByArgument {}
extension TableName: ExpressibleByArgument {}

/// When to colour terminal tables.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    /// Only when standard output is a terminal and `NO_COLOR` is unset.
    case auto
    case always
    case never
}

extension ColorChoice {
    /// Colour on standard output: `auto` only on a terminal, with `NO_COLOR` unset and `TERM` not dumb.
    var isEnabledForStandardOutput: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            guard isatty(STDOUT_FILENO) == 1, getenv("NO_COLOR") == nil else { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return true
        }
    }
}

/// Which tables to print, in which format, and where.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("table"),
        help: ArgumentHelp(
            "A table to print: \(TableName.allCases.map(\.rawValue).joined(separator: ", ")). Repeatable. Without it, an overview (summary, worst screens, ingest health), in a terminal or a pipe alike; with --format csv, which holds one table, the summary.",
            valueName: "name"
        )
    )
    var tables: [TableName] = []

    @Option(help: "Output format for standard output: table (aligned, for people), csv (RFC 4180, spreadsheet-safe), json (for scripts) or markdown.")
    var format: OutputFormat = .table

    @Option(
        help: ArgumentHelp(
            "Also write every table to this directory as CSV and JSON (violations.csv, violations.json, …), each file replaced atomically.",
            valueName: "dir"
        )
    )
    var out: String?

    @Option(help: ArgumentHelp(
        "Print only the first N rows, in the table's order, of the tables whose rows are records (\(TableName.allCases.filter(\.rowsAreRecords).map(\.rawValue).joined(separator: ", "))); aggregate tables and --out files stay whole.",
        valueName: "N"))
    var limit: Int?

    @Option(help: "Colour in terminal tables: auto (only on a terminal, and never when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        guard let limit else { return }
        guard limit >= 0 else { throw ValidationError("--limit takes a number of rows, 0 or more, not \(limit).") }
        let records = TableName.allCases.filter(\.rowsAreRecords).map(\.rawValue)
        guard tables.contains(where: \.rowsAreRecords) else {
            throw ValidationError(
                "--limit cuts tables whose rows are records (\(records.joined(separator: ", "))); choose one with --table, e.g. --table \(records[0]).")
        }
    }

    /// `table` (called `name`) as standard output prints it: cut to `--limit` rows if its rows are records.
    func printed(_ table: Table, _ name: TableName) -> Table {
        guard let limit, name.rowsAreRecords else { return table }
        return table.prefix(limit)
    }
}

/// Narrowing for ad-hoc questions. Filters select violations and sessions; the engine still reads all
/// input, because a session's earlier events decide what its later ones mean.
struct FilterOptions: ParsableArguments {
    @Option(name: .customLong("rule"), help: ArgumentHelp("Only this rule id (repeatable).", valueName: "id"))
    var rules: [String] = []

    @Option(name: .customLong("app-version"), help: ArgumentHelp("Only sessions of this app version or one extending it by whole components: 5.2 is 5.2, 5.2.0 and 5.2.1, not 5.20 (repeatable).", valueName: "version"))
    var appVersions: [String] = []

    @Option(name: .customLong("screen"), help: ArgumentHelp("Only violations on this screen (repeatable).", valueName: "screen"))
    var screens: [String] = []

    @Option(name: .customLong("session"), help: ArgumentHelp("Only this session (repeatable).", valueName: "id"))
    var sessions: [String] = []

    @Option(name: .customLong("device"), help: ArgumentHelp("Only sessions of this device (repeatable).", valueName: "id"))
    var devices: [String] = []

    @Option(help: ArgumentHelp("Only violations starting at or after this time, and sessions overlapping it (RFC 3339, a date meaning midnight UTC, or milliseconds since the epoch).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only violations starting before this time, and sessions overlapping it (RFC 3339, a date meaning midnight UTC, or milliseconds since the epoch).", valueName: "time"))
    var until: String?

    func validate() throws {
        for rule in rules where RuleRegistry.description(of: rule) == nil {
            let known = RuleRegistry.descriptions.map(\.identifier).joined(separator: ", ")
            throw ValidationError("Unknown rule '\(rule)' for --rule. Known rules: \(known).")
        }
        if let start = try Self.parsedTime(since, option: "--since"), let end = try Self.parsedTime(until, option: "--until"), start >= end {
            throw ValidationError("--since (\(since ?? "")) must be before --until (\(until ?? "")): the window is since ≤ t < until.")
        }
    }

    func tableFilter() throws -> TableFilter {
        TableFilter(
            rules: Set(rules), appVersions: Set(appVersions), screens: Set(screens), sessions: Set(sessions),
            devices: Set(devices), since: try Self.parsedTime(since, option: "--since"),
            until: try Self.parsedTime(until, option: "--until"))
    }

    /// RFC 3339, a date (`2026-11-20`, midnight UTC at its start), or milliseconds since the epoch.
    static func parsedTime(_ text: String?, option: String) throws -> Int64? {
        guard let text else { return nil }
        if let milliseconds = Int64(text) { return milliseconds }
        if text.utf8.count == 10, text.wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil {
            return try Self.parsedTime(text + "T00:00:00Z", option: option)
        }
        var bytes = Array(text.utf8)
        if let parsed = bytes.withUnsafeMutableBytes({ TimestampParser.parse(rfc3339: UnsafeRawBufferPointer($0)) }) {
            return parsed
        }
        throw ValidationError("\(option) takes an RFC 3339 time (2026-11-20T21:00:00Z), a date (2026-11-20: midnight UTC) or milliseconds since the epoch, not '\(text)'.")
    }
}
