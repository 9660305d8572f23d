import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// The store against concurrent first runs, damage, files that are not stores, and analysts' SQL
/// that tries to reach outside it (issue 24).
@Suite struct StoreSafetyTests {
    /// A store with one nightly run over a few hundred sessions in `directory`.
    private func filledStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("results.sqlite").path
        let files = try LogFixtures.writeZstdFiles(
            LogFixtures.chunks(LogFixtures.stream(seed: 24, sessions: 300), count: 3), in: directory)
        try nightly(path, files, closeOpen: true)
        return path
    }

    /// Two first runs on a new store, started together, both created the tables: one failed with
    /// "table runs already exists" in 18 of 20 trials.
    @Test func firstRunsOnANewStoreTakeTurns() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for trial in 0..<20 {
            let path = directory.appendingPathComponent("new-\(trial).sqlite").path
            let failures = Failures()
            let group = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    do { _ = try ResultsStore(writingAt: path) } catch { failures.add("\(error)") }
                }
            }
            group.wait()
            #expect(failures.all.isEmpty, "trial \(trial)")
            #expect(try ResultsStore(readingAt: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") } == 0)
        }
    }

    /// 4 KiB overwritten in the middle: `integrity_check` failed, yet the next run committed and
    /// queries answered with exit 0.
    @Test func aDamagedStoreIsRefusedForWritingAndReading() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try filledStore(in: directory)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(size > 64 * 1024)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(size / 2 / 4096 * 4096))
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        // A reader's check runs beside its first read: that read gives no answer, whatever it read.
        let answer = { (store: ResultsStore) in try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM rules") } }
        let answerSQL = { (store: ResultsStore) in try store.runReadOnlySQL("SELECT COUNT(*) FROM rules", timeLimit: 10) }
        for open in [
            { _ = try ResultsStore(writingAt: path) }, { _ = try answer(ResultsStore(readingAt: path)) },
            { _ = try answerSQL(ResultsStore(readingAt: path)) },
        ] {
            do {
                try open()
                Issue.record("a damaged store was opened and read")
            } catch let error as StoreError {
                guard case .damaged = error else {
                    Issue.record("expected damaged, got \(error)")
                    continue
                }
                #expect(error.description.contains("Pipelines/README.md"))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anSQLiteFileOfAnotherApplicationIsNotGivenTables() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(throws: StoreError.notAStore(path)) { _ = try ResultsStore(writingAt: path) }
        #expect(throws: StoreError.notAStore(path)) { _ = try ResultsStore(readingAt: path) }
        let tables = try DatabaseQueue(path: path).read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables == ["notes"])

        let foreignID = directory.appendingPathComponent("foreign-id.sqlite").path
        try DatabaseQueue(path: foreignID).write { try $0.execute(sql: "PRAGMA application_id = 7") }
        #expect(throws: StoreError.notAStore(foreignID)) { _ = try ResultsStore(writingAt: foreignID) }
    }

    /// A store of the previous version: the tables, no application id, no `unverified_duplicates`.
    @Test func aStoreOfThePreviousVersionOpensAndGetsTheApplicationID() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try filledStore(in: directory)
        let expected = try storeTables(path)
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = 0")
            try db.execute(sql: "ALTER TABLE runs DROP COLUMN unverified_duplicates")
        }
        #expect(try storeTables(path) == expected)
        #expect(try ResultsStore(readingAt: path).read { try StoredTables.load($0).ingest.unverifiedDuplicates } == 0)

        _ = try ResultsStore(writingAt: path)
        let (id, columns) = try DatabaseQueue(path: path).read { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try db.columns(in: "runs").map(\.name))
        }
        #expect(id == StoreSchema.applicationID)
        #expect(columns.contains("unverified_duplicates"))
        #expect(try storeTables(path) == expected)
    }

    @Test(arguments: [
        "ATTACH DATABASE '/etc/hostname.db' AS x",
        "SELECT fts3_tokenizer('simple')",
        "SELECT load_extension('/tmp/x.so')",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA writable_schema = 1",
        "BEGIN",
    ])
    func sqlThatReachesOutsideTheStoreIsRefused(sql: String) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        _ = try ResultsStore(writingAt: path)
        let store = try ResultsStore(readingAt: path)
        do {
            let table = try store.runReadOnlySQL(sql, timeLimit: 30)
            Issue.record("ran: \(table.rowCount) rows")
        } catch let error as StoreError {
            guard case .invalidQuery(let why) = error else {
                Issue.record("expected a refused query, got \(error)")
                return
            }
            #expect(why.hasPrefix("--sql: "))
        }
    }

    @Test func sqlThatOnlyReadsTheStoreRuns() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try filledStore(in: directory)
        let store = try ResultsStore(readingAt: path)
        let counted = try store.runReadOnlySQL(
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) "
                + "SELECT COUNT(*) AS runs, (SELECT SUM(x) FROM n) AS six, lower('A') AS a FROM runs", timeLimit: 30)
        #expect(counted.row(0) == [.integer(1), .integer(6), .input("a")])
        let columns = try store.runReadOnlySQL("SELECT name FROM pragma_table_info('runs') WHERE name = 'files'", timeLimit: 30)
        #expect(columns.rowCount == 1)
        #expect(try store.runReadOnlySQL("PRAGMA table_info(runs)", timeLimit: 30).rowCount > 20)
    }

    /// A runaway recursive query ran until it was killed.
    @Test func aRunawayQueryIsStoppedAtItsTimeLimit() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        _ = try ResultsStore(writingAt: path)
        let store = try ResultsStore(readingAt: path)
        #expect(throws: StoreError.queryTimedOut(seconds: 0.2)) {
            _ = try store.runReadOnlySQL(
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n", timeLimit: 0.2)
        }
    }
}

/// Errors collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func add(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}

/// SQLite keeps a bound text only up to its first U+0000, so sessions (and unknown types) that differed
/// only after one met in the store as one: every nightly run over such a file failed on a UNIQUE
/// constraint and committed nothing. The decoder now refuses such texts as malformed.
@Suite struct NullInTextsStoreTests {
    @Test func sessionsDifferingAfterANullNeitherStopTheRunNorMerge() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines: [String] = []
        for (index, session) in [#"s\u0000a"#, #"s\u0000b"#, "plain"].enumerated() {
            let ts = 1_800_000_000_000 + Int64(index) * 1_000
            lines.append(#"{"ts":\#(ts),"session":"\#(session)","type":"session.start","device":"d\#(index)"}"#)
            lines.append(#"{"ts":\#(ts + 20),"session":"\#(session)","type":"haptic","kind":"selection"}"#)
            lines.append(#"{"ts":\#(ts + 30),"session":"\#(session)","type":"session.end"}"#)
        }
        // Unknown types are keyed by name in the store too.
        for (offset, name) in [#"mystery\u0000x"#, #"mystery\u0000y"#, "mystery"].enumerated() {
            lines.insert(#"{"ts":\#(1_800_000_002_010 + Int64(offset)),"session":"plain","type":"\#(name)"}"#, at: lines.count - 1)
        }
        let files = try LogFixtures.writeZstdFiles([lines], in: directory)
        let storePath = directory.appendingPathComponent("results.sqlite").path
        let (outcome, diagnostics) = try nightly(storePath, files, closeOpen: true)

        #expect(outcome.statistics.malformedLines == 8)  // six of the two sessions, two unknown types
        #expect(outcome.statistics.events == 3)
        #expect(outcome.statistics.unknownTypes == ["mystery": 1])
        #expect(outcome.sessionsClosed == 1)
        let reasons = diagnostics.filter { $0.category == .malformedLine }.map(\.description)
        #expect(reasons.count == 8)
        #expect(reasons.filter { $0.contains(#"field "type""#) }.count == 2)
        #expect(reasons.allSatisfy { $0.contains("holds U+0000") }, "\(reasons)")
        #expect(try storeTables(storePath) == analyzeTables(files, StoreTestConfiguration.standard))
    }
}
