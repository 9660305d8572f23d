import Foundation
import Testing

/// End-to-end outputs of `analyze` on a small hand-made log, compared byte for byte with files under
/// `Golden/`. The fixture exercises every required rule and most further ones, reordering, a duplicate,
/// late events, malformed lines, an unknown type and a formula-like screen name. Run with
/// `HIG_AUDIT_UPDATE_GOLDEN=1` to rewrite the files after an intended change, then review the diff.
@Suite struct GoldenOutputTests {
    static let fixture = "Tests/HIGAuditCLITests/Fixtures/mixed.ndjson"

    static let cases: [(table: String, format: String)] = [
        ("violations", "table"), ("violations", "csv"), ("violations", "json"), ("violations", "markdown"),
        ("summary", "csv"), ("summary", "table"), ("by_version", "csv"), ("by_screen", "csv"),
        ("haptics", "csv"), ("ingest", "json"), ("unknown_types", "csv"),
    ]

    @Test(arguments: cases.map { "\($0.table).\($0.format)" })
    func matchesGolden(_ name: String) throws {
        let parts = name.split(separator: ".").map(String.init)
        let result = try HigAuditBinary.run(["analyze", Self.fixture, "--table", parts[0], "--format", parts[1]])
        #expect(result.status == 3, "skipped input (malformed lines) must give exit status 3")
        let golden = HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/\(name)")
        if ProcessInfo.processInfo.environment["HIG_AUDIT_UPDATE_GOLDEN"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func diagnosticsNameFileAndLine() throws {
        let result = try HigAuditBinary.run(["analyze", Self.fixture, "--table", "ingest", "--format", "csv"])
        #expect(result.stderr.contains("\(Self.fixture):18: malformed line: invalid JSON"))
        #expect(result.stderr.contains("\(Self.fixture):37: malformed line: unknown haptic kind \"buzz\""))
        #expect(result.stderr.contains("\(Self.fixture):15: late event:"))
        #expect(result.stderr.contains("\(Self.fixture):36: late event:"))
    }

    @Test func ingestCountsEveryBucket() throws {
        let result = try HigAuditBinary.run(["analyze", Self.fixture, "--table", "ingest", "--format", "csv"])
        let lines = result.stdout.split(separator: "\r\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let values = lines[1].split(separator: ",").map(String.init)
        let row = Dictionary(uniqueKeysWithValues: zip(header, values))
        #expect(row["lines"] == "38")
        #expect(row["malformed_lines"] == "2")
        #expect(row["late_events"] == "2")
        #expect(row["duplicate_events"] == "1")
        #expect(row["unknown_types"] == "1")
        #expect(row["sessions"] == "2")
        #expect(row["unbalanced_dismisses"] == "1")
        // 38 lines = 1 blank + 2 malformed + 1 unknown + 1 duplicate + 2 late + 31 accepted.
        #expect(row["events"] == "31")
    }

    /// The launch, permission, rating and widget rules end to end on `Fixtures/launch.ndjson`: every
    /// rule at its limits (a launch of 2001 ms, prompts at 5 s and 65 s, a request 2 s after a touch,
    /// loads of 1000 and 1000.5 ms), reordering within the lateness bound, an `already_decided`
    /// request, and two malformed lines of the new types. Refreshed like the others.
    static let launchFixture = "Tests/HIGAuditCLITests/Fixtures/launch.ndjson"

    @Test(arguments: ["violations.csv", "summary.csv"])
    func launchRulesMatchGolden(_ name: String) throws {
        let parts = name.split(separator: ".").map(String.init)
        let result = try HigAuditBinary.run(["analyze", Self.launchFixture, "--table", parts[0], "--format", parts[1]])
        #expect(result.status == 3, "the fixture's two malformed lines must give exit status 3")
        #expect(result.stderr.contains("\(Self.launchFixture):11: malformed line: unknown permission \"cookies\""))
        #expect(result.stderr.contains("\(Self.launchFixture):21: malformed line: unknown widget content \"stale\""))
        let golden = HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/launch-\(name)")
        if ProcessInfo.processInfo.environment["HIG_AUDIT_UPDATE_GOLDEN"] != nil {
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(result.stdout == expected)
    }
}
