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
    /// The terminal written to, when standard output is one: each table is then fitted to its width
    /// (`TerminalLayout`), paths are shown relative to the inputs and byte counts in KB or MB. Nil (a
    /// pipe, a file) prints every column whole.
    public var screen: TerminalScreen?
    /// Spaces between columns.
    public var gap = 2

    public init(colors: Bool = false, screen: TerminalScreen? = nil) {
        self.colors = colors
        self.screen = screen
    }

    public func write(_ table: Table, to output: inout some TextOutputStream) {
        guard let screen else {
            writeWhole(table, to: &output)
            return
        }
        let (layout, day) = plan(table, screen: screen)
        // A one-row table (a session, the ingest counters) too wide for the screen reads better turned
        // on its side than cut.
        if table.rowCount == 1, table.columns.count > 2, !layout.isWhole {
            write(Self.sideways(table), to: &output)
            return
        }
        writeFitted(table, layout: layout, screen: screen, to: &output)
        for note in notes(table, layout: layout, day: day, screen: screen) {
            for line in TerminalCellText.wrapped(note, width: screen.width) { output.write(line + "\n") }
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

    /// The table as it always was printed off a terminal: every column at its widest cell.
    private func writeWhole(_ table: Table, to output: inout some TextOutputStream) {
        let columnCount = table.columns.count
        var widths = table.columns.map { TerminalWidth.of(Self.visible($0.name)) }
        for row in table.rows {
            for (index, cell) in row.prefix(columnCount).enumerated() {
                widths[index] = max(widths[index], TerminalWidth.of(Self.visible(cell.plainText)))
            }
        }
        let layout = TerminalLayout(
            columns: widths.enumerated().map { TerminalLayout.Column(index: $0, width: $1) }, dropped: [], timesOfDay: false,
            wrapsAllText: false, isWhole: true)
        writeRows(table, layout: layout, to: &output) { cell, _ in Self.visible(cell.plainText) }
    }

    /// The layout of `table` on `screen`, and the one UTC day of its time stamps, if they share one.
    private func plan(_ table: Table, screen: TerminalScreen) -> (TerminalLayout, String?) {
        var measures = table.columns.map { column -> TerminalLayout.Measure in
            let name = Self.visible(column.name)
            let pieces = TerminalCellText.headerPieces(name)
            return TerminalLayout.Measure(
                header: TerminalWidth.of(name), headerPiece: pieces.map(TerminalWidth.of).max() ?? 0, cells: 0,
                cellsAsTimesOfDay: column.kind == .timestamp ? 0 : nil)
        }
        var day: String?
        var oneDay = table.columns.contains { $0.kind == .timestamp }
        for row in table.rows {
            for (index, cell) in row.prefix(table.columns.count).enumerated() {
                let text = display(cell, column: table.columns[index], screen: screen, timesOfDay: false)
                measures[index].cells = max(measures[index].cells, TerminalWidth.of(text))
                guard case .timestamp(let ms) = cell, oneDay else { continue }
                let stamp = TimestampFormatter.rfc3339(ms)
                let date = String(stamp.prefix(10))
                if day == nil { day = date } else if day != date { oneDay = false }
                measures[index].cellsAsTimesOfDay = max(measures[index].cellsAsTimesOfDay ?? 0, TerminalWidth.of(Self.timeOfDay(stamp)))
            }
        }
        let layout = TerminalLayout.plan(
            columns: table.columns, measures: measures, width: screen.width, gap: gap, timesOfDayPossible: oneDay && day != nil)
        return (layout, layout.timesOfDay ? day : nil)
    }

    private func writeFitted(_ table: Table, layout: TerminalLayout, screen: TerminalScreen, to output: inout some TextOutputStream) {
        writeRows(table, layout: layout, to: &output) { cell, column in
            display(cell, column: column, screen: screen, timesOfDay: layout.timesOfDay)
        }
    }

    /// The header, its underline and every row, in the columns of `layout`: a cell wider than its column
    /// is wrapped onto more lines of its row, or elided, as its column's `TerminalFit` says.
    private func writeRows(
        _ table: Table, layout: TerminalLayout, to output: inout some TextOutputStream,
        text: (TableCell, TableColumn) -> String
    ) {
        let columns = layout.columns
        let severityColumn = table.columnIndex(named: "severity")
        let headers = columns.map { TerminalCellText.header(Self.visible(table.columns[$0.index].name), width: $0.width) }
        writeLines(headers, table: table, layout: layout, to: &output) { line, _ in colors ? "\u{1B}[1m" + line + "\u{1B}[0m" : line }
        writeLines(columns.map { [String(repeating: "-", count: $0.width)] }, table: table, layout: layout, to: &output) { line, _ in line }
        // Columns printed under their row start under the second column, if that leaves room.
        let indent = columns.count > 1 && width(of: layout) - columns[0].width - gap >= 30 ? columns[0].width + gap : 2
        for row in table.rows {
            let cells = columns.map { column -> [String] in
                let cell = column.index < row.count ? row[column.index] : .empty
                return Self.lines(text(cell, table.columns[column.index]), width: column.width, column: table.columns[column.index])
            }
            let under = layout.below.compactMap { index -> String? in
                let value = text(index < row.count ? row[index] : .empty, table.columns[index])
                return value.isEmpty ? nil : value
            }
            defer {
                if !under.isEmpty {
                    let room = max(10, (screen?.width ?? Int.max) - indent)
                    let prefix = String(repeating: " ", count: indent)
                    for (number, line) in TerminalCellText.wrapped(under.joined(separator: " · "), width: room - 2).enumerated() {
                        output.write(prefix + (number == 0 ? "↳ " : "  ") + line + "\n")
                    }
                }
            }
            // A row with nothing but what goes under it (an event's second violation) takes no line of its own.
            if !under.isEmpty, cells.allSatisfy({ $0.allSatisfy(\.isEmpty) }) { continue }
            writeLines(cells, table: table, layout: layout, to: &output) { line, index in
                guard colors, index == severityColumn else { return line }
                switch line.trimmingSpaces {
                case Severity.error.rawValue: return "\u{1B}[31m" + line + "\u{1B}[0m"
                case Severity.warning.rawValue: return "\u{1B}[33m" + line + "\u{1B}[0m"
                default: return line
                }
            }
        }
    }

    /// The width of a line of the grid.
    private func width(of layout: TerminalLayout) -> Int {
        layout.columns.reduce(0) { $0 + $1.width } + gap * max(0, layout.columns.count - 1)
    }

    /// One row of cells, each given as its lines; the row takes as many lines as its tallest cell.
    private func writeLines(
        _ cells: [[String]], table: Table, layout: TerminalLayout, to output: inout some TextOutputStream,
        style: (String, Int) -> String
    ) {
        let height = cells.map(\.count).max() ?? 1
        for lineIndex in 0..<max(1, height) {
            var line = ""
            for (position, column) in layout.columns.enumerated() {
                let text = lineIndex < cells[position].count ? cells[position][lineIndex] : ""
                let padding = String(repeating: " ", count: max(0, column.width - TerminalWidth.of(text)))
                let isLast = position == layout.columns.count - 1
                let padded: String
                if table.columns[column.index].alignment == .right {
                    padded = padding + text
                } else {
                    padded = isLast ? text : text + padding
                }
                if position > 0 { line += String(repeating: " ", count: gap) }
                line += style(padded, column.index)
            }
            while line.last == " " { line.removeLast() }
            output.write(line + "\n")
        }
    }

    /// A cell's text in lines at most `width` wide.
    private static func lines(_ text: String, width: Int, column: TableColumn) -> [String] {
        guard TerminalWidth.of(text) > width else { return [text] }
        switch column.terminalFit.narrowing {
        case .path: return [TerminalCellText.elidingStart(text, width: width)]
        case .identifier: return [TerminalCellText.elidingEnd(text, width: width)]
        case .wrap, .none, .below: return TerminalCellText.wrapped(text, width: width)
        }
    }

    /// A cell as a person at a terminal reads it: byte counts in KB or MB, paths relative to the inputs,
    /// time stamps as times of day when the table says the day once.
    private func display(_ cell: TableCell, column: TableColumn, screen: TerminalScreen, timesOfDay: Bool) -> String {
        switch cell {
        case .byteCount(let bytes): return TerminalCellText.byteCount(bytes)
        case .timestamp(let ms) where timesOfDay: return Self.timeOfDay(TimestampFormatter.rfc3339(ms))
        case .text(let text, _) where column.terminalFit.narrowing == .path: return Self.visible(screen.relativePath(text))
        case .source where column.terminalFit.narrowing == .path: return Self.visible(screen.relativePath(cell.plainText))
        default: return Self.visible(cell.plainText)
        }
    }

    /// `21:04:05.123` of `2026-11-20T21:04:05.123Z`.
    private static func timeOfDay(_ stamp: String) -> String {
        String(stamp.dropFirst(11).prefix(12))
    }

    /// What is said below a fitted table: the day of its times, and the columns left out and how to see them.
    private func notes(_ table: Table, layout: TerminalLayout, day: String?, screen: TerminalScreen) -> [String] {
        var notes: [String] = []
        if !layout.below.isEmpty {
            notes.append("Under a row, after ↳: " + layout.below.map { table.columns[$0].name }.joined(separator: " · ") + ".")
        }
        if let day { notes.append("Times are on \(day) (UTC).") }
        if !layout.dropped.isEmpty {
            let names = layout.dropped.map { table.columns[$0].name }.joined(separator: ", ")
            notes.append(
                "Left out to fit \(screen.width) columns: \(names). See every column with --format csv or --format json, or in a pipe (| less -S).")
        }
        return notes
    }

    /// A one-row table as `field,value` rows, its values wrapped if need be.
    private static func sideways(_ table: Table) -> Table {
        let row = table.row(0)
        let rows = table.columns.enumerated().map { index, column -> [TableCell] in
            [.label(column.name), index < row.count ? row[index] : .empty]
        }
        return Table(name: table.name, columns: [.text("field"), TableColumn.text("value").narrowed(.wrap)], rows: rows)
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
