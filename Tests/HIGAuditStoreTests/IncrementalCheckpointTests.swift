import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// A night rewrites only the checkpoint rows of the sessions it changed (issue 46): many open sessions
/// checkpointed and resumed over several nights, some continuing, the others idle until `idle_runs`
/// closes them, give the tables of one `analyze` over every night.
@Suite struct IncrementalCheckpointTests {
    static let devices = 800

    /// Night 1 starts one session on every device; on night n (2...4) the devices whose index is a
    /// multiple of 2^(n-1) send one more event; night 5 ends the sessions still open. Every event is a
    /// few seconds after the device's last, so no session closes by its gap.
    static func nights() -> [[String]] {
        let start: Int64 = 1_795_197_600_000
        var nights: [[String]] = []
        for night in 1...5 {
            var lines: [String] = []
            for device in 0..<devices {
                let ts = start + Int64(night) * 5_000 + Int64(device)
                let common = #""session":"s-\#(device)","device":"d-\#(device)","app_version":"5.2""#
                if night == 1 {
                    lines.append(#"{"ts":\#(ts),\#(common),"type":"session.start","screen":"home"}"#)
                    lines.append(#"{"ts":\#(ts + 1),\#(common),"type":"haptic","kind":"impact.light"}"#)
                } else if night < 5, device % (1 << (night - 1)) == 0 {
                    lines.append(#"{"ts":\#(ts),\#(common),"type":"haptic","kind":"selection","screen":"n\#(night)"}"#)
                } else if night == 5, device % 8 == 0 {
                    lines.append(#"{"ts":\#(ts),\#(common),"type":"session.end"}"#)
                }
            }
            nights.append(lines)
        }
        return nights
    }

    static func storedSessions(_ store: String) throws -> [String: Data] {
        try ResultsStore(readingAt: store).read { db in
            var states: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT session, state FROM checkpoint_sessions") {
                states[row["session"]] = row["state"]
            }
            return states
        }
    }

    @Test func onlyChangedSessionsAreRewrittenAndIdleOnesCloseAfterIdleRuns() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try LogFixtures.writeZstdFiles(Self.nights(), in: directory, framesPerFile: 1)
        let store = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration(idleRuns: 2)

        // Written: every session on night 1, then those that received an event. Open: the devices idle
        // for two runs in a row close at the end of the second (the odd ones on night 3, those of
        // index 2 mod 4 on night 4).
        let expectations: [(written: Int, open: Int)] = [(800, 800), (400, 800), (200, 400), (100, 200)]
        var previous: [String: Data] = [:]
        for (index, expected) in expectations.enumerated() {
            let (outcome, _) = try nightly(store, [paths[index]], configuration)
            #expect(outcome.checkpointSessionsWritten == expected.written, "night \(index + 1)")
            #expect(outcome.openSessions == expected.open, "night \(index + 1)")
            let stored = try Self.storedSessions(store)
            #expect(stored.count == expected.open, "night \(index + 1)")
            // A session that received nothing keeps its row as it was.
            let changed = index == 0 ? 0 : 1 << index
            for (session, state) in stored where index > 0 {
                let device = Int(session.dropFirst(2))!
                if device % changed != 0 { #expect(state == previous[session], "\(session) on night \(index + 1)") }
            }
            previous = stored
        }
        let (last, _) = try nightly(store, [paths[4]], closeOpen: true, configuration)
        #expect(last.openSessions == 0 && last.checkpointSessionsWritten == 0)
        #expect(try Self.storedSessions(store).isEmpty)
        #expect(try storeTables(store) == analyzeTables(paths, configuration))
    }

    /// A row the engine did not restore (a table edited by hand) does not outlive the next run.
    @Test func aRowOfNoOpenSessionIsRemovedByTheNextRun() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try LogFixtures.writeZstdFiles(Array(Self.nights().prefix(2)), in: directory, framesPerFile: 1)
        let store = directory.appendingPathComponent("store.sqlite").path
        try nightly(store, [paths[0]], AuditConfiguration())
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "DELETE FROM checkpoint_devices WHERE device = 'd-1'")
            try db.execute(sql: "UPDATE checkpoint_sessions SET session = 'no-such-session' WHERE session = 's-1'")
        }
        let (outcome, _) = try nightly(store, [paths[1]], AuditConfiguration())
        let stored = try Self.storedSessions(store)
        #expect(stored.count == outcome.openSessions)
        #expect(stored["no-such-session"] == nil)
    }
}
