import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// `query --run N --table ingest`: the ingest counters are run N's, and so is `open_sessions`, the
/// sessions that run left open, not those open in the store now.
@Suite struct StoredOpenSessionsByRunTests {
    @Test func openSessionsAreThoseTheChosenRunLeft() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        let first = try LogFixtures.writeZstdFiles(
            LogFixtures.chunks(LogFixtures.stream(seed: 41, sessions: 40), count: 2), in: directory)
        let (night, _) = try nightly(path, first)
        #expect(night.openSessions > 0, "the first night leaves sessions open")
        let later = directory.appendingPathComponent("later")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try nightly(path, try LogFixtures.writeZstdFiles(
            LogFixtures.chunks(LogFixtures.stream(seed: 42, sessions: 10), count: 1), in: later), closeOpen: true)

        let store = try ResultsStore(readingAt: path)
        func openSessions(_ runs: Set<Int64>) throws -> Int {
            try store.read { try StoredTables.load($0, selection: StoreSelection(runs: runs)) }.openSessions
        }
        #expect(try openSessions([1]) == night.openSessions)
        #expect(try openSessions([2]) == 0)
        #expect(try openSessions([1, 2]) == 0, "the last of the runs chosen")
        #expect(try openSessions([]) == 0, "the store now")
    }
}
