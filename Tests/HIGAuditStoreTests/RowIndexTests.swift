import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// A run into a store without sessions or violations builds the rows' indexes after its inserts
/// (`RowIndex`): every committed store has them all, as a new store's schema makes them, and a run that
/// fails leaves them as they were.
@Suite struct RowIndexTests {
    /// The indexes of `sessions` and `violations`, by name, with the SQL the store keeps for each.
    static func rowIndexes(_ path: String) throws -> [String: String] {
        try ResultsStore(readingAt: path).read { db in
            var indexes: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master
                WHERE type = 'index' AND tbl_name IN ('sessions', 'violations') AND sql IS NOT NULL
                """) {
                indexes[row["name"]] = row["sql"]
            }
            return indexes
        }
    }

    static let expected = Dictionary(
        uniqueKeysWithValues: (RowIndex.onSessions + RowIndex.onViolations).map { ($0.name, $0.creation) })

    static func logFiles(seed: UInt64, files: Int) throws -> (directory: URL, paths: [String]) {
        let directory = try LogFixtures.temporaryDirectory()
        let lines = LogFixtures.stream(seed: seed)
        return (directory, try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: files), in: directory))
    }

    @Test func aNewStoreHasTheIndexesOfItsSchema() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        _ = try ResultsStore(writingAt: path)
        #expect(try Self.rowIndexes(path) == Self.expected)
    }

    @Test func runsIntoANewStoreAndIntoAFullOneLeaveEveryIndex() throws {
        let (directory, paths) = try Self.logFiles(seed: 7, files: 4)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let (first, _) = try nightly(store, Array(paths.prefix(2)))
        #expect(first.rowIndexesBuiltAfterInserts)
        #expect(try Self.rowIndexes(store) == Self.expected)
        let sessions = try ResultsStore(readingAt: store).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sessions") }
        #expect((sessions ?? 0) > 0, "the first night closes sessions, so the second finds rows")
        let (second, _) = try nightly(store, paths, closeOpen: true)
        #expect(!second.rowIndexesBuiltAfterInserts)
        #expect(try Self.rowIndexes(store) == Self.expected)
        #expect(try storeTables(store) == analyzeTables(paths, StoreTestConfiguration.standard))
    }

    @Test func indexesAreDeferredOnlyWhileTheRowsTablesAreEmpty() throws {
        let (directory, paths) = try Self.logFiles(seed: 8, files: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let results = try ResultsStore(writingAt: store)
        // Dropped in a transaction that then rolls back without building them: they are back.
        try results.queue.inTransaction { db in
            let indexes = try RowIndexes.deferredWhileEmpty(db)
            #expect(indexes.areDeferred)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'violations_by_%'") == 0)
            return .rollback
        }
        #expect(try Self.rowIndexes(store) == Self.expected)
        try nightly(store, paths, closeOpen: true)
        try results.queue.inTransaction { db in
            let indexes = try RowIndexes.deferredWhileEmpty(db)
            #expect(!indexes.areDeferred)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'violations_by_%'") == 7)
            return .rollback
        }
    }

    @Test func aStoreWithItsOwnIndexesKeepsThem() throws {
        let (directory, paths) = try Self.logFiles(seed: 10, files: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let redefined = "CREATE INDEX violations_by_rule ON violations(rule, severity)"
        try ResultsStore(writingAt: store).queue.write { db in
            try db.execute(sql: "DROP INDEX violations_by_run")
            try db.execute(sql: "DROP INDEX violations_by_rule")
            try db.execute(sql: redefined)
        }
        let (outcome, _) = try nightly(store, paths, closeOpen: true)
        #expect(outcome.rowIndexesBuiltAfterInserts)
        var expected = Self.expected
        expected["violations_by_run"] = nil
        expected["violations_by_rule"] = redefined
        #expect(try Self.rowIndexes(store) == expected)
    }

    @Test func aRunThatFailsLeavesANewStoreWithItsIndexes() throws {
        let (directory, paths) = try Self.logFiles(seed: 9, files: 3)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let run = NightlyRun(
            store: try ResultsStore(writingAt: store), configuration: StoreTestConfiguration.standard,
            reader: try InputReader(), closeOpen: true, onDiagnostic: { _ in })
        run.strict = true
        // The fixtures hold a malformed line: skipped input, which --strict makes fatal.
        #expect(throws: NightlyRunError.skippedInputUnderStrict) {
            try run.run(paths.map { InputSource(path: $0) })
        }
        #expect(try Self.rowIndexes(store) == Self.expected)
        let runs = try ResultsStore(readingAt: store).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM runs") }
        #expect(runs == 0)
    }
}
