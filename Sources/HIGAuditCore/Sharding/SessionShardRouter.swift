/// Sends every event of a session to the shard of the device of the session's first event read
/// (SPEC §2 "Device clocks"), whatever device its later events name.
///
/// Routing each event by its own `device` would split a session whose events disagree on the device,
/// and give its later events to a shard that never saw it open. The router remembers each session's
/// shard from its first event on, as the engine remembers closed sessions: memory grows with the
/// number of sessions seen, at a few bytes each.
public struct SessionShardRouter<Session: Hashable> {
    public let count: Int
    private var shards: [Session: Int32] = [:]

    /// `count` is clamped to 1...`DeviceShard.maximumCount`, so every shard number fits its `Int32`.
    public init(count: Int) {
        self.count = min(max(count, 1), DeviceShard.maximumCount)
    }

    /// The session's shard: the one of `firstDevice` the first time the session is seen (`firstDevice`
    /// is not asked again), the remembered one after.
    public mutating func shard(of session: Session, firstDevice: @autoclosure () -> String) -> Int {
        if let known = shards[session] { return Int(known) }
        let shard = DeviceShard.index(ofDevice: firstDevice(), count: count)
        shards[session] = Int32(shard)
        return shard
    }

    /// Sessions seen so far.
    public var sessionCount: Int { shards.count }
}
