import HIGAuditCore

/// How a table is printed (SPEC §4). The CLI adds `ExpressibleByArgument`; the raw values are the
/// option's spellings.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned columns for a person at a terminal.
    case table
    case csv
    case json
    case markdown

    /// The file name extension for a table written in this format.
    public var fileExtension: String {
        switch self {
        case .table: "txt"
        case .csv: "csv"
        case .json: "json"
        case .markdown: "md"
        }
    }

    /// The writer for this format. `colors` and `screen` only affect `.table`; the caller decides them
    /// from `isatty` and `NO_COLOR` (`TerminalScreen.standardOutput`).
    public func writer(colors: Bool = false, screen: TerminalScreen? = nil) -> any TableWriter {
        switch self {
        case .table: TerminalTableWriter(colors: colors, screen: screen)
        case .csv: CSVWriter()
        case .json: JSONWriter()
        case .markdown: MarkdownWriter()
        }
    }
}

/// Prints tables in one format to any text sink (a `String` in tests, a file or stdout in the CLI).
public protocol TableWriter: Sendable {
    /// Writes one table, complete (a CSV header and records, a JSON array, …).
    func write(_ table: Table, to output: inout some TextOutputStream)
    /// Writes several tables as one document (the terminal overview, `--table all` to one stream).
    func write(_ tables: [Table], to output: inout some TextOutputStream)
}

extension TableWriter {
    /// The table as a string.
    public func render(_ table: Table) -> String {
        var text = ""
        write(table, to: &text)
        return text
    }

    /// Several tables as one string.
    public func render(_ tables: [Table]) -> String {
        var text = ""
        write(tables, to: &text)
        return text
    }
}
