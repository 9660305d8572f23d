import Foundation
import Testing
@testable import HIGAuditCore

/// `docs/log-format.md` lists what the schema (`EventSchema`) declares: its table of every type's
/// fields is the schema's (`EventSchema.markdownTable`, pasted between its markers), and its table of the
/// fields every event has names the schema's common fields with the same required column.
@Suite struct LogFormatSchemaTests {
    static func document() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/log-format.md"), encoding: .utf8)
    }

    @Test func theTypesTableIsTheSchemas() throws {
        let text = try Self.document()
        let begin = try #require(text.range(of: EventSchema.markdownBegin), "docs/log-format.md lacks \(EventSchema.markdownBegin)")
        let end = try #require(
            text.range(of: EventSchema.markdownEnd, range: begin.upperBound..<text.endIndex),
            "docs/log-format.md lacks \(EventSchema.markdownEnd) after \(EventSchema.markdownBegin)")
        let table = text[begin.upperBound..<end.lowerBound].trimmingCharacters(in: .newlines)
        #expect(
            table == EventSchema.markdownTable,
            "docs/log-format.md's table of event types differs from EventSchema.swift; paste this between its markers:\n\(EventSchema.markdownTable)")
    }

    /// The rows of the "Fields every event has" table: each key in a row's first cell, with the row's
    /// required cell.
    static func commonRows(_ text: String) throws -> [String: String] {
        let section = try #require(text.components(separatedBy: "## Fields every event has").dropFirst().first)
        var rows: [String: String] = [:]
        for line in section.components(separatedBy: "\n## ")[0].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            for key in cells[1].split(separator: ",") {
                rows[key.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = cells[2]
            }
        }
        return rows
    }

    @Test func theCommonFieldsTableNamesTheSchemasCommonFields() throws {
        let rows = try Self.commonRows(Self.document())
        var expected: [String: String] = [:]
        for entry in EventSchema.commonFields {
            expected[entry.field.key.description] = entry.presence.markdown
        }
        #expect(rows == expected)
    }
}
