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

    @Test(arguments: ["runs", "input_files", "checkpoint_sessions"])
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
}
