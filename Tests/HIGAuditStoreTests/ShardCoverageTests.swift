import Foundation
import GRDB
import Testing
@testable import HIGAuditStore
import HIGAuditCore

/// A store made of parts of a run split by device knows which shards it lacks.
@Suite struct ShardCoverageTests {
    static func coverage(_ store: String) throws -> ShardCoverage {
        try ResultsStore(readingAt: store).read { try ShardCoverage.of($0) }
    }

    @Test func aStoreLackingAShardNamesIt() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try ShardMergeTests.files(in: directory)
        let parts = try (0..<3).map { index in
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            try ShardMergeTests.part(part, files, shard: DeviceShard(index: index, count: 3)!)
            return part
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: [parts[0], parts[2]], into: merged)
        let partial = try Self.coverage(merged)
        #expect(partial.missing == [ShardCoverage.Missing(shard: 1, shards: 3, times: 1)])
        #expect(partial.warning(store: merged)?.contains("missing shard 1/3") == true)
        #expect(try Self.coverage(parts[1]).missing.map(\.description) == ["0/3", "2/3"])
        _ = try StoreMerge.merge(parts: [parts[1]], into: merged)
        #expect(try Self.coverage(merged).isComplete)
        #expect(try Self.coverage(merged).warning(store: merged) == nil)
    }

    @Test func aStoreOfOneRunIsComplete() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        _ = try nightly(store, try ShardMergeTests.files(in: directory), closeOpen: true)
        #expect(try Self.coverage(store) == ShardCoverage(missing: [], parts: 0))
    }
}
