import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// The promise of issue 5: running night by night over batches of files, the last run with
/// `--close-open`, gives exactly the tables of one `analyze` over all of them.
@Suite struct NightlyEquivalenceTests {
    @Test(arguments: [(seed: 1, files: 6, nights: [2, 1, 3]), (seed: 2, files: 5, nights: [1, 1, 1, 1, 1]), (seed: 3, files: 4, nights: [4])])
    func nightByNightEqualsOneAnalyze(seed: Int, files: Int, nights: [Int]) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = LogFixtures.stream(seed: UInt64(seed))
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: files), in: directory)
        let storePath = directory.appendingPathComponent("store.sqlite").path

        var start = 0
        var openAtSomeBoundary = false
        for (index, count) in nights.enumerated() {
            let last = index == nights.count - 1
            let (outcome, _) = try nightly(storePath, Array(paths[start..<start + count]), closeOpen: last)
            if !last, outcome.openSessions > 0 { openAtSomeBoundary = true }
            if last { #expect(outcome.openSessions == 0) }
            start += count
        }
        if nights.count > 1 { #expect(openAtSomeBoundary, "no session crossed a batch boundary") }

        let expected = try analyzeTables(paths, StoreTestConfiguration.standard)
        let actual = try storeTables(storePath)
        for name in expected.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
        #expect((expected[.violations]?.split(separator: "\r\n").count ?? 0) > 20)
    }

    /// Closed sessions' checkpoint rows are deleted in batches (`CheckpointWriter.deleteBatch`, so that
    /// a night closing many restored sessions does not hold the checkpoint's pages dirty at once); in
    /// batches of two, many run inside each night, the checkpoint holds exactly the sessions left open
    /// after each, and the nights still equal one `analyze`.
    @Test(arguments: [1, 2, 3])
    func checkpointRowsDeletedInSmallBatchesLeaveTheSameResults(batch: Int) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(LogFixtures.stream(seed: 4), count: 5), in: directory)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        var batchesFilled = 0
        for night in 0..<paths.count {
            let last = night == paths.count - 1
            let (outcome, _) = try nightly(storePath, [paths[night]], closeOpen: last, checkpointDeleteBatch: batch)
            let rows = try ResultsStore(writingAt: storePath).read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM checkpoint_sessions") ?? -1
            }
            #expect(rows == outcome.openSessions, "night \(night)")
            if !last, outcome.sessionsClosed > batch { batchesFilled += 1 }
        }
        #expect(batchesFilled >= 2, "too few nights closed more sessions than a batch")
        let expected = try analyzeTables(paths, StoreTestConfiguration.standard)
        let actual = try storeTables(storePath)
        for name in expected.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
    }
}
