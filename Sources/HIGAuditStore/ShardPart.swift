import Foundation
import GRDB
import HIGAuditCore

/// What makes a nightly run one shard of a run split by device (`nightly --shard K/N`): the shard, and
/// which inputs' file counters it counts.
///
/// A shard processes only its sessions (`SessionEngine.shard`) but may read files that other shards
/// read too; the counters that belong to a file rather than to sessions (files, bytes, frames, lines,
/// malformed lines, unknown types, skipped bytes, truncated files, faults) are counted by exactly one
/// of them, so that the merged store counts every file once.
public struct ShardPart: Sendable, Equatable {
    public var shard: DeviceShard
    /// The display paths of the inputs whose file counters this shard counts; nil when every shard
    /// reads every input, and shard 0 counts them all.
    public var countedFiles: Set<String>?

    public init(shard: DeviceShard, countedFiles: Set<String>? = nil) {
        self.shard = shard
        self.countedFiles = countedFiles
    }

    /// Whether the file counters of the input named `displayPath` are this shard's to count.
    public func countsFile(_ displayPath: String) -> Bool {
        countedFiles?.contains(displayPath) ?? (shard.index == 0)
    }

    /// The table a partial store names itself in, one row per part (a merged store keeps the rows of
    /// every part merged into it): which shard, and the configuration its results depend on.
    static let table = """
        CREATE TABLE IF NOT EXISTS shard_parts (
            part_id TEXT PRIMARY KEY,
            shard INTEGER NOT NULL,
            shards INTEGER NOT NULL,
            configuration TEXT NOT NULL
        ) WITHOUT ROWID
        """

    /// Records this part in the store of its run, under a new random id that tells this part from a
    /// retried run of the same shard.
    func record(_ db: Database, configuration: AuditConfiguration) throws {
        try db.execute(sql: Self.table)
        try db.execute(
            sql: "INSERT INTO shard_parts (part_id, shard, shards, configuration) VALUES (?, ?, ?, ?)",
            arguments: [UUID().uuidString.lowercased(), shard.index, shard.count, configuration.canonicalText])
    }
}
