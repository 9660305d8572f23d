import Foundation
import Testing
import HIGAuditCore
@testable import HIGAuditIO

/// A table made cell by cell (`Table.init(name:columns:rowCount:cells:)`, the `violations` table's
/// form) prints exactly as the same rows held in memory, in every format: the CSV and JSON writers
/// take its cells one by one, the others its gathered rows.
@Suite struct CellByCellTableTests {
    /// Every cell kind, text that needs quoting, escaping or a formula guard, and rows shorter and
    /// longer than the columns (JSON leaves the extra cell out and prints the missing one as null).
    static let rows: [[TableCell]] = [
        [.input("=cmd|x"), .integer(3), .decimal(FixedDecimal(units: 6667, places: 2)), .timestamp(1_795_208_645_123), .empty],
        [.label("x"), .integer(-5), .decimal(FixedDecimal(units: -5, places: 2)), .timestamp(-1), .input("a,\"b\"\n\u{2028}")],
        [.input("short"), .byteCount(2048)],
        [.label("long"), .integer(1), .boolean(true), .timestamp(0), .input("é"), .input("extra")],
        [],
    ]
    static let columns: [TableColumn] = [.text("name"), .integer("n"), .decimal("pct"), .timestamp("at"), .text("note")]

    static let inMemory = Table(name: "t", columns: columns, rows: rows)
    static let cellByCell = Table(name: "t", columns: columns, rowCount: rows.count) { index, cell in
        for value in rows[index] { cell(value) }
    }

    static func printed(_ table: Table, by writer: any TableWriter) -> String {
        var text = ""
        writer.write(table, to: &text)
        return text
    }

    @Test(arguments: [OutputFormat.csv, .json])
    func printsAsTheSameRowsInMemory(format: OutputFormat) {
        let writer = format.writer()
        #expect(Self.printed(Self.cellByCell, by: writer) == Self.printed(Self.inMemory, by: writer))
        #expect(Self.printed(Self.cellByCell.prefix(3), by: writer) == Self.printed(Self.inMemory.prefix(3), by: writer))
    }

    /// The writers for people read gathered rows (one cell a column: the first two rows).
    @Test(arguments: [OutputFormat.markdown, .table])
    func printsForPeopleAsTheSameRowsInMemory(format: OutputFormat) {
        let writer = format.writer()
        #expect(Self.printed(Self.cellByCell.prefix(2), by: writer) == Self.printed(Self.inMemory.prefix(2), by: writer))
    }

    /// Through a file, as `--out` writes it (the writers' own buffer rather than a `String`).
    @Test(arguments: [OutputFormat.csv, .json])
    func writesTheSameFile(format: OutputFormat) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cells-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = [("memory", Self.inMemory), ("cells", Self.cellByCell)].map { name, table in
            TableFile(path: "\(directory)/\(name).\(format.fileExtension)", table: table, writer: format.writer())
        }
        try TableFiles.write(files)
        let memory = try Data(contentsOf: URL(fileURLWithPath: files[0].path))
        let cells = try Data(contentsOf: URL(fileURLWithPath: files[1].path))
        #expect(cells == memory)
        #expect(!cells.isEmpty)
    }

    @Test func rowsAndCellsAgree() {
        for index in 0..<Self.rows.count {
            var visited: [TableCell] = []
            Self.cellByCell.forEachCell(ofRow: index) { visited.append($0) }
            #expect(visited == Self.rows[index])
            #expect(Self.cellByCell.row(index) == Self.rows[index])
            var fromMemory: [TableCell] = []
            Self.inMemory.forEachCell(ofRow: index) { fromMemory.append($0) }
            #expect(fromMemory == Self.rows[index])
        }
    }
}
