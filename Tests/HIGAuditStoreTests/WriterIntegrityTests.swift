import Foundation
import GRDB
import Testing
@testable import HIGAuditStore

/// What a nightly run checks before writing (`WriterIntegrity`, issue 46): a small store whole; a large
/// one by the tables a run reads whole, so that the check does not grow with the history kept, while
/// readers still check every page.
@Suite struct WriterIntegrityTests {
    /// A store of ~24 MB, past `WriterIntegrity.wholeFileLimit`, most of it one table no run reads.
    static func largeStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("store.sqlite").path
        try ResultsStore(writingAt: path).queue.write { db in
            try db.execute(sql: "CREATE TABLE padding (bytes BLOB NOT NULL)")
            for _ in 0..<6_000 { try db.execute(sql: "INSERT INTO padding (bytes) VALUES (randomblob(4000))") }
        }
        #expect(ResultsStore.fileSize(path) > WriterIntegrity.wholeFileLimit)
        return path
    }

    /// Overwrites page `page` (1-based) of the file with garbage.
    static func damage(_ path: String, page: Int64) throws {
        let pageSize = try DatabaseQueue(path: path).read { try Int64.fetchOne($0, sql: "PRAGMA page_size") ?? 4096 }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        handle.write(Data(repeating: 0xA5, count: Int(pageSize)))
        try handle.close()
    }

    static func rootPage(_ path: String, of table: String) throws -> Int64 {
        try DatabaseQueue(path: path).read {
            try Int64.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [table]) ?? 0
        }
    }

    @Test func aLargeStoreDamagedInHistoryNoRunReadsIsWrittenButNotRead() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.largeStore(in: directory)
        let pages = ResultsStore.fileSize(path) / 4096
        try Self.damage(path, page: pages / 2)
        _ = try ResultsStore(writingAt: path)
        do {
            _ = try ResultsStore(readingAt: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") }
            Issue.record("a damaged store was read")
        } catch let error as StoreError {
            guard case .damaged = error else { Issue.record("expected damaged, got \(error)"); return }
        }
    }

    @Test(arguments: ["runs", "checkpoint_sessions"])
    func aLargeStoreDamagedInATableRunsReadWholeIsRefusedForWriting(table: String) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.largeStore(in: directory)
        try Self.damage(path, page: try Self.rootPage(path, of: table))
        do {
            _ = try ResultsStore(writingAt: path)
            Issue.record("a store damaged in \(table) was opened for writing")
        } catch let error as StoreError {
            guard case .damaged = error else { Issue.record("expected damaged, got \(error)"); return }
        }
    }

    /// A run reads a counted file's row only when an input or a violation needs it (issue 46: night 31
    /// read every counted file's name and checked their table whole, ~28k rows after 30 nights), so that
    /// table is not checked whole before a run any more: a damaged page there is found by the first
    /// lookup that reaches it, and the run is rolled back with the store reported damaged.
    @Test func aLargeStoreDamagedInItsCountedFilesFailsTheRunThatLooksThemUp() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.largeStore(in: directory)
        var logs: [String] = []
        for night in 0..<2 {
            let log = directory.appendingPathComponent("night-\(night).ndjson")
            try Data(#"{"ts":\#(1_795_000_000_000 + night * 86_400_000),"session":"s\#(night)","type":"session.start"}"#.utf8 + [0x0A])
                .write(to: log)
            logs.append(log.path)
        }
        try nightly(path, [logs[0]])
        try Self.damage(path, page: try Self.rootPage(path, of: "input_files"))
        _ = try ResultsStore(writingAt: path)
        do {
            try nightly(path, [logs[1]])
            Issue.record("a run looked files up in a damaged table and committed")
        } catch {
            // As the commands report it (`StoreError.describing`).
            guard case StoreError.damaged = StoreError.describing(error, store: path) else {
                Issue.record("expected damaged, got \(error)")
                return
            }
        }
        let runs = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") }
        #expect(runs == 1)
    }
}
