import HIGAuditCore

/// Which of a table's columns a terminal of a given width shows, and how wide each is: the one place
/// where every table is fitted to a terminal, from what its builder declared per column
/// (`TableColumn.terminalFit`).
///
/// A table that fits is printed as it is. One that does not is narrowed in this order, each step only
/// when the ones before were not enough:
/// 0. columns declared `.below` leave the grid: they are printed under their row;
/// 1. when every time stamp of the table falls on one UTC day, they are printed as times of day and the
///    day is said once below the table;
/// 2. columns that may be left out (`dropRank`) are, lowest rank first, until the others fit at a
///    comfortable width (free text about 32 columns wide, ids 12);
/// 3. the remaining columns are narrowed, widest first: headers broken after `_`, free text wrapped onto
///    more lines of the row, paths and ids elided (`…`), down to a floor;
/// 4. if even the floors do not fit, every text column may be wrapped, and then columns are left out
///    from the right, the first column always kept.
/// Numbers are never cut.
struct TerminalLayout: Equatable {
    /// One printed column: the table's column `index`, `width` terminal columns wide.
    struct Column: Equatable {
        var index: Int
        var width: Int
    }

    var columns: [Column]
    /// The table's columns printed under their row instead of in the grid, in the table's order.
    var below: [Int] = []
    /// The table's columns left out, in the table's order.
    var dropped: [Int]
    /// True when the table's time stamps are printed as times of day (step 1).
    var timesOfDay: Bool
    /// True when every text column may be wrapped (step 4).
    var wrapsAllText: Bool
    /// True when the table fits as it is: nothing was narrowed or left out.
    var isWhole: Bool

    /// What the writer measured of one column over the header and every row.
    struct Measure: Equatable {
        /// The header's width.
        var header: Int
        /// The widest piece of the header broken after each `_`.
        var headerPiece: Int
        /// The widest cell.
        var cells: Int
        /// The widest cell printed as a time of day, for a time stamp column.
        var cellsAsTimesOfDay: Int?
    }

    /// The layout of columns `columns` measured as `measures` on a terminal `width` wide, columns
    /// `gap` apart. `timesOfDay` says whether step 1 is possible (all time stamps on one day).
    static func plan(columns: [TableColumn], measures: [Measure], width: Int, gap: Int, timesOfDayPossible: Bool) -> TerminalLayout {
        let all = Array(columns.indices)
        func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + gap * max(0, widths.count - 1) }
        let whole = all.map { max(measures[$0].header, measures[$0].cells) }
        if total(whole) <= width {
            return TerminalLayout(columns: zip(all, whole).map(Column.init), dropped: [], timesOfDay: false, wrapsAllText: false, isWhole: true)
        }

        let below = all.filter { columns[$0].terminalFit.narrowing == .below }
        let timesOfDay = timesOfDayPossible
        func cells(_ index: Int) -> Int {
            timesOfDay ? measures[index].cellsAsTimesOfDay ?? measures[index].cells : measures[index].cells
        }
        func natural(_ index: Int) -> Int { max(measures[index].header, cells(index)) }
        func floor(_ index: Int, wrapsAllText: Bool) -> Int {
            let header = measures[index].headerPiece
            switch columns[index].terminalFit.narrowing {
            case .wrap: return max(header, min(cells(index), 12))
            case .path: return max(header, min(cells(index), 16))
            case .identifier: return max(header, min(cells(index), 9))
            case .none, .below:
                let wraps = wrapsAllText && columns[index].kind == .text && columns[index].alignment == .left
                return max(header, wraps ? min(cells(index), 8) : cells(index))
            }
        }
        func comfortable(_ index: Int) -> Int {
            let least = floor(index, wrapsAllText: false)
            switch columns[index].terminalFit.narrowing {
            case .wrap, .path: return max(least, min(cells(index), 32))
            case .identifier: return max(least, min(cells(index), 12))
            case .none, .below: return least
            }
        }

        var kept = all.filter { !below.contains($0) }
        var dropped: [Int] = []
        // Lowest rank first; of equal ranks, the later column first.
        let droppable = kept.filter { columns[$0].terminalFit.dropRank != nil }.sorted { a, b in
            let x = columns[a].terminalFit.dropRank!, y = columns[b].terminalFit.dropRank!
            return x != y ? x < y : a > b
        }
        for index in droppable where total(kept.map(comfortable)) > width {
            kept.removeAll { $0 == index }
            dropped.append(index)
        }
        let wrapsAllText = total(kept.map { floor($0, wrapsAllText: false) }) > width
        while kept.count > 1, total(kept.map { floor($0, wrapsAllText: wrapsAllText) }) > width {
            dropped.append(kept.removeLast())
        }

        // Headers are broken first (their cells stay whole), then cells are wrapped or elided.
        var widths = kept.map(natural)
        shrink(&widths, floors: kept.map { max(measures[$0].headerPiece, min(cells($0), natural($0))) }, to: width, gap: gap)
        shrink(&widths, floors: kept.map { floor($0, wrapsAllText: wrapsAllText) }, to: width, gap: gap)
        // A column whose header was broken needs only its widest header line or cell.
        for (position, index) in kept.enumerated() where cells(index) <= widths[position] {
            let header = TerminalCellText.header(columns[index].name, width: widths[position]).map(TerminalWidth.of).max() ?? 0
            widths[position] = max(header, cells(index))
        }
        return TerminalLayout(
            columns: zip(kept, widths).map(Column.init), below: below, dropped: dropped.sorted(),
            timesOfDay: timesOfDay && kept.contains { columns[$0].kind == .timestamp },
            wrapsAllText: wrapsAllText, isWhole: false)
    }
}

extension TerminalLayout {
    /// Narrows `widths` (widest first, none below its floor) until the columns fit `width`, or the
    /// floors are reached.
    static func shrink(_ widths: inout [Int], floors: [Int], to width: Int, gap: Int) {
        var excess = widths.reduce(0, +) + gap * max(0, widths.count - 1) - width
        while excess > 0 {
            var widest: Int?
            for position in widths.indices where widths[position] > floors[position] {
                if widest.map({ widths[position] > widths[$0] }) ?? true { widest = position }
            }
            guard let position = widest else { return }
            // Down to the next widest column (or the floor) at once, then the two together.
            let next = widths.indices.filter { $0 != position && widths[$0] > floors[$0] }.map { widths[$0] }.max() ?? floors[position]
            let give = min(excess, max(1, widths[position] - max(next, floors[position])))
            widths[position] -= give
            excess -= give
        }
    }
}

/// Cutting text to a width in terminal columns (`TerminalWidth`), for a table's cells; what a
/// terminal must not be sent is `TerminalText`'s.
enum TerminalCellText {
    /// `text` in lines at most `width` wide: broken at spaces where it can be, inside a word where a word
    /// is wider than a line.
    static func wrapped(_ text: String, width: Int) -> [String] {
        guard TerminalWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = TerminalWidth.of(String(word))
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            for piece in broken(String(word), width: width) {
                if lineWidth > 0 { lines.append(line) }
                line = piece
                lineWidth = TerminalWidth.of(piece)
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// A header in lines at most `width` wide, broken after `_` (`pct_sessions_affected` at 9 is
    /// `pct_`, `sessions_`, `affected`).
    static func header(_ name: String, width: Int) -> [String] {
        guard TerminalWidth.of(name) > width else { return [name] }
        var lines: [String] = []
        var line = ""
        for piece in headerPieces(name) {
            if TerminalWidth.of(line + piece) <= width {
                line += piece
            } else {
                if !line.isEmpty { lines.append(line) }
                let parts = broken(piece, width: width)
                lines += parts.dropLast()
                line = parts.last ?? ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A header broken after each `_`: the pieces a narrow column stacks.
    static func headerPieces(_ name: String) -> [String] {
        var pieces: [String] = []
        var piece = ""
        for character in name {
            piece.append(character)
            if character == "_" {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// `text` cut into pieces at most `width` wide, at character boundaries.
    static func broken(_ text: String, width: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var pieceWidth = 0
        for character in text {
            let characterWidth = TerminalWidth.of(character)
            if pieceWidth + characterWidth > max(1, width), !piece.isEmpty {
                pieces.append(piece)
                piece = ""
                pieceWidth = 0
            }
            piece.append(character)
            pieceWidth += characterWidth
        }
        if !piece.isEmpty || pieces.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// The end of `text` that fits `width` with `…` before it (a path keeps its file name and line).
    static func elidingStart(_ text: String, width: Int) -> String {
        guard TerminalWidth.of(text) > width else { return text }
        var kept = ""
        var keptWidth = 0
        for character in text.reversed() {
            let characterWidth = TerminalWidth.of(character)
            if keptWidth + characterWidth > width - 1 { break }
            kept.insert(character, at: kept.startIndex)
            keptWidth += characterWidth
        }
        return "…" + kept
    }

    /// The start of `text` that fits `width` with `…` after it (an id keeps the prefix that names it).
    static func elidingEnd(_ text: String, width: Int) -> String {
        guard TerminalWidth.of(text) > width else { return text }
        var kept = ""
        var keptWidth = 0
        for character in text {
            let characterWidth = TerminalWidth.of(character)
            if keptWidth + characterWidth > width - 1 { break }
            kept.append(character)
            keptWidth += characterWidth
        }
        return kept + "…"
    }

    /// A number of bytes for a person: `512 B`, `1.5 KB`, `34.2 MB`, `1.1 GB` (1 KB = 1,000 bytes, as
    /// Apple's platforms count file sizes).
    static func byteCount(_ bytes: Int64) -> String {
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        guard bytes.magnitude >= 1000 else { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = -1
        while abs(value) >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = (value * 10).rounded()
        let text = tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int64(tenths / 10)) : String(tenths / 10)
        return "\(text) \(units[unit])"
    }
}
