import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// Schema v3 (SPEC §6): each violation keeps its run's suppression through `merge`, and a store
/// written before v3 reads as one where nothing was suppressed, until its next run adds the record.
@Suite struct StoreJudgementsTests {
    /// Every rule on screens with an `e` in their name: some of the fixture's violations, not all.
    static let exclusion = Exclusion(rules: nil, screens: [ScreenGlob("*e*")], reason: "accepted", location: "rules.yml:2")
    static let today = CalendarDay("2026-11-28")!

    static func judgement() -> RunJudgement {
        RunJudgement(entries: [exclusion], today: today, configSHA256: "c0ffee", baseline: nil)
    }

    static func counts(_ store: String) throws -> (suppressed: Int, all: Int) {
        try ResultsStore(readingAt: store).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations WHERE suppressed = 1") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations") ?? -1)
        }
    }

    @Test(arguments: [1, 3])
    func mergedPartsKeepEachViolationsSuppression(shards: Int) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try ShardMergeTests.files(in: directory)
        var parts: [String] = []
        for index in 0..<shards {
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            let run = NightlyRun(
                store: try ResultsStore(writingAt: part), configuration: StoreTestConfiguration.standard,
                reader: try InputReader(), closeOpen: true, onDiagnostic: { _ in })
            run.shardPart = ShardPart(shard: DeviceShard(index: index, count: shards)!, countedFiles: nil)
            run.judgement = Self.judgement()
            _ = try run.run(files.map { InputSource(path: $0) })
            parts.append(part)
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: parts, into: merged)
        let (suppressed, all) = try Self.counts(merged)
        #expect(suppressed > 0 && suppressed < all, "the entry suppresses some violations, not all")

        // The merged store's tables are one analyze's with the same exclusions.
        let run = AuditRun(
            configuration: StoreTestConfiguration.standard, reader: try InputReader(),
            suppression: Suppression([Self.exclusion], today: Self.today), onDiagnostic: { _ in })
        for path in files { run.read(InputSource(path: path)) }
        let accumulator = run.finish()
        let stored = try Self.tablesWithoutIngest(merged)
        for name in [TableName.violations, .summary, .byVersion, .byScreen, .worstScreens] {
            #expect(stored[name] == CSVWriter().render(accumulator.table(name, ingest: run.statistics, sources: run.sources)), "\(name.rawValue)")
        }
        let entries = try ResultsStore(readingAt: merged).read { try RecordedJudgements.entries($0, runs: []) }
        #expect(entries.count == shards)
        #expect(entries.allSatisfy { $0.reason == "accepted" && $0.screens == #"["*e*"]"# && $0.rules == "*" && $0.inForce })
    }

    static func tablesWithoutIngest(_ store: String) throws -> [TableName: String] {
        let loaded = try ResultsStore(readingAt: store).read { try StoredTables.load($0) }
        var tables: [TableName: String] = [:]
        for name in TableName.exported where name != .ingest { tables[name] = CSVWriter().render(loaded.table(name)) }
        return tables
    }

    @Test func aStoreFromBeforeV3CountsEveryViolationAndIsMigratedByItsNextRun() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try ShardMergeTests.files(in: directory)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, Array(files.prefix(3)))
        let before = try storeTables(storePath)
        // The store as the version before v3 left it.
        let queue = try DatabaseQueue(path: storePath)
        try queue.write { db in
            try db.execute(sql: """
                DROP VIEW violations_readable;
                ALTER TABLE violations DROP COLUMN suppressed;
                DROP TABLE run_judgements;
                DROP TABLE run_exclusions;
                DELETE FROM grdb_migrations WHERE identifier = 'v3';
                """)
        }
        try queue.close()
        #expect(try storeTables(storePath) == before, "read without the record: nothing suppressed")

        let run = NightlyRun(
            store: try ResultsStore(writingAt: storePath), configuration: StoreTestConfiguration.standard,
            reader: try InputReader(), closeOpen: true, onDiagnostic: { _ in })
        run.judgement = Self.judgement()
        _ = try run.run(files.map { InputSource(path: $0) })
        let migrations = try ResultsStore(readingAt: storePath).read {
            try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(migrations == StoreMigrations.identifiers.sorted())
        // The violations of the first run stay counted; only the second run's are judged.
        let firstRunSuppressed = try ResultsStore(readingAt: storePath).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM violations WHERE run_id = 1 AND suppressed <> 0")
        }
        #expect(firstRunSuppressed == 0)
        let judged = try ResultsStore(readingAt: storePath).read {
            try Row.fetchAll($0, sql: "SELECT run_id, config_sha256 FROM run_judgements").map { [$0[0] as Int64, $0[1] as String?] as [Any?] }
        }
        #expect(judged.count == 1 && (judged.first?[0] as? Int64) == 2 && (judged.first?[1] as? String) == "c0ffee")
    }
}
