import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// The open sessions a night leaves are stored a row per session (issue 46): no value grows with their
/// number, and the next night continues every one of them as one run over both nights would.
@Suite struct CheckpointRowsTests {
    /// `devices` devices, each with one short session that is still open at the end of the first night
    /// (no `session.end`), ended by the second night's upload.
    static func nights(devices: Int) -> (first: [String], second: [String]) {
        let start: Int64 = 1_795_197_600_000
        var first: [String] = [], second: [String] = []
        for device in 0..<devices {
            let ts = start + Int64(device) * 3
            let common = #""session":"s-\#(device)","device":"d-\#(device)","app_version":"5.2.\#(device % 3)""#
            first.append(#"{"ts":\#(ts),\#(common),"type":"session.start","screen":"home"}"#)
            first.append(#"{"ts":\#(ts + 1),\#(common),"type":"haptic","kind":"impact.light"}"#)
            second.append(#"{"ts":\#(ts + 2),\#(common),"type":"app.ready"}"#)
            second.append(#"{"ts":\#(ts + 2_500),\#(common),"type":"session.end"}"#)
        }
        return (first, second)
    }

    /// The integer each query returns (-1 for none).
    static func numbers(_ store: String, _ queries: [String]) throws -> [Int] {
        try ResultsStore(readingAt: store).read { db in try queries.map { try Int.fetchOne(db, sql: $0) ?? -1 } }
    }

    @Test func manyOpenSessionsAreRowsAndTheNextNightContinuesThem() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, second) = Self.nights(devices: 20_000)
        let paths = try LogFixtures.writeZstdFiles([first, second], in: directory, framesPerFile: 1)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()

        let (night, _) = try nightly(storePath, [paths[0]], configuration)
        #expect(night.openSessions == 20_000)
        let stored = try Self.numbers(storePath, [
            "SELECT COUNT(*) FROM checkpoint_sessions", "SELECT COUNT(*) FROM checkpoint_devices",
            "SELECT open_sessions FROM engine_checkpoint", "SELECT MAX(length(state)) FROM checkpoint_sessions",
            "SELECT length(state) FROM engine_checkpoint",
        ])
        #expect(stored[0...2] == [20_000, 20_000, 20_000])
        // No value holds more than one session.
        #expect(stored[3] < 8_192 && stored[4] == 0)
        let ids = try ResultsStore(readingAt: storePath).read {
            try String.fetchAll($0, sql: "SELECT session FROM checkpoint_sessions ORDER BY rowid")
        }
        #expect(ids == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })

        let (closing, _) = try nightly(storePath, [paths[1]], closeOpen: true, configuration)
        #expect(closing.statistics.lateEvents == 0)
        #expect(try storeTables(storePath) == analyzeTables(paths, configuration))
        #expect(try Self.numbers(storePath, ["SELECT COUNT(*) FROM checkpoint_sessions", "SELECT COUNT(*) FROM sessions"]) == [0, 20_000])
    }

    /// A store written before the rows (the checkpoint one JSON value) is read, and rewritten as rows by
    /// its next run, which continues its sessions.
    @Test func aCheckpointStoredAsOneValueIsReadAndRewrittenAsRows() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, second) = Self.nights(devices: 50)
        let paths = try LogFixtures.writeZstdFiles([first, Array(second.prefix(40)), Array(second.dropFirst(40))], in: directory, framesPerFile: 1)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()
        try nightly(storePath, [paths[0]], configuration)
        let queue = try DatabaseQueue(path: storePath)
        try queue.write { db in
            let whole = try JSONEncoder().encode(try StoredCheckpoint.load(db))
            try db.execute(sql: "DELETE FROM checkpoint_sessions")
            try db.execute(sql: "DELETE FROM checkpoint_devices")
            try db.execute(sql: "UPDATE engine_checkpoint SET state = ?", arguments: [whole])
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2'")
        }
        try queue.close()

        let (middle, _) = try nightly(storePath, [paths[1]], configuration)
        #expect(middle.openSessions == 50)
        #expect(try Self.numbers(storePath, ["SELECT length(state) FROM engine_checkpoint", "SELECT COUNT(*) FROM checkpoint_sessions"]) == [0, 50])
        let migrations = try ResultsStore(readingAt: storePath).read {
            try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(migrations == StoreMigrations.identifiers.sorted())
        try nightly(storePath, [paths[2]], closeOpen: true, configuration)
        #expect(try storeTables(storePath) == analyzeTables(paths, configuration))
    }
}
