import Testing
import HIGAuditCore
@testable import HIGAuditIO

/// A `.source` cell is the text `SourceFileTable.describe` makes, from input: every writer must print
/// it exactly as it prints `.input` of that text, whatever its path holds.
@Suite struct SourceCellTests {
    static let paths = [
        "logs/a.ndjson", "", "?", "=cmd.ndjson", "-", "+x", "@home", "\tx", "\rx", "a,b.ndjson", "say \"hi\".ndjson",
        "line\nbreak", "back\\slash", "del\u{7F}", "ctl\u{1F}", "sep\u{2028}", "ｈｏｍｅ画面/é.ndjson", "12345678",
        "123456789012345", "1234567890123456", "12345678901234567",
        String(repeating: "long/path/", count: 10),
    ]
    static let locations = [
        HIGAuditCore.SourceLocation(file: 0, line: 1), HIGAuditCore.SourceLocation(file: 0, line: 0), HIGAuditCore.SourceLocation(file: 0, line: 4812),
        HIGAuditCore.SourceLocation(file: 0, line: -5), HIGAuditCore.SourceLocation(file: 0, line: Int64.max),
        HIGAuditCore.SourceLocation(file: 0, line: 7, record: 3), HIGAuditCore.SourceLocation(file: 0, line: -2, record: 12),
    ]

    @Test func writtenAsTheInputTextDescribeMakes() {
        for path in Self.paths {
            for location in Self.locations {
                let cell = TableCell.source(path: path, location: location)
                let text = SourceFileTable(paths: [path]).describe(location)
                #expect(cell.plainText == text)
                #expect(CSVWriter.field(cell) == CSVWriter.field(.input(text)), "\(text)")
                #expect(JSONWriter.value(cell) == JSONWriter.value(.input(text)), "\(text)")
                #expect(MarkdownWriter.cell(cell) == MarkdownWriter.cell(.input(text)), "\(text)")
            }
        }
    }

    @Test func aPathTheTableDoesNotHoldIsAQuestionMark() {
        let table = SourceFileTable(paths: ["a"])
        let location = HIGAuditCore.SourceLocation(file: 3, line: 9)
        #expect(table.path(of: location) == "?")
        #expect(TableCell.source(path: table.path(of: location), location: location).plainText == table.describe(location))
    }

    /// A whole table with a source column, as CSV and as JSON, byte for byte what the same table with
    /// the text in `.input` cells gives.
    @Test func tablesAreTheSameAsWithTextCells() {
        let columns: [TableColumn] = [.text("rule"), .text("source")]
        func table(_ source: @escaping @Sendable (String, HIGAuditCore.SourceLocation) -> TableCell) -> Table {
            let paths = Self.paths
            let locations = Self.locations
            return Table(name: "t", columns: columns, rowCount: paths.count * locations.count) { index, cell in
                cell(.label("r"))
                cell(source(paths[index / locations.count], locations[index % locations.count]))
            }
        }
        let cells = table { .source(path: $0, location: $1) }
        let texts = table { .input(SourceFileTable(paths: [$0]).describe($1)) }
        var csv = "", csvTexts = "", json = "", jsonTexts = ""
        CSVWriter().write(cells, to: &csv)
        CSVWriter().write(texts, to: &csvTexts)
        JSONWriter().write(cells, to: &json)
        JSONWriter().write(texts, to: &jsonTexts)
        #expect(csv == csvTexts)
        #expect(json == jsonTexts)
    }
}
