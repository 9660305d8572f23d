/// One of `count` shards of a run split by device (SPEC §2 "Device clocks": devices are independent
/// streams, so each device's sessions can be processed apart from the others' and the results merged).
///
/// A device goes to shard `FNV-1a 64 of its UTF-8 bytes mod count`; a session whose first event has no
/// `device` counts as the device `""`. The hash is fixed and documented (Pipelines/spark/README.md)
/// so that a planner outside the tool (the Spark job) computes the same shard as the tool.
public struct DeviceShard: Sendable, Hashable, CustomStringConvertible {
    /// 0-based, below `count`.
    public let index: Int
    public let count: Int

    /// The most shards a run may be split into: far more than any cluster runs tasks, and small
    /// enough that a shard number fits every place that keeps one (32-bit routing tables, SQLite).
    public static let maximumCount = 1 << 20

    public init?(index: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N` as the command line spells it.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the device's sessions belong to this shard.
    public func owns(device: String) -> Bool {
        Self.index(ofDevice: device, count: count) == index
    }

    /// The shard of `device` among `count` shards.
    public static func index(ofDevice device: String, count: Int) -> Int {
        Int(hash(device) % UInt64(max(count, 1)))
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes.
    public static func hash(_ device: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in device.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
