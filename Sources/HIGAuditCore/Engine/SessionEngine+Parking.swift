/// Quiet devices' sessions wait packed (issue 46: memory that does not grow with every device seen).
///
/// SPEC §2 keeps a session open until its device's clock passes its closing bounds or input ends, so
/// a device that sends one session and goes quiet holds it to the end of input. What changes here is
/// only how such a session waits, never when it closes or what the rules see:
///
/// - **Trigger.** Every device with open sessions is in a queue in the order it joined it. Once
///   `quietAfterEvents` events have been accepted since a device joined, it is looked at: if it has
///   had no accepted event for that many events of the whole input, all its open sessions are parked
///   (`ParkedSession`) and the device with them (`ParkedDevice`: its clock and run counts); otherwise
///   it joins the queue's end again. Each device is looked at most once per `quietAfterEvents`
///   accepted events, so the check costs a comparison per event.
/// - **Room kept awake.** While no more than `keptAwakeSessions` sessions are in memory, no device is
///   parked, however quiet: parking is for memory, and that many unpacked sessions are a bounded few
///   tens of megabytes. Below that, packing a session only to unpack it when its device speaks again
///   or the input ends is all parking would do: a day of a few thousand devices, all with sessions
///   open at once, parked and unpacked them for nothing (the replay's figures: Tests/Benchmarks/README.md,
///   "Quiet devices kept awake while few sessions are in memory"). Meanwhile the queue is
///   not looked at: past the floor, the due devices are looked at in the queue's order, the quiet
///   ones parked and the others put at its end again, until the sessions in memory are back down to
///   it. A fleet of devices that each speak once, which kept more sessions than that awake within the
///   quiet threshold alone, is held at the floor: the devices looked at once it is passed have been
///   quiet long enough.
/// - **Back-off.** A device that wakes after being parked doubles the quiet it needs before it is
///   parked again (`DeviceStream.wakes`, up to `maxQuietDoublings` doublings): with thousands of
///   devices interleaved, a user's pause of a second or two mid-session outlasts `quietAfterEvents`,
///   and packing such a device at every pause costs more than keeping it. A device that never speaks
///   again, the case parking is for, is parked after the base quiet as before.
/// - **Sessions in progress.** A device with an open session that has no `session.end` yet needs
///   `inProgressQuietFactor` times that quiet: its user has most likely paused (on a field-like mix of
///   thousands of interleaved devices, most parks of such devices woke again within their session,
///   each packing and unpacking every waiting event), while a device whose sessions have all ended
///   only waits out its lateness window, and is parked as soon as before. One-session devices that
///   end their sessions (`fleet.sh`) are parked exactly as often; ones that never send `session.end`
///   stay awake that many times longer, a bounded few tens of megabytes more.
/// - **Waking.** An event of a parked session, or the first event of a new session of a parked
///   device, wakes the device with all its sessions before the event is classified, exactly as they
///   were. A parked device's clock cannot move (only its own accepted events move it), so no parked
///   session can be due to close.
/// - **End of input, idle runs.** `finish()` and `closeSessionsOfIdleDevices(after:)` close parked
///   sessions one at a time in session-id order, unpacking each only to close it, so closing a million
///   parked sessions never holds them all unpacked.
/// - **Checkpoints** list parked sessions and devices as if they were unpacked.
extension SessionEngine {
    /// The default `quietAfterEvents`: some ten thousand unpacked sessions at most stay awake only
    /// because they spoke recently, a few tens of megabytes.
    static let defaultQuietAfterEvents: Int64 = 10_000

    /// The default `keptAwakeSessions`: a few KiB each with their waiting events, so a bounded few
    /// tens of megabytes; fewer than a fleet of one-session devices keeps awake within the default
    /// quiet threshold alone (`fleet.sh`), so that such a fleet holds no more memory than by quiet
    /// alone (figures: Tests/Benchmarks/README.md, "Quiet devices kept awake…").
    static let defaultKeptAwakeSessions = 4_096

    /// How many times a device's quiet threshold doubles at most (`DeviceStream.wakes`): a device that
    /// keeps waking stays awake until it has been quiet 64 times the base threshold.
    static let maxQuietDoublings: UInt8 = 6

    /// How many times the quiet a device with a session still in progress (no `session.end` yet)
    /// needs, against a device whose open sessions have all ended (see the type's comment).
    static let inProgressQuietFactor: Int64 = 4

    /// The accepted events of the whole input a device must have been quiet for to be parked: the base
    /// threshold doubled for each time it was parked and woke again, and times `inProgressQuietFactor`
    /// while one of its sessions has no end, saturating (0 stays 0: tests park after every event).
    func quietThreshold(for device: UnsafePointer<DeviceStream>) -> Int64 {
        var factor = Int64(1) << Int64(device.pointee.wakes)
        if device.pointee.sessions.contains(where: { $0.pointee.endTs == nil }) { factor &*= Self.inProgressQuietFactor }
        guard factor > 1 else { return quietAfterEvents }
        let (scaled, overflow) = quietAfterEvents.multipliedReportingOverflow(by: factor)
        return overflow ? .max : scaled
    }

    /// Parks the quiet devices among those due while more than `keptAwakeSessions` sessions are in
    /// memory: called after an accepted event (`parkQuietDevicesIfDue`), never while sessions are being
    /// closed (a closing loop may hold their memory). A due device not parked joins the queue's end again.
    func parkQuietDevices() {
        guard closingLoops == 0 else { return }
        let now = statistics.events
        while open.count > keptAwakeSessions, let device = quietQueueFirst,
              now &- device.pointee.queuedAt >= quietAfterEvents {
            dequeue(device)
            if now &- device.pointee.lastSpoke >= quietThreshold(for: device) {
                park(device)
            } else {
                enqueue(device)
            }
        }
    }

    /// Puts a device at the end of the queue of devices to look at for quiet.
    func enqueue(_ device: UnsafeMutablePointer<DeviceStream>) {
        device.pointee.queuedAt = statistics.events
        device.pointee.queuedAfter = nil
        device.pointee.queuedBefore = quietQueueLast
        if let last = quietQueueLast { last.pointee.queuedAfter = device } else { quietQueueFirst = device }
        quietQueueLast = device
    }

    /// Takes a device out of the queue (it is parked or freed).
    func dequeue(_ device: UnsafeMutablePointer<DeviceStream>) {
        let before = device.pointee.queuedBefore
        let after = device.pointee.queuedAfter
        if let before { before.pointee.queuedAfter = after } else if quietQueueFirst == device { quietQueueFirst = after }
        if let after { after.pointee.queuedBefore = before } else if quietQueueLast == device { quietQueueLast = before }
        device.pointee.queuedBefore = nil
        device.pointee.queuedAfter = nil
    }

    /// Packs every open session of `device` and the device itself, and frees their memory.
    private func park(_ device: UnsafeMutablePointer<DeviceStream>) {
        var chain: ParkedSession?
        for session in device.pointee.sessions {
            let key = session.pointee.key
            if lastSession == session { lastSession = nil }
            open.remove(key)
            let parked = pack(session)
            parked.next = chain
            chain = parked
            parkedSessions[key] = parked
        }
        let key = device.pointee.key
        devices[key] = nil
        parkedDevices[key] = ParkedDevice(
            clock: device.pointee.clock, idleRuns: device.pointee.idleRuns,
            acceptedInThisRun: device.pointee.acceptedInThisRun, wakes: device.pointee.wakes, sessions: chain)
        devicesParked &+= 1
        device.free()
    }

    /// The session packed; its memory (and its reorder buffer's) is freed. Not taken off its device's
    /// heap: the device goes with it.
    func pack(_ session: UnsafeMutablePointer<OpenSession>) -> ParkedSession {
        var writer = PackedWriter(reservingCapacity: 64 &+ 48 &* session.pointee.buffer.count)
        let newestTs = session.pointee.newestTs
        writer.text(session.pointee.key)
        writer.text(session.pointee.device.pointee.key)
        writer.signed(newestTs)
        if let end = session.pointee.endTs {
            writer.bool(true)
            writer.signed(newestTs &- end)
        } else {
            writer.bool(false)
        }
        writer.signed(session.pointee.releasedEarlyTs)
        writer.count(session.pointee.context.acceptedEvents)
        writer.count(session.pointee.buffer.count)
        session.pointee.buffer.forEachPending { writer.event(at: $0, newestTs: newestTs) }

        let moved = session.move()
        session.deallocate()
        var bare = moved.context
        bare.acceptedEvents = 0
        let state: ParkedState?
        if moved.seenIds.isEmpty, writer.heldAside.isEmpty, moved.screenKey == nil,
           bare == SessionContext(session: moved.id), moved.ruleStates == RuleStates() {
            state = nil
        } else {
            state = ParkedState(
                seenIds: moved.seenIds, context: moved.context, ruleStates: moved.ruleStates,
                screenKey: moved.screenKey, heldAside: writer.heldAside)
        }
        return ParkedSession(bytes: writer.bytes, state: state)
    }

    /// A checkpoint's session packed as `pack` would have packed it had it stayed in memory (the rule
    /// states as the checkpoint keeps them, settled, which the rules read the same).
    func pack(restored saved: SessionCheckpoint, deviceKey: CompactText) -> ParkedSession {
        var writer = PackedWriter(reservingCapacity: 64 &+ 48 &* saved.pendingEvents.count)
        let key = CompactText(saved.id)
        writer.text(key)
        writer.text(deviceKey)
        writer.signed(saved.newestTs)
        if let end = saved.endTs {
            writer.bool(true)
            writer.signed(saved.newestTs &- end)
        } else {
            writer.bool(false)
        }
        writer.signed(saved.releasedEarlyTs ?? .min)
        writer.count(saved.context.acceptedEvents)
        writer.count(saved.pendingEvents.count)
        for event in saved.pendingEvents { writer.event(event, newestTs: saved.newestTs) }
        var bare = saved.context
        bare.acceptedEvents = 0
        let state: ParkedState?
        if saved.seenIds.isEmpty, writer.heldAside.isEmpty, bare == SessionContext(session: saved.id),
           saved.ruleStates == RuleStates() {
            state = nil
        } else {
            state = ParkedState(
                seenIds: SeenIds(fingerprints: saved.seenIds), context: saved.context, ruleStates: saved.ruleStates,
                screenKey: nil, heldAside: writer.heldAside)
        }
        return ParkedSession(bytes: writer.bytes, state: state)
    }

    /// The session as it was when it was packed, in memory of its own, for `device` (not yet among the
    /// device's sessions: `adopt` puts it there).
    func unpack(_ parked: ParkedSession, device: UnsafeMutablePointer<DeviceStream>) -> UnsafeMutablePointer<OpenSession> {
        // The waiting events go straight into a buffer of their own, which the session then takes.
        var buffer = ReorderBuffer()
        let saved = parked.unpacked(into: &buffer)
        let session: UnsafeMutablePointer<OpenSession>
        if let state = parked.state {
            session = OpenSession.make(OpenSession(
                key: saved.key, device: device, newestTs: saved.newestTs, ruleStates: state.ruleStates,
                seenIds: state.takeSeenIds(), buffer: buffer))
            session.pointee.context = state.context
            session.pointee.screenKey = state.screenKey
        } else {
            session = OpenSession.make(OpenSession(
                key: saved.key, device: device, newestTs: saved.newestTs, ruleStates: RuleStates(), buffer: buffer))
            session.pointee.context.acceptedEvents = saved.acceptedEvents
        }
        session.pointee.endTs = saved.endTs
        session.pointee.releasedEarlyTs = saved.releasedEarlyTs
        return session
    }

    /// Wakes the parked device `key` with all its parked sessions; nil if it is not parked.
    @discardableResult
    func wake(device key: CompactText) -> UnsafeMutablePointer<DeviceStream>? {
        guard let parked = parkedDevices.removeValue(forKey: key) else { return nil }
        var stream = DeviceStream(key: key, clock: parked.clock)
        stream.idleRuns = parked.idleRuns
        stream.acceptedInThisRun = parked.acceptedInThisRun
        stream.wakes = min(parked.wakes &+ 1, Self.maxQuietDoublings)
        stream.lastSpoke = statistics.events
        let device = DeviceStream.make(stream)
        devices[key] = device
        enqueue(device)
        var next = parked.sessions
        while let session = next {
            next = session.next
            let sessionKey = session.keys.session
            guard let index = parkedSessions.index(forKey: sessionKey), parkedSessions.values[index] === session
            else { continue }
            parkedSessions.remove(at: index)
            let woken = unpack(session, device: device)
            open.insert(woken, for: sessionKey)
            adopt(woken)
        }
        return device
    }

    /// Closes the sessions named by `keys`, in that order, open or parked (parked ones unpacked only to
    /// be closed), skipping any no longer open. In the outermost closing loop each session's memory is
    /// freed as soon as it is reported, so that closing every parked session at the end of input holds
    /// one unpacked at a time.
    func closeInOrder(_ keys: [CompactText]) {
        closingLoops += 1
        for key in keys {
            if let parked = parkedSessions.removeValue(forKey: key) {
                // Not put in `open`: `close` takes it out of there, and nothing can reach it meanwhile.
                close(unpack(parked, device: detachedDevice))
            } else if let session = open[key] {
                close(session)
            }
            if closingLoops == 1 { freeLetGo() }
        }
        closingLoops -= 1
        if closingLoops == 0 { freeLetGo() }
        dropEmptyParkedDevices()
    }

    /// Parked devices whose sessions have all closed hold nothing.
    func dropEmptyParkedDevices() {
        guard !parkedDevices.isEmpty else { return }
        guard !parkedSessions.isEmpty else {
            parkedDevices.removeAll()
            return
        }
        parkedDevices = parkedDevices.filter { _, device in
            var next = device.sessions
            while let session = next {
                if parkedSessions[session.keys.session] === session { return true }
                next = session.next
            }
            return false
        }
    }

    /// Session ids in the order sessions that close together close (`OpenSession.idOrder`).
    static func idOrder(_ a: (id: String, key: CompactText), _ b: (id: String, key: CompactText)) -> Bool {
        if let ordered = a.key.asciiIdOrder(before: b.key) { return ordered }
        if a.id != b.id { return a.id < b.id }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// The open sessions, parked ones included, each as its id and key.
    func allOpenSessionIds() -> [(id: String, key: CompactText)] {
        var all: [(id: String, key: CompactText)] = []
        all.reserveCapacity(open.count &+ parkedSessions.count)
        for session in open.values { all.append((session.pointee.id, session.pointee.key)) }
        for key in parkedSessions.keys { all.append((key.string, key)) }
        return all
    }

    /// The open parked sessions of a parked device.
    func liveSessions(of device: ParkedDevice) -> [ParkedSession] {
        var live: [ParkedSession] = []
        var next = device.sessions
        while let session = next {
            if parkedSessions[session.keys.session] === session { live.append(session) }
            next = session.next
        }
        return live
    }

    /// A parked session as a checkpoint keeps it, exactly as the unpacked session would give it.
    func checkpoint(of parked: ParkedSession) -> SessionCheckpoint {
        let saved = parked.unpacked()
        let id = saved.key.string
        var context: SessionContext
        let ruleStates: RuleStates
        if let state = parked.state {
            context = state.context
            ruleStates = state.ruleStates
        } else {
            context = SessionContext(session: id)
            context.acceptedEvents = saved.acceptedEvents
            ruleStates = RuleStates()
        }
        return SessionCheckpoint(
            id: id, device: saved.device.string, newestTs: saved.newestTs, endTs: saved.endTs,
            seenIds: parked.state?.seenIds.checkpointFingerprints ?? [], pendingEvents: saved.pendingEvents,
            context: context, ruleStates: ruleStates.settled(in: context),
            releasedEarlyTs: saved.releasedEarlyTs == .min ? nil : saved.releasedEarlyTs)
    }
}
