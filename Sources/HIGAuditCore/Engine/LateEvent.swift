/// Why an event was not accepted although it decoded fine (SPEC §2 buckets decided by the engine).
public enum EventDisposition: Sendable, Equatable {
    case accepted
    /// An event whose `id` was already seen on an accepted event of its (open) session.
    case duplicate
    case late(LateReason)
    /// An event of a session that another shard processes (`SessionEngine.shard`): not counted here.
    case otherShard
}

/// Why an event is late, in words a person can act on.
public enum LateReason: Sendable, Equatable, CustomStringConvertible {
    /// Its `ts` is older than the session's newest `ts` minus `max_lateness_ms`.
    case tooOld(sessionNewestTs: Int64, maxLatenessMs: Int64)
    /// Its session had already closed (after `session.end`, a gap, …). Events of a closed session are
    /// late even when they repeat an id: the session's ids are released with it.
    case sessionClosed
    /// Its `ts` is older than an event of its session that went to the rules before its time, because
    /// the session held more than `max_pending_events` events waiting to be put in order.
    case olderThanReleasedEarly(releasedTs: Int64, maxPendingEvents: Int)

    public var description: String {
        switch self {
        case let .tooOld(newest, lateness):
            "ts is more than \(lateness) ms older than the session's newest event (\(TimestampFormatter.rfc3339(newest)))"
        case .sessionClosed:
            "its session had already closed"
        case let .olderThanReleasedEarly(released, limit):
            "ts is older than an event of its session (\(TimestampFormatter.rfc3339(released))) that went to the rules "
                + "early, when the session held more than \(limit) events waiting to be put in order (max_pending_events)"
        }
    }
}

extension LateReason {
    /// What a diagnostic says about a late event: its time, as the tables print times, and why.
    public func message(forEventAt ts: Int64) -> String {
        "event at \(TimestampFormatter.rfc3339(ts)): \(description)"
    }
}
