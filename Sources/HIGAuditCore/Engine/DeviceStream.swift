/// One device's stream (SPEC §2 "Device clocks"): its clock and the sessions of it still open.
///
/// Sessions close only on their own device's clock, right after an accepted event of that device, so
/// the engine looks at a device's sessions only after that device's events, and only once the clock
/// reaches `closingBound`. The bound is never later than the earliest clock at which one of the
/// sessions closes: a session's closing clock only moves later as it accepts events (its newest `ts`
/// grows), except when it accepts an earlier `session.end`, which lowers the bound at once. A look that
/// closes nothing sets the bound exactly again, so a device's sessions are scanned about once per
/// closing, not once per event.
///
/// Noncopyable, in memory the engine allocates and frees (as `OpenSession`), reached through a plain
/// pointer from each of its sessions.
struct DeviceStream: ~Copyable {
    /// The `device` of the first event read of each of its sessions (empty when that event had none).
    let key: CompactText
    /// `ts` of the device's most recently accepted event: the latest read, not the largest.
    var clock: Int64
    /// Open sessions of the device, in the order they opened.
    var sessions: [UnsafeMutablePointer<OpenSession>] = []
    /// A clock at or past which some session may close; `.max` when none can.
    var closingBound: Int64 = .max
    /// Whole runs in a row in which the device sent no accepted event (nightly's `idle_runs`), as of
    /// the run that restored it.
    var idleRuns = 0
    /// Whether the device had an accepted event in this engine's run.
    var acceptedInThisRun = false

    init(key: CompactText, clock: Int64) {
        self.key = key
        self.clock = clock
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

    /// A clock no later than the first at which `closes(atClock:…)` holds.
    @inline(__always)
    func closingBound(maxLateness: Int64, sessionGap: Int64) -> Int64 {
        let byGap = newestTs.plus(sessionGap)
        guard let end = endTs else { return byGap }
        return Swift.min(end.plus(maxLateness), byGap)
    }
}
