import Foundation
import Testing

/// `hig-audit show`: one session's events in the rules' order, its violations at their source events,
/// its late and duplicate events marked, and the session named by a prefix of its id.
@Suite struct ShowCommandTests {
    static let fixture = "Tests/HIGAuditCLITests/Fixtures/mixed.ndjson"

    /// The JSON output's events, as dictionaries.
    func events(_ session: String) throws -> (status: Int32, events: [[String: Any]]) {
        let result = try HigAuditBinary.run(["show", "--session", session, Self.fixture, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let events = try #require(object["events"] as? [[String: Any]])
        return (result.status, events)
    }

    func line(_ number: Int) -> String { "\(Self.fixture):\(number)" }

    @Test func acceptedEventsComeInTsOrderWithTheirSources() throws {
        let (status, events) = try events("s-alpha")
        #expect(status == 3)  // the fixture's malformed line 18 is skipped input
        let accepted = events.filter { $0["disposition"] as? String == "accepted" }
        let sources = accepted.compactMap { $0["source"] as? String }
        // Line 9 (21.300) was read before line 8 (21.200): the rules see 8 first. 12 is a duplicate,
        // 15 late, 16 an unknown type and 18 malformed: none of them is accepted.
        let expected = [1, 2, 3, 4, 5, 6, 7, 9, 8, 10, 11, 13, 14, 17, 19, 20, 21, 22, 23, 24, 25].map(line)
        #expect(sources == expected)
        let timestamps = accepted.compactMap { $0["ts"] as? String }
        #expect(timestamps == timestamps.sorted())
        #expect(accepted.first?["type"] as? String == "session.start")
        let fields = try #require(accepted.first?["fields"] as? [String: Any])
        #expect(fields["pencil_preferred_action"] as? String == "switch_eraser")
    }

    @Test func violationsSitAtTheirSourceEventsAndMatchAnalyze() throws {
        for session in ["s-alpha", "s-bravo"] {
            let (_, events) = try events(session)
            var shown: [String] = []
            for event in events {
                for violation in event["violations"] as? [[String: Any]] ?? [] {
                    #expect(violation["source"] as? String == event["source"] as? String)
                    #expect(event["disposition"] as? String == "accepted")
                    shown.append(Self.key(violation, session: session))
                }
            }
            let analyze = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--table", "violations", "--session", session, "--format", "json"])
            let tables = try #require(try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any])
            let rows = try #require(tables["violations"] as? [[String: Any]])
            #expect(!rows.isEmpty)
            #expect(shown.sorted() == rows.map { Self.key($0, session: session) }.sorted())
        }
    }

    /// The columns a violation has in both outputs, as one comparable string.
    static func key(_ violation: [String: Any], session: String) -> String {
        ["rule", "severity", "screen", "start_ts", "end_ts", "count", "detail", "source"]
            .map { "\(violation[$0] ?? "nil")" }.joined(separator: "|")
    }

    @Test func lateAndDuplicateEventsAreMarkedWithWhy() throws {
        let (_, alpha) = try events("s-alpha")
        let notAccepted = alpha.filter { $0["disposition"] as? String != "accepted" }
        #expect(notAccepted.map { $0["source"] as? String } == [line(12), line(15)])
        #expect(notAccepted.map { $0["disposition"] as? String } == ["duplicate", "late"])
        #expect((notAccepted[0]["reason"] as? String)?.contains("id a11 was already accepted at \(line(11))") == true)
        #expect((notAccepted[1]["reason"] as? String)?.contains("older than the session's newest event") == true)
        #expect(notAccepted.allSatisfy { ($0["violations"] as? [Any])?.isEmpty == true })

        let table = try HigAuditBinary.run(["show", "--session", "s-bravo", Self.fixture])
        #expect(table.stdout.contains("\nnot_accepted\n"))
        let lateLine = try #require(table.stdout.split(separator: "\n").first { $0.contains(line(36)) })
        #expect(lateLine.contains("touch") && lateLine.contains(" late "))
    }

    @Test func theTerminalTableListsEventsAndViolations() throws {
        let result = try HigAuditBinary.run(["show", "--session", "s-bravo", Self.fixture])
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "session")
        #expect(lines.contains { $0.hasPrefix("s-bravo") && $0.contains("ipad-0002") && $0.contains("5.1.0") })
        let haptic = try #require(lines.firstIndex { $0.contains(line(28)) })
        #expect(lines[haptic].contains("kind=impact.medium duration_ms=2000"))
        #expect(lines[haptic].contains("haptic-overuse") || lines[haptic].contains("haptic-when-disabled"))
        // Its second violation is on the next row, the event's cells left blank.
        #expect(lines[haptic + 1].hasPrefix(" ") && lines[haptic + 1].contains("haptic-"))
    }

    @Test func jsonAndTheTableListTheSameEventsInTheSameOrder() throws {
        for session in ["s-alpha", "s-bravo"] {
            let (_, events) = try events(session)
            let table = try HigAuditBinary.run(["show", "--session", session, Self.fixture])
            // Each event's first row names its source; a further violation's row leaves it blank.
            let tableSources = table.stdout.split(separator: "\n").compactMap { row in
                row.firstMatch(of: /Tests\/HIGAuditCLITests\/Fixtures\/mixed\.ndjson:\d+/).map { String($0.output) }
            }.filter { !$0.isEmpty }
            // The detail of a destructive double-tap names the double-tap's line too: only the first match
            // of a row counts, which is the event's own source.
            #expect(tableSources == events.compactMap { $0["source"] as? String })
        }
    }

    @Test func aUniquePrefixNamesTheSession() throws {
        let whole = try HigAuditBinary.run(["show", "--session", "s-bravo", Self.fixture, "--format", "csv"])
        let prefix = try HigAuditBinary.run(["show", "--session", "s-b", Self.fixture, "--format", "csv"])
        #expect(prefix.status == 3)
        #expect(prefix.stdout == whole.stdout)
        #expect(prefix.stdout.hasPrefix("ts,type,screen,fields,source,disposition,reason,rule,severity,detail\r\n"))
    }

    @Test func anAmbiguousPrefixIsAUsageErrorListingTheCandidates() throws {
        let result = try HigAuditBinary.run(["show", "--session", "s-", Self.fixture])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("session 's-' is ambiguous: 2 sessions start with it: s-alpha, s-bravo"))
    }

    @Test func aSessionThatNothingMatchesIsSaidWithStatusOne() throws {
        let result = try HigAuditBinary.run(["show", "--session", "s-charlie", Self.fixture])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no session id starts with 's-charlie'"))
    }

    @Test func aWholeIdWinsOverLongerIdsItStarts() throws {
        let log = """
            {"ts":1000,"session":"x1","type":"session.start"}
            {"ts":2000,"session":"x","type":"session.start"}
            {"ts":3000,"session":"x2","type":"rating.prompt"}
            {"ts":4000,"session":"x","type":"rating.prompt"}

            """
        let result = try HigAuditBinary.run(["show", "--session", "x", "-", "--format", "json"], stdin: Data(log.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["session"] as? String == "x")
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.map { $0["source"] as? String } == ["-:2", "-:4"])
        let violations = events.flatMap { $0["violations"] as? [[String: Any]] ?? [] }
        #expect(violations.map { $0["rule"] as? String } == ["early-rating-prompt"])
    }

    /// With `--config`, a violation an exclusion suppresses is shown flagged and counts in no
    /// violations count (SPEC §6), in every format.
    @Test func suppressedViolationsAreFlaggedAndNotCounted() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("modals.ndjson")
        let config = directory.appendingPathComponent("exclude.yml")
        try """
            {"ts":1795208645000,"session":"A","type":"session.start","device":"d1","app_version":"1.0","screen":"X"}
            {"ts":1795208645010,"session":"A","type":"modal.present","modal":"p","style":"popover","screen":"X"}
            {"ts":1795208645020,"session":"A","type":"modal.present","modal":"s","style":"page_sheet","screen":"X"}
            {"ts":1795208645030,"session":"A","type":"modal.dismiss","modal":"s","screen":"Y"}
            {"ts":1795208645040,"session":"A","type":"modal.present","modal":"s2","style":"page_sheet","screen":"Y"}

            """.write(to: log, atomically: true, encoding: .utf8)
        try """
            exclude:
              - rules: [modal-over-popover]
                screens: ["X"]
                reason: the popover's own sheet

            """.write(to: config, atomically: true, encoding: .utf8)
        let arguments = ["show", "--session", "A", log.path, "--config", config.path]

        let json = try HigAuditBinary.run(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let violations = (object["events"] as? [[String: Any]] ?? []).flatMap { $0["violations"] as? [[String: Any]] ?? [] }
        #expect(violations.map { $0["screen"] as? String } == ["X", "Y"])
        #expect(violations.map { $0["suppressed"] as? Bool } == [true, false])

        let csv = try HigAuditBinary.run(arguments + ["--format", "csv"])
        let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let suppressed = try #require(rows.first?.firstIndex(of: "suppressed"), "\(csv.stdout)")
        #expect(rows.dropFirst().filter { $0[suppressed] == "true" }.count == 1, "\(csv.stdout)")

        let table = try HigAuditBinary.run(arguments + ["--format", "markdown"])
        #expect(table.stdout.contains("| violations | duplicates | late | suppressed |"), "\(table.stdout)")
        #expect(table.stdout.contains("| 5 | 1 | 0 | 0 | 1 |"), "\(table.stdout)")

        // Without the config nothing is suppressed, and no column says so.
        let plain = try HigAuditBinary.run(["show", "--session", "A", log.path, "--format", "markdown"])
        #expect(!plain.stdout.contains("suppressed") && plain.stdout.contains("| 5 | 2 | 0 | 0 |"), "\(plain.stdout)")
    }
}
