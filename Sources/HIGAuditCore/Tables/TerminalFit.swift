/// How a terminal narrower than a table may narrow one of its columns, declared by the table's builder
/// (which knows what a column is worth to a reader) and carried out by the terminal writer, once for
/// every table. CSV, JSON, Markdown and a terminal table written to a pipe ignore it: they keep every
/// column whole.
public struct TerminalFit: Sendable, Equatable {
    /// How a column's cells may be made narrower than their text.
    public enum Narrowing: Sendable, Equatable {
        /// Not at all (numbers, rule ids, short labels): the column keeps its widest cell.
        case none
        /// Words are wrapped onto further lines of the row (free text: details, fields).
        case wrap
        /// A file path (`PATH` or `PATH:LINE`): shown relative to the input named on the command line,
        /// and if still too wide, its start elided (`…/device-07/part-3.ndjson.zst:12`), so the file
        /// name and line stay.
        case path
        /// An id whose start identifies it (a session id, which `show` takes as a prefix): its end is
        /// elided (`00237b51…`).
        case identifier
        /// Leaves the grid and is printed under its row, after `↳`, with the other such columns
        /// (`show`'s violations under the event that caused them): a row then reads as a line of a story.
        case below
    }

    /// Columns that may be left out go in increasing `dropRank` order, until the rest fits; nil keeps the
    /// column whatever the width (the few columns that say what a row is about).
    public var dropRank: Int?
    public var narrowing: Narrowing

    public init(dropRank: Int? = nil, narrowing: Narrowing = .none) {
        self.dropRank = dropRank
        self.narrowing = narrowing
    }

    /// Kept whole: the default.
    public static let keep = TerminalFit()
}

extension TableColumn {
    /// This column, left out on a narrow terminal before columns of a higher `rank` (and never before
    /// the kept ones).
    public func droppable(_ rank: Int) -> TableColumn {
        var column = self
        column.terminalFit.dropRank = rank
        return column
    }

    /// This column, narrowed on a narrow terminal as `narrowing` says.
    public func narrowed(_ narrowing: TerminalFit.Narrowing) -> TableColumn {
        var column = self
        column.terminalFit.narrowing = narrowing
        return column
    }
}
