import Foundation
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

@Suite struct StoreExportTests {
    @Test func exportWritesEveryTableAndLeavesNoTemporaryFiles() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.ndjson").path
        try Data(LogFixtures.text(SpreadsheetRoundTripTests.lines).utf8).write(to: URL(fileURLWithPath: log))
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, [log], closeOpen: true)
        let out = directory.appendingPathComponent("plain").path
        let written = try StoreExport.write(try ResultsStore(readingAt: storePath), to: out, formats: [.csv])
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == [
            "by_screen.csv", "by_version.csv", "haptics.csv", "ingest.csv", "summary.csv", "unknown_types.csv",
            "violations.csv", "worst_screens.csv",
        ])
        #expect(written.count == 8)
        let worst = try String(contentsOfFile: out + "/worst_screens.csv", encoding: .utf8)
        let expected = CSVWriter().render(try ResultsStore(readingAt: storePath).read { try StoredTables.load($0, selection: .everything) }.table(.worstScreens))
        #expect(worst == expected && worst.hasPrefix("screen,violations,sessions_affected,top_rule,top_rule_violations\r\n"))
        #expect(worst.split(separator: "\r\n").count > 1, "the fixture has violations on screens")
        let plain = try String(contentsOfFile: out + "/violations.csv", encoding: .utf8)
        #expect(plain.hasPrefix("rule,"))
        #expect(plain.contains(",5.10,") && !plain.contains("=\"\"5.10"))
        let ingest = try String(contentsOfFile: out + "/ingest.csv", encoding: .utf8)
        #expect(ingest.hasPrefix("files,") && ingest.contains(",open_sessions\r\n"))
    }

    /// Excel takes at most 255 characters in a formula's string literal: longer text is joined from
    /// literals of that length; text too long for any formula stays as it is.
    @Test func longValueLikeTextIsJoinedFromLiteralsExcelTakes() throws {
        #expect(StoreExport.constantFormula("00123") == "=\"00123\"")
        let digits = String(repeating: "0123456789", count: 30)
        let formula = try #require(StoreExport.constantFormula(digits))
        let literals = formula.dropFirst().split(separator: "&")
        #expect(literals.count == 2 && literals.allSatisfy { $0.count <= 255 + 2 && $0.first == "\"" && $0.last == "\"" })
        #expect(literals.map { $0.dropFirst().dropLast() }.joined() == digits)
        let exactly = String(repeating: "7", count: 255)
        #expect(StoreExport.constantFormula(exactly) == "=\"" + exactly + "\"")
        #expect(StoreExport.constantFormula(String(repeating: "1", count: 9_000)) == nil)
    }

    @Test(arguments: [("5.10", true), ("00123", true), ("2026-11-20", true), ("true", true), ("12:30", true),
                      ("iPad1", false), ("home", false), ("", false), ("-", false), ("e", false)])
    func whichTextASpreadsheetWouldConvert(text: String, converts: Bool) {
        #expect(StoreExport.spreadsheetWouldConvert(text) == converts)
    }
}
