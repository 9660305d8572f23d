import Foundation
import Testing

/// Logs written before the launch, permission, rating and widget event types existed give the same
/// tables with the four rules of those types as without them, but for their zero rows in `summary`
/// and `by_version` (which list every enabled rule).
@Suite struct LaunchRulesOnOldLogsTests {
    static let newRules = ["early-rating-prompt", "slow-launch", "unprompted-permission-request", "widget-placeholder"]

    static func output(table: String, config: URL?) throws -> String {
        let arguments = ["analyze", GoldenOutputTests.fixture, "--table", table, "--format", "csv"]
            + (config.map { ["--config", $0.path] } ?? [])
        let result = try HigAuditBinary.run(arguments)
        #expect(result.status == 3)
        return result.stdout
    }

    @Test func oldLogsGiveTheSameTablesApartFromZeroRows() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("without-launch-rules.yml")
        let yaml = "rules:\n" + Self.newRules.map { "  \($0):\n    enabled: false\n" }.joined()
        try yaml.write(to: config, atomically: true, encoding: .utf8)

        for table in ["violations", "by_screen", "haptics", "ingest", "unknown_types"] {
            #expect(try Self.output(table: table, config: nil) == Self.output(table: table, config: config), "\(table)")
        }
        for table in ["summary", "by_version"] {
            let with = try Self.output(table: table, config: nil).components(separatedBy: "\r\n")
            let without = try Self.output(table: table, config: config).components(separatedBy: "\r\n")
            let added = with.filter { line in Self.newRules.contains { line.contains(",\($0),") || line.hasPrefix("\($0),") } }
            #expect(with.filter { !added.contains($0) } == without, "\(table)")
            #expect(!added.isEmpty)
            // Every added row is a zero row: no violations, no sessions affected.
            for row in added {
                let cells = row.split(separator: ",").map(String.init)
                let rule = try #require(cells.firstIndex { Self.newRules.contains($0) })
                #expect(cells[rule + 2] == "0" && cells[rule + 3] == "0", "\(row)")
            }
        }
    }
}
