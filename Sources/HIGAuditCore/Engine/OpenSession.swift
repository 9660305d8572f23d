/// Everything the engine holds for a session that has not closed yet.
///
/// A noncopyable struct in memory the engine allocates when the session opens and frees when it
/// closes (`make`, `free`), reached through a plain pointer, so that handing a session to the code that
/// accepts an event costs no reference counting. Its parts that own memory (`SeenIds`,
/// `ReorderBuffer`) are noncopyable structs inside it for the same reason; `SessionContext` and
/// `RuleStates` are `Codable` values.
struct OpenSession: ~Copyable {
    let id: String
    /// `id` as events carry it, which the engine compares and looks sessions up by.
    let key: CompactText
    /// The device whose clock closes the session (SPEC §2): that of the session's first event read.
    let device: UnsafeMutablePointer<DeviceStream>
    /// The screen the context's `screen` was last set from, so that an event showing the same screen
    /// costs a comparison of two words (see `SessionContext.prepare`). Not checkpointed: after a
    /// restart the first event with a screen sets it again, to the same effect.
    var screenKey: CompactText?
    /// Newest accepted `ts` of the session (lateness and gap closing are measured from it).
    var newestTs: Int64
    /// Earliest accepted `session.end` `ts`, if any (SPEC §2 closing rule (a)).
    var endTs: Int64?
    /// The newest `ts` among events that went to the rules early, past `max_pending_events`
    /// (`.min` while none has): an event older than it is late.
    var releasedEarlyTs: Int64 = .min
    /// Never later than the first clock of its device at which the session closes (see `DeviceStream`).
    var closingKey: Int64 = .max
    /// Its place in its device's heap; -1 once removed.
    var heapIndex = -1
    /// The ids of the session's accepted events, for duplicate detection.
    var seenIds: SeenIds
    var buffer: ReorderBuffer
    var context: SessionContext
    var ruleStates: RuleStates

    init(
        key: CompactText, device: UnsafeMutablePointer<DeviceStream>, newestTs: Int64, ruleStates: RuleStates,
        seenIds: consuming SeenIds = SeenIds(), buffer: consuming ReorderBuffer = ReorderBuffer()
    ) {
        self.key = key
        self.device = device
        self.seenIds = seenIds
        self.buffer = buffer
        let id = key.string
        self.id = id
        self.newestTs = newestTs
        self.context = SessionContext(session: id)
        self.ruleStates = ruleStates
    }

    /// A new session in memory of its own; the engine frees it with `free()` exactly once.
    static func make(_ session: consuming OpenSession) -> UnsafeMutablePointer<OpenSession> {
        let slot = UnsafeMutablePointer<OpenSession>.allocate(capacity: 1)
        slot.initialize(to: session)
        return slot
    }

    /// Session-id order: `String` order, and between two spellings of one string (canonically
    /// equivalent, different bytes: two sessions, see `CompactText`) their bytes' order, so that the
    /// order of closing never depends on the dictionary's.
    static func idOrder(_ a: UnsafeMutablePointer<OpenSession>, _ b: UnsafeMutablePointer<OpenSession>) -> Bool {
        if let ordered = a.pointee.key.asciiIdOrder(before: b.pointee.key) { return ordered }
        let first = a.pointee.id
        let second = b.pointee.id
        if first != second { return first < second }
        return first.utf8.lexicographicallyPrecedes(second.utf8)
    }
}

extension UnsafeMutablePointer where Pointee == OpenSession {
    /// Destroys the session `OpenSession.make` made and frees its memory.
    func free() {
        deinitialize(count: 1)
        deallocate()
    }
}
