/// An open session of a device that has gone quiet, packed small (`SessionEngine+Parking`).
///
/// A quiet device's last session usually waits out its lateness window, or the whole input, with a few
/// events in its reorder buffer: about 3 KiB as an `OpenSession` (the buffer's slots, the rule states,
/// the context), which a million quiet devices multiply into gigabytes. Parked, it is its bytes (ids,
/// bounds and waiting events, `PackedWriter`) and, only when the rules have seen some of its events or
/// it has recorded ids, its state as values (`ParkedState`).
///
/// Nothing about the session changes by parking: waking it gives back the same bounds, the same waiting
/// events in the same order, the same ids, context and rule states (`ParkingTests`).
final class ParkedSession {
    /// In order: the session key, the device key, `newestTs`, `endTs` (a flag, then its distance from
    /// `newestTs`), `releasedEarlyTs`, the accepted events, the waiting events (a count, then each,
    /// `PackedWriter.event`).
    let bytes: [UInt8]
    let state: ParkedState?
    /// The device's next parked session (`ParkedDevice.sessions`).
    var next: ParkedSession?

    init(bytes: [UInt8], state: ParkedState?) {
        self.bytes = bytes
        self.state = state
    }

    /// The session key and the device key, the first two things in the bytes.
    var keys: (session: CompactText, device: CompactText) {
        var reader = PackedReader(bytes)
        let session = reader.text()
        return (session, reader.text())
    }

    /// Everything in the bytes (a checkpoint's view of a parked session).
    func unpacked() -> UnpackedSession {
        var buffer = ReorderBuffer()
        var saved = unpacked(into: &buffer)
        saved.pendingEvents = buffer.pending
        return saved
    }

    /// Everything in the bytes but the waiting events, which go into `buffer` (empty) in release order
    /// as they are read, so that waking a session moves each into its reorder buffer once instead of
    /// gathering them in an array to copy from. `pendingEvents` is left empty.
    func unpacked(into buffer: inout ReorderBuffer) -> UnpackedSession {
        var reader = PackedReader(bytes, heldAside: state?.heldAside ?? [])
        let session = reader.text()
        let device = reader.text()
        let newestTs = reader.signed()
        let endTs: Int64? = reader.bool() ? newestTs &- reader.signed() : nil
        let releasedEarlyTs = reader.signed()
        let acceptedEvents = reader.count()
        let pending = reader.count()
        buffer.reserveCapacity(pending)
        for _ in 0..<pending { buffer.insert(reader.event(session: session, newestTs: newestTs)) }
        precondition(reader.isAtEnd, "a parked session has bytes left over")
        return UnpackedSession(
            key: session, device: device, newestTs: newestTs, endTs: endTs, releasedEarlyTs: releasedEarlyTs,
            acceptedEvents: acceptedEvents,
            pendingEvents: [])
    }
}

/// A parked session's bytes, read.
struct UnpackedSession {
    var key: CompactText
    var device: CompactText
    var newestTs: Int64
    var endTs: Int64?
    var releasedEarlyTs: Int64
    var acceptedEvents: Int
    /// In release order.
    var pendingEvents: [Event]
}

/// The part of a parked session that a new session does not have, kept as values: the ids it has
/// recorded, the context and rule states once the rules have seen one of its events, the screen the
/// context was last set from, and settings its waiting events refer to (`PackedWriter.heldAside`).
///
/// A class so that a parked session without it costs one nil reference; `SeenIds` owns raw memory
/// and moves in and out whole.
final class ParkedState {
    var seenIds: SeenIds
    let context: SessionContext
    let ruleStates: RuleStates
    let screenKey: CompactText?
    let heldAside: [SessionSettings]

    init(
        seenIds: consuming SeenIds, context: SessionContext, ruleStates: RuleStates, screenKey: CompactText?,
        heldAside: [SessionSettings]
    ) {
        self.seenIds = seenIds
        self.context = context
        self.ruleStates = ruleStates
        self.screenKey = screenKey
        self.heldAside = heldAside
    }

    /// Takes the ids out, leaving an empty set: the state is dropped right after.
    func takeSeenIds() -> SeenIds {
        var taken = SeenIds()
        swap(&taken, &seenIds)
        return taken
    }
}

/// A device whose open sessions are all parked: its clock and run counts, and its sessions.
struct ParkedDevice {
    var clock: Int64
    var idleRuns: Int
    var acceptedInThisRun: Bool
    /// `DeviceStream.wakes` when it was parked (0 for a device restored from a checkpoint).
    var wakes: UInt8 = 0
    /// A chain through `ParkedSession.next`. A session closed while parked (at the end of input, or
    /// as idle) stays in the chain and is skipped: it is no longer in `SessionEngine.parkedSessions`.
    var sessions: ParkedSession?
}
