/// One device's stream (SPEC §2 "Device clocks"): its clock and the sessions of it still open.
///
/// Sessions close only on their own device's clock, right after an accepted event of that device, so
/// the engine looks at a device's sessions only after that device's events, and only once the clock
/// reaches `closingBound`, the smallest of its sessions' closing keys. The sessions are a binary
/// min-heap by key; a session's key is never later than the first clock at which it closes. A key goes
/// stale (early) as the session accepts events and its newest `ts` grows; it is set exactly again when
/// the clock reaches it, so each session is looked at about once per `session_gap_ms` of its device's
/// time and once when it closes, at O(log n) each, however many sessions the device has open (all the
/// sessions of an app that sends no `device` share one stream). An earlier `session.end` lowers a key
/// at once.
///
/// Noncopyable, in memory the engine allocates and frees (as `OpenSession`), reached through a plain
/// pointer from each of its sessions.
struct DeviceStream: ~Copyable {
    /// The `device` of the first event read of each of its sessions (empty when that event had none).
    let key: CompactText
    /// `ts` of the device's most recently accepted event: the latest read, not the largest.
    var clock: Int64
    /// Open sessions of the device: a binary min-heap by `OpenSession.closingKey`, each session knowing
    /// its place (`heapIndex`).
    private(set) var sessions: [UnsafeMutablePointer<OpenSession>] = []
    /// The smallest closing key: a clock at or past which some session may close; `.max` when none can.
    private(set) var closingBound: Int64 = .max
    /// Whole runs in a row in which the device sent no accepted event (nightly's `idle_runs`), as of
    /// the run that restored it.
    var idleRuns = 0
    /// Whether the device had an accepted event in this engine's run.
    var acceptedInThisRun = false
    /// The engine's count of accepted events (`IngestStatistics.events`) at the device's latest
    /// accepted event: how the engine tells that a device has gone quiet (`SessionEngine+Parking`).
    var lastSpoke: Int64 = 0
    /// How many times in this run the device was parked and woke again: each doubles the quiet it
    /// needs before it is parked again (`SessionEngine.quietThreshold(for:)`).
    var wakes: UInt8 = 0
    /// The engine's count of accepted events when the device joined the engine's queue of devices to
    /// look at for quiet, and its neighbours there (older, newer): a device is looked at again once
    /// `SessionEngine.quietAfterEvents` events have been accepted since.
    var queuedAt: Int64 = 0
    var queuedBefore: UnsafeMutablePointer<DeviceStream>?
    var queuedAfter: UnsafeMutablePointer<DeviceStream>?

    init(key: CompactText, clock: Int64) {
        self.key = key
        self.clock = clock
    }

    /// The session whose key is smallest.
    var first: UnsafeMutablePointer<OpenSession>? { sessions.first }

    mutating func insert(_ session: UnsafeMutablePointer<OpenSession>) {
        session.pointee.heapIndex = sessions.count
        sessions.append(session)
        siftUp(from: sessions.count - 1)
        closingBound = sessions[0].pointee.closingKey
    }

    mutating func remove(_ session: UnsafeMutablePointer<OpenSession>) {
        let index = session.pointee.heapIndex
        guard index >= 0, index < sessions.count, sessions[index] == session else { return }
        let last = sessions.removeLast()
        session.pointee.heapIndex = -1
        if index < sessions.count {
            sessions[index] = last
            last.pointee.heapIndex = index
            siftDown(from: index)
            siftUp(from: last.pointee.heapIndex)
        }
        closingBound = sessions.first?.pointee.closingKey ?? .max
    }

    /// Gives `session` (one of the device's) a new key and restores the heap's order.
    mutating func rekey(_ session: UnsafeMutablePointer<OpenSession>, to key: Int64) {
        let earlier = key < session.pointee.closingKey
        session.pointee.closingKey = key
        // Taken off the heap to be closed (a report handler fed it an event meanwhile): it closes anyway.
        guard session.pointee.heapIndex >= 0 else { return }
        if earlier { siftUp(from: session.pointee.heapIndex) } else { siftDown(from: session.pointee.heapIndex) }
        closingBound = sessions[0].pointee.closingKey
    }

    private mutating func siftUp(from start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard sessions[index].pointee.closingKey < sessions[parent].pointee.closingKey else { return }
            swapAt(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < sessions.count else { return }
            let right = left + 1
            var smallest = left
            if right < sessions.count, sessions[right].pointee.closingKey < sessions[left].pointee.closingKey { smallest = right }
            guard sessions[smallest].pointee.closingKey < sessions[index].pointee.closingKey else { return }
            swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        sessions.swapAt(a, b)
        sessions[a].pointee.heapIndex = a
        sessions[b].pointee.heapIndex = b
    }

    /// A new device stream in memory of its own; the engine frees it with `free()` exactly once.
    static func make(_ device: consuming DeviceStream) -> UnsafeMutablePointer<DeviceStream> {
        let slot = UnsafeMutablePointer<DeviceStream>.allocate(capacity: 1)
        slot.initialize(to: device)
        return slot
    }
}

extension UnsafeMutablePointer where Pointee == DeviceStream {
    /// Destroys the device stream `DeviceStream.make` made and frees its memory.
    func free() {
        deinitialize(count: 1)
        deallocate()
    }
}

extension OpenSession {
    /// SPEC §2 closing rules (a) and (b) at the device clock `clock`.
    @inline(__always)
    func closes(atClock clock: Int64, maxLateness: Int64, sessionGap: Int64) -> Bool {
        if let end = endTs, clock >= end.plus(maxLateness) { return true }
        return clock > newestTs.plus(sessionGap)
    }

    /// The first clock at which `closes(atClock:…)` holds (`.max` when only `.max` could).
    @inline(__always)
    func closingClock(maxLateness: Int64, sessionGap: Int64) -> Int64 {
        let gapReached = newestTs.plus(sessionGap)
        let byGap = gapReached == .max ? .max : gapReached + 1
        guard let end = endTs else { return byGap }
        return Swift.min(end.plus(maxLateness), byGap)
    }
}
