import Foundation
import Testing

/// `merge` of some of a split run's parts, and every reader of such a store, say which shards are
/// missing: otherwise every answer covers part of the sessions with nothing to show it.
@Suite struct IncompleteShardsTests {
    @Test func mergeAndEveryReaderNameTheMissingShard() throws {
        let fixtures = try ExampleFixtures.url()
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ arguments: [String]) throws -> HigAuditBinary.Result {
            try HigAuditBinary.shell([HigAuditBinary.executable.path] + arguments, workingDirectory: directory)
        }
        let logs = fixtures.appendingPathComponent("uploads/2026-11-20").path
        for shard in 0..<2 {
            let made = try run(["nightly", "--store", "part-\(shard).sqlite", "--close-open", "--shard", "\(shard)/2", "--quiet", logs])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let half = try run(["merge", "--store", "merged.sqlite", "part-0.sqlite"])
        #expect(half.status == 3, "\(half.stderr)")
        #expect(half.stderr.contains("merged.sqlite is missing shard 1/2"), "\(half.stderr)")
        let quietHalf = try run(["merge", "--store", "merged.sqlite", "part-0.sqlite", "--quiet"])
        #expect(quietHalf.status == 3 && quietHalf.stderr.isEmpty)

        for reader in [
            ["query", "--store", "merged.sqlite"], ["export", "--store", "merged.sqlite", "--out", "exported"],
            ["compare", "--store", "merged.sqlite", "--base-day", "2026-11-19", "--head-day", "2026-11-20"],
            ["dashboard", "--store", "merged.sqlite", "--out", "page"],
        ] {
            let result = try run(reader)
            #expect(result.stderr.contains("warning: merged.sqlite is missing shard 1/2"), "\(reader[0]): \(result.stderr)")
        }

        let whole = try run(["merge", "--store", "merged.sqlite", "part-1.sqlite"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(!whole.stderr.contains("missing"))
        let query = try run(["query", "--store", "merged.sqlite"])
        #expect(query.status == 0)
        #expect(!query.stderr.contains("missing shard"), "\(query.stderr)")
    }
}
