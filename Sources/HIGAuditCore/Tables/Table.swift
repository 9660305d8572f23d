/// One metrics table of SPEC §4, independent of how it is printed: typed columns and typed cells.
///
/// Writers (terminal, CSV, JSON, Markdown) decide from the cell type how to print a value, so the
/// builders never format numbers or timestamps and never escape anything. Rows are produced on demand
/// by `row(_:)`, so a table over a million violations can be printed from the compact records the
/// accumulator keeps instead of a second, fully materialised copy of them.
public struct Table: Sendable {
    /// The table's name as the CLI knows it, e.g. `summary`.
    public var name: String
    public var columns: [TableColumn]
    public let rowCount: Int
    private let rowProvider: @Sendable (Int) -> [TableCell]
    /// Hands a row's cells one by one, for a table made with `init(name:columns:rowCount:cells:)`;
    /// nil for the others, whose rows `forEachCell` takes from `rowProvider`.
    private let cellProvider: (@Sendable (Int, (TableCell) -> Void) -> Void)?

    /// A table over rows already in memory.
    public init(name: String, columns: [TableColumn], rows: [[TableCell]]) {
        self.name = name
        self.columns = columns
        self.rowCount = rows.count
        self.rowProvider = { rows[$0] }
        self.cellProvider = nil
    }

    /// A table whose rows are made when a writer asks for them; `row` is called with `0..<rowCount`,
    /// possibly more than once per index (the terminal writer measures before it prints).
    public init(name: String, columns: [TableColumn], rowCount: Int, row: @escaping @Sendable (Int) -> [TableCell]) {
        self.name = name
        self.columns = columns
        self.rowCount = rowCount
        self.rowProvider = row
        self.cellProvider = nil
    }

    /// A table whose rows are made when a writer asks for them, a cell at a time: `cells(index, cell)`
    /// calls `cell` with each cell of row `index` in column order. The CSV and JSON writers write each
    /// cell as it comes (`forEachCell`), so that a large table's rows are never gathered into arrays
    /// (an allocation and a copy and a release of every cell, per row and per writer); `row(_:)`
    /// gathers them for everything else.
    public init(
        name: String, columns: [TableColumn], rowCount: Int,
        cells: @escaping @Sendable (_ index: Int, _ cell: (TableCell) -> Void) -> Void
    ) {
        self.name = name
        self.columns = columns
        self.rowCount = rowCount
        let width = columns.count
        self.rowProvider = { index in
            var row: [TableCell] = []
            row.reserveCapacity(width)
            cells(index) { row.append($0) }
            return row
        }
        self.cellProvider = cells
    }

    private init(
        name: String, columns: [TableColumn], rowCount: Int, row: @escaping @Sendable (Int) -> [TableCell],
        cells: (@Sendable (Int, (TableCell) -> Void) -> Void)?
    ) {
        self.name = name
        self.columns = columns
        self.rowCount = rowCount
        self.rowProvider = row
        self.cellProvider = cells
    }

    /// The cells of row `index` (`0..<rowCount`), one per column.
    public func row(_ index: Int) -> [TableCell] { rowProvider(index) }

    /// Calls `body` with each cell of row `index` (`0..<rowCount`) in column order: the cells
    /// `row(index)` holds, without gathering them first when the table hands them one by one.
    @inline(__always)
    public func forEachCell(ofRow index: Int, _ body: (TableCell) -> Void) {
        if let cellProvider {
            cellProvider(index, body)
        } else {
            for cell in rowProvider(index) { body(cell) }
        }
    }

    /// All rows, in order, made lazily.
    public var rows: LazyMapCollection<Range<Int>, [TableCell]> { (0..<rowCount).lazy.map(rowProvider) }

    /// The rows as an array, for tests and small tables.
    public var materializedRows: [[TableCell]] { Array(rows) }

    /// The column names in order (the CSV header, the JSON keys).
    public var columnNames: [String] { columns.map(\.name) }

    /// The first `count` rows (all of them when there are fewer), made on demand as the whole table's are.
    public func prefix(_ count: Int) -> Table {
        Table(name: name, columns: columns, rowCount: min(max(0, count), rowCount), row: rowProvider, cells: cellProvider)
    }

    /// The index of the column named `name`, if any.
    public func columnIndex(named name: String) -> Int? { columns.firstIndex { $0.name == name } }
}

/// A column: its name (the CSV header and JSON key), how terminals align it and what kind of value it holds.
public struct TableColumn: Sendable, Equatable {
    public enum Alignment: Sendable, Equatable {
        case left, right
    }

    public enum Kind: Sendable, Equatable {
        case text, integer, decimal, timestamp, boolean
    }

    public var name: String
    public var alignment: Alignment
    public var kind: Kind
    /// What a terminal narrower than the table may do with this column (`droppable`, `narrowed`).
    public var terminalFit = TerminalFit.keep

    /// Numbers are right-aligned, everything else left-aligned, unless said otherwise.
    public init(_ name: String, kind: Kind, alignment: Alignment? = nil) {
        self.name = name
        self.kind = kind
        self.alignment = alignment ?? (kind == .integer || kind == .decimal ? .right : .left)
    }

    public static func text(_ name: String) -> TableColumn { TableColumn(name, kind: .text) }
    public static func integer(_ name: String) -> TableColumn { TableColumn(name, kind: .integer) }
    public static func decimal(_ name: String) -> TableColumn { TableColumn(name, kind: .decimal) }
    public static func timestamp(_ name: String) -> TableColumn { TableColumn(name, kind: .timestamp) }
    public static func boolean(_ name: String) -> TableColumn { TableColumn(name, kind: .boolean) }
}

/// One value in a table.
public enum TableCell: Sendable, Equatable {
    /// Text. `fromInput` marks text taken from log data or file names: the CSV writer neutralises such
    /// a cell if a spreadsheet would run it as a formula (SPEC §4). Text the tool itself wrote
    /// (rule ids, severities, metric names) is never touched.
    case text(String, fromInput: Bool)
    case integer(Int64)
    /// A number with a fixed count of decimal places (percentages, rates).
    case decimal(FixedDecimal)
    /// A binary floating-point number as SQLite holds a REAL (an analyst's `query --sql`), whose
    /// places are not fixed: its shortest digits that read back as the same number, a bare number in
    /// JSON, where an infinity, which JSON cannot write, is `null`.
    case real(Double)
    /// Milliseconds since the Unix epoch, printed as RFC 3339 UTC with milliseconds.
    case timestamp(Int64)
    /// A number of bytes: a plain integer in every format but the terminal's, which prints it in KB,
    /// MB or GB for a person.
    case byteCount(Int64)
    /// No value (a percentile over no sessions); JSON prints `null`.
    case empty
    /// A yes/no flag (a violation's `new` under a baseline): `true` or `false` in every format, a bare
    /// literal in JSON.
    case boolean(Bool)
    /// A place in an input file, read as the text `SourceFileTable.describe` makes of it (`PATH:LINE`,
    /// `PATH:LINE#K`), text from input like `.input`'s. Kept as its path and numbers so that a writer
    /// can copy the path's bytes and print the numbers in place, where a `String` per row would be
    /// made, checked and freed for every writer of a large `violations` table.
    case source(path: String, location: SourceLocation)

    /// Text from log data or file names (formula-escaped in CSV).
    public static func input(_ string: String) -> TableCell { .text(string, fromInput: true) }
    /// Text the tool wrote itself.
    public static func label(_ string: String) -> TableCell { .text(string, fromInput: false) }
    public static func int(_ value: Int) -> TableCell { .integer(Int64(value)) }

    /// The value as plain text: numbers with `.` and no grouping, timestamps in RFC 3339, empty as "".
    /// Writers add their own quoting or escaping on top.
    public var plainText: String {
        switch self {
        case .text(let string, _): string
        case .integer(let value), .byteCount(let value): String(value)
        case .decimal(let value): value.description
        case .real(let value): String(value)
        case .timestamp(let ms): TimestampFormatter.rfc3339(ms)
        case .empty: ""
        case .boolean(let value): value ? "true" : "false"
        case .source(let path, let location): SourceFileTable.describe(location, path: path)
        }
    }

    /// True for cells a JSON writer prints as a bare number.
    public var isNumber: Bool {
        switch self {
        case .integer, .decimal, .byteCount: true
        case .real(let value): value.isFinite
        default: false
        }
    }
}
