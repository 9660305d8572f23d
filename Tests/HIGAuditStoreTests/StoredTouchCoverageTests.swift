import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// Touch coverage in the store (SPEC §7 "Touch coverage", issue 47): each session keeps its
/// `touches`, so that the store's tables, `query --group-by` and `compare` leave the sessions a rule
/// that needs every touch did not judge out of that rule's totals, as `analyze` does.
@Suite struct StoredTouchCoverageTests {
    /// Sessions that each switch tabs with no touch, long after launch: two with every touch (one of
    /// them without `session.start`), one sampled, one with none, on two versions.
    static let firstHalf = [
        #"{"ts":0,"session":"all","type":"session.start","app_version":"1.0"}"#,
        #"{"ts":0,"session":"sampled","type":"session.start","touches":"sampled","app_version":"1.0"}"#,
        #"{"ts":0,"session":"none","type":"session.start","touches":"none","app_version":"2.0"}"#,
        #"{"ts":0,"session":"plain","type":"nav.push","to":"home","app_version":"2.0"}"#,
    ]
    static let secondHalf = [
        #"{"ts":60000,"session":"all","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}"#,
        #"{"ts":60000,"session":"sampled","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}"#,
        #"{"ts":60000,"session":"none","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}"#,
        #"{"ts":60000,"session":"plain","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}"#,
    ]
    static let configuration = AuditConfiguration(sessionGapMs: 600_000)

    /// The two halves as two files, and a store that read them in one night or in two (the sessions
    /// then open in the checkpoint between them).
    private func withStore(nights: Int, _ body: (_ store: String, _ files: [String]) throws -> Void) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try [Self.firstHalf, Self.secondHalf].enumerated().map { index, lines in
            let path = directory.appendingPathComponent("half-\(index).ndjson").path
            try LogFixtures.text(lines).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let store = directory.appendingPathComponent("store.sqlite").path
        if nights == 1 {
            try nightly(store, files, closeOpen: true, Self.configuration)
        } else {
            let (first, _) = try nightly(store, [files[0]], Self.configuration)
            #expect(first.openSessions == 4)
            try nightly(store, [files[1]], closeOpen: true, Self.configuration)
        }
        try body(store, files)
    }

    private static func rows(_ csv: String?) -> [String] { (csv ?? "").split(separator: "\r\n").map(String.init) }

    @Test(arguments: [1, 2]) func storedTablesEqualAnalyzes(nights: Int) throws {
        try withStore(nights: nights) { store, files in
            let coverage = try ResultsStore(readingAt: store).read { db in
                try Row.fetchAll(db, sql: "SELECT session, touches FROM sessions ORDER BY session").map { "\($0[0] as String)=\($0[1] as String)" }
            }
            #expect(coverage == ["all=all", "none=none", "plain=all", "sampled=sampled"])
            let expected = try analyzeTables(files, Self.configuration)
            let actual = try storeTables(store)
            for name in [TableName.summary, .byVersion, .violations] {
                #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
            }
            #expect(Self.rows(actual[.summary]).contains("forced-tab-switch,error,2,2,2,2,100.00"))
        }
    }

    @Test func groupedTotalsLeaveTheSessionsNotJudgedOutOfTheRulesThatNeedEveryTouch() throws {
        try withStore(nights: 1) { store, _ in
            try ResultsStore(readingAt: store).read { db in
                let byVersion = try StoreQuery.grouped(db, by: [.appVersion, .rule])
                let csv = Self.rows(CSVWriter().render(byVersion))
                #expect(csv.contains("1.0,forced-tab-switch,1,1,1,100.00"))
                #expect(csv.contains("2.0,forced-tab-switch,1,1,1,100.00"))
                #expect(csv.contains("1.0,modal-depth,0,0,2,0.00"))
                let byRule = Self.rows(CSVWriter().render(try StoreQuery.grouped(db, by: [.rule])))
                #expect(byRule.contains("forced-tab-switch,2,2,2,100.00"))
                #expect(byRule.contains("modal-depth,0,0,4,0.00"))
                let byDay = Self.rows(CSVWriter().render(try StoreQuery.grouped(db, by: [.day, .rule])))
                #expect(byDay.contains("1970-01-01,forced-tab-switch,2,2,2,100.00"))
                // Without a rule, the groups count every session.
                let versions = Self.rows(CSVWriter().render(try StoreQuery.grouped(db, by: [.appVersion])))
                #expect(versions.contains("1.0,1,1,2,50.00"))
                // Narrowed to such rules (`--rule`, `--severity`), rows without a rule of their own count
                // the sessions those rules judged, as each rule's rows do; one rule that judges every
                // session among them brings every session back.
                func grouped(_ dimensions: [GroupDimension], rules: Set<String> = [], severities: Set<Severity> = []) throws -> [String] {
                    let selection = StoreSelection(filter: TableFilter(rules: rules), severities: severities)
                    return Self.rows(CSVWriter().render(try StoreQuery.grouped(db, by: dimensions, selection: selection)))
                }
                #expect(try grouped([.appVersion], rules: ["forced-tab-switch"]).contains("1.0,1,1,1,100.00"))
                #expect(try grouped([.day], rules: ["forced-tab-switch"]).contains("1970-01-01,2,2,2,100.00"))
                #expect(try grouped([.appVersion], rules: ["forced-tab-switch", "destructive-double-tap"]).contains("1.0,1,1,1,100.00"))
                #expect(try grouped([.appVersion], rules: ["forced-tab-switch", "modal-depth"]).contains("1.0,1,1,2,50.00"))
                #expect(try grouped([.appVersion], rules: ["forced-tab-switch"], severities: [.error]).contains("1.0,1,1,1,100.00"))

                // `compare`, counted by side or from the grouping (the dashboard), rates the rule on
                // the sessions it judged.
                let counts = VersionCounts(grouped: byVersion)
                for side in [try ComparisonSide.version("1.0").counts(db), counts.side("1.0")] {
                    #expect(side.sessions == 2)
                    #expect(side.sessions(judgedBy: "forced-tab-switch") == 1)
                    #expect(side.sessions(judgedBy: "modal-depth") == 2)
                }
                let compared = Self.rows(CSVWriter().render(try ReleaseComparison.table(db, base: "1.0", head: "2.0")))
                #expect(compared.contains { $0.hasPrefix("forced-tab-switch,1,1,100.00,1,1,100.00,0.00,") }, "\(compared)")
            }
        }
    }

    /// A store made before migration v6 reads every session as holding all its touches, before its
    /// next nightly run migrates it and after.
    @Test func aStoreMadeBeforeTheColumnReadsEverySessionAsAll() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try StoreMigrationTests.copyOfReleaseStore(in: directory)
        let summary = { try CSVWriter().render(ResultsStore(readingAt: path).read { try StoredTables.load($0).table(.summary) }) }
        let grouped = { try CSVWriter().render(ResultsStore(readingAt: path).read { try StoreQuery.grouped($0, by: [.appVersion, .rule]) }) }
        let before = (try summary(), try grouped())
        #expect(try DatabaseQueue(path: path).read { try StoreSchema.recordsTouches($0) } == false)
        #expect(Self.rows(before.0).dropFirst().allSatisfy { $0.split(separator: ",")[5] == "0" }, "no session is left unjudged")

        _ = try ResultsStore(writingAt: path)
        let migrated = try DatabaseQueue(path: path).read { db in
            (try StoreSchema.recordsTouches(db), try String.fetchSet(db, sql: "SELECT DISTINCT touches FROM sessions"))
        }
        #expect(migrated.0 && migrated.1 == ["all"])
        #expect(try summary() == before.0)
        #expect(try grouped() == before.1)
    }

    /// `merge` carries each session's coverage; a part made before the column gives `all`.
    @Test(arguments: [false, true]) func mergeCarriesTheCoverage(partsWithoutTheColumn: Bool) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("log.ndjson").path
        try LogFixtures.text(Self.firstHalf + Self.secondHalf).write(toFile: path, atomically: true, encoding: .utf8)
        var parts: [String] = []
        for index in 0..<2 {
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            try ShardMergeTests.part(part, [path], shard: DeviceShard(index: index, count: 2)!, Self.configuration)
            if partsWithoutTheColumn {
                // The part as a version before the column wrote it.
                try DatabaseQueue(path: part).write { db in
                    try db.execute(sql: "ALTER TABLE sessions DROP COLUMN touches")
                    try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v6-session-touches'")
                }
            }
            parts.append(part)
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: parts, into: merged)
        let coverage = try DatabaseQueue(path: merged).read { db in
            try Row.fetchAll(db, sql: "SELECT session, touches FROM sessions ORDER BY session").map { "\($0[0] as String)=\($0[1] as String)" }
        }
        #expect(coverage == (partsWithoutTheColumn
            ? ["all=all", "none=all", "plain=all", "sampled=all"]
            : ["all=all", "none=none", "plain=all", "sampled=sampled"]))
    }
}
