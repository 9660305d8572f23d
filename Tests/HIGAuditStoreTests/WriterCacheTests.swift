import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import HIGAuditStore

/// Opening a store for a nightly run checks every page of it (`PRAGMA quick_check`): through SQLite's
/// default cache, so that memory does not grow with the store, while the run itself gets its larger
/// cache for the inserts that follow.
@Suite struct WriterCacheTests {
    /// Bytes the connection's page cache holds (`SQLITE_DBSTATUS_CACHE_USED`).
    static func cacheUsed(_ db: Database) -> Int32 {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return current
    }

    @Test func theCheckOfALargeStoreKeepsTheCacheSmall() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        // A store of ~24 MB: many times SQLite's default cache of 2 MiB.
        try ResultsStore(writingAt: path).queue.write { db in
            try db.execute(sql: "CREATE TABLE padding (bytes BLOB NOT NULL)")
            for _ in 0..<6_000 { try db.execute(sql: "INSERT INTO padding VALUES (zeroblob(4000))") }
        }
        let store = try ResultsStore(writingAt: path)
        let (cacheUsed, cacheSize) = try store.queue.write { db in
            (Self.cacheUsed(db), try Int.fetchOne(db, sql: "PRAGMA cache_size"))
        }
        #expect(cacheUsed < 4 << 20, "the quick check filled the cache with the store")
        #expect(cacheSize == -262_144)
    }
}
