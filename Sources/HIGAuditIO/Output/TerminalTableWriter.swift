import HIGAuditCore

/// Prints a table as aligned columns for a person at a terminal.
///
/// Column widths count *visible* columns (`TerminalWidth`), numbers are right-aligned, and the header is
/// underlined with dashes. Log data could carry control characters or terminal escape sequences, so
/// every control character, line separator and bidirectional override in a cell is shown escaped
/// (`\n`, `\t`, `\u{1B}`) instead of being sent to the terminal. Colour (bold header, red errors,
/// yellow warnings) only when asked: the caller checks `isatty` and `NO_COLOR`.
public struct TerminalTableWriter: TableWriter {
    public var colors: Bool
    /// Spaces between columns.
    public var gap = 2

    public init(colors: Bool = false) {
        self.colors = colors
    }

    public func write(_ table: Table, to output: inout some TextOutputStream) {
        let columnCount = table.columns.count
        var widths = table.columns.map { TerminalWidth.of(Self.visible($0.name)) }
        for row in table.rows {
            for (index, cell) in row.prefix(columnCount).enumerated() {
                widths[index] = max(widths[index], TerminalWidth.of(Self.visible(cell.plainText)))
            }
        }
        let severityColumn = table.columnIndex(named: "severity")

        let header = table.columns.map { Self.visible($0.name) }
        writeLine(header, table: table, widths: widths, to: &output) { text, _ in colors ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
        writeLine(widths.map { String(repeating: "-", count: $0) }, table: table, widths: widths, to: &output) { text, _ in text }
        for row in table.rows {
            var texts = row.prefix(columnCount).map { Self.visible($0.plainText) }
            texts += Array(repeating: "", count: max(0, columnCount - texts.count))
            writeLine(texts, table: table, widths: widths, to: &output) { text, column in
                guard colors, column == severityColumn else { return text }
                switch text.trimmingSpaces {
                case Severity.error.rawValue: return "\u{1B}[31m" + text + "\u{1B}[0m"
                case Severity.warning.rawValue: return "\u{1B}[33m" + text + "\u{1B}[0m"
                default: return text
                }
            }
        }
    }

    /// Each table under its name, separated by a blank line.
    public func write(_ tables: [Table], to output: inout some TextOutputStream) {
        for (index, table) in tables.enumerated() {
            if index > 0 { output.write("\n") }
            output.write(colors ? "\u{1B}[1m" + table.name + "\u{1B}[0m\n" : table.name + "\n")
            write(table, to: &output)
        }
    }

    private func writeLine(
        _ texts: [String], table: Table, widths: [Int], to output: inout some TextOutputStream,
        style: (String, Int) -> String
    ) {
        var line = ""
        for (index, text) in texts.enumerated() {
            let padding = String(repeating: " ", count: max(0, widths[index] - TerminalWidth.of(text)))
            let isLast = index == texts.count - 1
            let padded: String
            if table.columns[index].alignment == .right {
                padded = padding + text
            } else {
                padded = isLast ? text : text + padding
            }
            if index > 0 { line += String(repeating: " ", count: gap) }
            line += style(padded, index)
        }
        while line.last == " " { line.removeLast() }
        output.write(line + "\n")
    }

    /// The text with everything a terminal would act on instead of showing made visible.
    static func visible(_ text: String) -> String {
        TerminalText.visible(text)
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
