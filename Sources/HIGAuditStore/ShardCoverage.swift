import GRDB

/// Whether a store made of the parts of a run split by device (`nightly --shard K/N`, `merge`) holds
/// every shard. A store that lacks one answers every question over part of the sessions, with nothing
/// in its tables to show it; `merge` and every reader of the store say so.
///
/// Each part records its shard and shard count (`shard_parts`). A store may hold the parts of several
/// runs, so for each count N every shard 0 to N-1 must appear as often as the most frequent one: a
/// shard that appears less often is missing from some run.
public struct ShardCoverage: Sendable, Equatable {
    /// A shard missing `times` times (from that many runs).
    public struct Missing: Sendable, Equatable, CustomStringConvertible {
        public var shard: Int
        public var shards: Int
        public var times: Int

        public var description: String { "\(shard)/\(shards)" + (times > 1 ? " (\(times) times)" : "") }
    }

    /// The shards the store should hold and does not, by shard count then shard.
    public var missing: [Missing]
    /// The parts the store holds.
    public var parts: Int

    public var isComplete: Bool { missing.isEmpty }

    /// The coverage of the store `db` reads; a store that is no part of a split run is complete.
    public static func of(_ db: Database) throws -> ShardCoverage {
        guard try db.tableExists("shard_parts") else { return ShardCoverage(missing: [], parts: 0) }
        var counts: [Int: [Int: Int]] = [:]
        var parts = 0
        for row in try Row.fetchAll(db, sql: "SELECT shard, shards, COUNT(*) FROM shard_parts GROUP BY shard, shards") {
            let shard: Int = row[0], shards: Int = row[1], count: Int = row[2]
            counts[shards, default: [:]][shard] = count
            parts += count
        }
        var missing: [Missing] = []
        for (shards, present) in counts.sorted(by: { $0.key < $1.key }) {
            let expected = present.values.max() ?? 0
            for shard in 0..<shards where (present[shard] ?? 0) < expected {
                missing.append(Missing(shard: shard, shards: shards, times: expected - (present[shard] ?? 0)))
            }
        }
        return ShardCoverage(missing: missing, parts: parts)
    }

    /// What to tell the reader of an incomplete store at `path`.
    public func warning(store path: String) -> String? {
        guard !isComplete else { return nil }
        let list = missing.map(\.description).joined(separator: ", ")
        return "\(path) is missing shard\(missing.count > 1 ? "s" : "") \(list) of a run split by device: "
            + "its tables count only the sessions of the \(parts) part\(parts == 1 ? "" : "s") it holds; "
            + "merge every part of the run into one store (hig-audit merge --store STORE PART…)"
    }
}
