/// Turns a stream of decoded events into closed sessions and their violations (SPEC §2 "Time, order,
/// sessions" and §3).
///
/// Feed every decoded event, in input order, to `ingest`, then call `finish` at end of input. Each
/// event lands in exactly one of the engine's buckets, tried in SPEC order: duplicate, late, accepted.
/// Accepted events wait in a per-session reorder buffer until no future accepted event can sort before
/// them (`ts ≤ session newest − max_lateness_ms`), then go to the enabled rules that asked for their
/// kind, in `ts` order (equal `ts` in input order). When a session closes, the engine flushes it, lets
/// the rules report what they were waiting for, hands one `SessionReport` to `onReport` and forgets
/// the session except its id, so memory follows open sessions, not input size.
///
/// Closing (SPEC §2 "Device clocks"). A session belongs to the device of its first event read (`""`
/// when that event has none); every later event of the session counts for that device, whatever its
/// own `device` field says. A device's clock is the `ts` of its most recently accepted event. Right
/// after each accepted event, the open sessions of its device (its own session included) close when
/// - (a) the session has a `session.end` at `E` (the earliest in `ts` order) and clock `≥ E +
///   max_lateness_ms`, or
/// - (b) clock `> session newest + session_gap_ms`;
/// - (c) and every session closes at `finish()`.
/// Sessions of different devices never affect each other, so the results depend only on each
/// device's own reading order. Sessions that close together close in session-id order.
///
/// Memory (issue 46): the open sessions of a device that has gone quiet wait packed, and wake with
/// their device (`SessionEngine+Parking`); nothing above changes by it.
///
/// `onReport` and `onLate` may call back into the engine: a session that such a call closes is
/// reported once, and the sessions' and devices' memory outlives every loop that may still refer to it
/// (`closeAll`).
public final class SessionEngine {
    /// Takes each closed session's report as its own: the engine has no further use for it, so that
    /// a sink that changes it (naming related events) changes it in place rather than a copy.
    public typealias ReportSink = (consuming SessionReport) -> Void
    public typealias LateSink = (Event, LateReason) -> Void

    public let configuration: AuditConfiguration
    /// The engine's part of the ingest table: events, sessions, late, duplicate, unbalanced dismisses.
    public private(set) var statistics = IngestStatistics()

    private let rules: ConfiguredRules
    private let onReport: ReportSink
    private let onLate: LateSink
    let maxLateness: Int64
    let sessionGap: Int64
    let maxPendingEvents: Int
    /// Called once for each session the first time it holds more than `max_pending_events` events
    /// waiting to be put in order, with the session id and the limit, so the caller can warn: the
    /// session's earliest waiting events go to the rules early from then on (SPEC §2). It must not
    /// call back into the engine: it runs while an event is being accepted.
    public var onPendingLimit: ((String, Int) -> Void)?

    // Internal (not private) for `SessionEngine+Checkpoint.swift`.
    /// Keyed by the session id as the events carry it, so that finding an event's session neither
    /// builds nor hashes a `String` (`OpenSessionTable`). The engine owns the sessions' memory (see
    /// `OpenSession`): a session is freed when it closes, the rest when the engine goes.
    var open = OpenSessionTable()
    /// The devices with open sessions, by their `device` text. A device is freed with its last open
    /// session: its clock only ever decides right after one of its own events, which sets it anew.
    var devices: [CompactText: UnsafeMutablePointer<DeviceStream>] = [:]
    /// Open sessions of quiet devices, packed (`SessionEngine+Parking`), by key as `open` is: a
    /// session is in exactly one of the two while it is open.
    var parkedSessions: [CompactText: ParkedSession] = [:]
    /// The devices whose open sessions are parked, by key as `devices` is: a device with open
    /// sessions is in exactly one of the two.
    var parkedDevices: [CompactText: ParkedDevice] = [:]
    /// A device that has had no accepted event for this many accepted events of the whole input is
    /// parked with its sessions (`SessionEngine+Parking`). 0 parks every device after every event
    /// (tests do, to show that parking changes no result).
    var quietAfterEvents = SessionEngine.defaultQuietAfterEvents
    /// No device is parked while at most this many sessions are in memory (`open`), however quiet
    /// (`SessionEngine+Parking`). 0 parks by quiet alone (tests do).
    var keptAwakeSessions = SessionEngine.defaultKeptAwakeSessions
    /// How many times a device was parked in this run (tests read it to see the back-off work).
    var devicesParked = 0
    /// The devices in `devices`, in the order they are due to be looked at for quiet.
    var quietQueueFirst: UnsafeMutablePointer<DeviceStream>?
    var quietQueueLast: UnsafeMutablePointer<DeviceStream>?
    /// The device of parked sessions unpacked only to be closed (`closeInOrder`): belongs to none.
    let detachedDevice = DeviceStream.make(DeviceStream(key: CompactText(""), clock: .min))
    /// By the session ids' bytes, as `open` is.
    private var closed: Set<CompactText> = []
    /// Sessions closed before this engine started (an earlier nightly run): asked only for a session
    /// the engine does not know, so that its late events stay late across runs.
    public var closedBeforeStart: ((String) -> Bool)?
    /// How many of `closeAll`'s loops are running (more than one when `onReport` called back into the
    /// engine), and the sessions and devices they let go of, freed when the outermost ends: until then a
    /// loop may still hold them.
    var closingLoops = 0
    private var closedWhileLooping: [UnsafeMutablePointer<OpenSession>] = []
    private var devicesEmptiedWhileLooping: [UnsafeMutablePointer<DeviceStream>] = []
    /// A sharded run (`analyze`/`nightly --shard K/N`): only the sessions whose first event's device is
    /// this shard's are processed; the events of the others are left to their shards, uncounted here.
    /// Set before the first event.
    public var shard: DeviceShard? {
        didSet { router = shard.map { SessionShardRouter(count: $0.count) } }
    }
    private var router: SessionShardRouter<CompactText>?
    /// The session of the previous event: uploads keep a session's lines together, so this usually
    /// saves the dictionary lookup. Nil once that session closes.
    var lastSession: UnsafeMutablePointer<OpenSession>?
    /// The device key for sessions whose first event has no `device`.
    private static let noDevice = CompactText("")
    /// The enabled rules that judge only sessions with every touch (`RuleDescription.needsEveryTouch`).
    private let rulesNeedingEveryTouch: Set<String>

    /// - Parameters:
    ///   - onLate: called for every late event with the reason, so the caller can say where it was.
    ///   - onReport: called once per closed session.
    public init(
        configuration: AuditConfiguration = AuditConfiguration(),
        onLate: @escaping LateSink = { _, _ in },
        onReport: @escaping ReportSink
    ) {
        self.configuration = configuration
        self.rules = ConfiguredRules(configuration: configuration)
        self.rulesNeedingEveryTouch = Set(rules.enabledDescriptions.filter(\.needsEveryTouch).map(\.identifier))
        self.onReport = onReport
        self.onLate = onLate
        self.maxLateness = max(configuration.maxLatenessMs, 0)
        self.sessionGap = max(configuration.sessionGapMs, 0)
        self.maxPendingEvents = max(configuration.maxPendingEvents, 1)
    }

    deinit {
        for session in open.values { session.free() }
        for session in closedWhileLooping { session.free() }
        for device in devices.values { device.free() }
        for device in devicesEmptiedWhileLooping { device.free() }
        detachedDevice.free()
    }

    /// Sessions not closed yet, parked ones included.
    public var openSessionCount: Int { open.count &+ parkedSessions.count }
    /// Devices with sessions not closed yet, parked ones included.
    public var openDeviceCount: Int { devices.count &+ parkedDevices.count }
    /// Open sessions packed because their device has gone quiet (`SessionEngine+Parking`).
    public var parkedSessionCount: Int { parkedSessions.count }
    /// Sessions closed so far.
    public var closedSessionCount: Int { closed.count }
    /// The enabled rules, in rule-id order.
    public var enabledRules: [RuleDescription] { rules.enabledDescriptions }

    /// Classifies one decoded event (its `source` set) and, if accepted, queues it for the rules.
    ///
    /// The common case, an event of the previous event's session, binds that session once, without a
    /// lookup in `open`.
    @discardableResult
    public func ingest(_ event: consuming Event) -> EventDisposition {
        if let session = lastSession, Self.reading(&event, { $0.pointee.texts.holds(session.pointee.key, in: .session) }) {
            return classify(consume event, in: session)
        }
        return ingestAfterLookup(consume event)
    }

    /// `ingest` of the event at `event`, which it moves out, leaving that memory uninitialized: a batch
    /// of `--jobs` hands its events over this way. An event of an open session that is neither late
    /// nor a duplicate moves from there into its session's buffer in one copy, where `ingest` would
    /// take it into a value first; any other takes `ingest`'s way.
    ///
    /// `classify` and `accept` written out again, deciding exactly as they do (`HandOverTests`): the
    /// event's parts are read where it lies, since an event lent whole to a function was copied, and
    /// with the steps shared as functions the compiler kept one out of line, which cost as much as the
    /// copy saved.
    @discardableResult
    public func ingest(movingFrom event: UnsafeMutablePointer<Event>) -> EventDisposition {
        let session: UnsafeMutablePointer<OpenSession>
        if let last = lastSession, event.pointee.texts.holds(last.pointee.key, in: .session) {
            session = last
        } else if let found = open[event.pointee.sessionText] {
            lastSession = found
            session = found
        } else {
            return ingestOutsideOpenSessions(event.move())
        }
        // A late event: `ingest` finds the session as the previous event's and classifies it.
        guard event.pointee.ts >= session.pointee.newestTs.minus(maxLateness),
              event.pointee.ts >= session.pointee.releasedEarlyTs
        else { return ingest(event.move()) }
        guard session.pointee.seenIds.insert(idOf: event.pointee.texts) else {
            statistics.duplicateEvents += 1
            if session.pointee.seenIds.takeUnverifiedDuplicate() { statistics.unverifiedDuplicates += 1 }
            event.deinitialize(count: 1)
            return .duplicate
        }
        statistics.events += 1
        let ts = event.pointee.ts
        let device = session.pointee.device
        if ts > session.pointee.newestTs { session.pointee.newestTs = ts }
        if case .sessionEnd = event.pointee.payload, ts < (session.pointee.endTs ?? .max) {
            session.pointee.endTs = ts
            let key = ts.plus(maxLateness)
            if key < session.pointee.closingKey { device.pointee.rekey(session, to: key) }
        }
        session.pointee.context.acceptedEvents += 1
        session.pointee.buffer.insert(movingFrom: event)
        let ready = session.pointee.newestTs.minus(maxLateness)
        while session.pointee.buffer.releaseFirst(notAfter: ready, { release($0, in: session) }) {}
        if session.pointee.buffer.count > maxPendingEvents { releaseOverLimit(session) }
        device.pointee.clock = ts
        device.pointee.acceptedInThisRun = true
        device.pointee.lastSpoke = statistics.events
        if ts >= device.pointee.closingBound { closeDue(on: device) }
        parkQuietDevicesIfDue()
        return .accepted
    }

    /// An event of another session than the previous event's: found, refused or opened.
    private func ingestAfterLookup(_ event: consuming Event) -> EventDisposition {
        if let found = Self.reading(&event, { open.session(of: $0.pointee.texts) }) {
            lastSession = found
            return classify(consume event, in: found)
        }
        return ingestOutsideOpenSessions(consume event)
    }

    /// An event of a session that is not open: of a parked session (woken with its device), refused, or
    /// the first of a new session.
    private func ingestOutsideOpenSessions(_ event: consuming Event) -> EventDisposition {
        let key = event.sessionText
        if !parkedSessions.isEmpty, let parked = parkedSessions[key] {
            wake(device: parked.keys.device)
            guard let woken = open[key] else { preconditionFailure("a woken device lacks its parked session") }
            lastSession = woken
            return classify(consume event, in: woken)
        }
        if closed.contains(key) { return reject(event, .sessionClosed) }
        if let shard, router?.shard(of: key, firstDevice: event.device ?? "") != shard.index {
            return .otherShard
        }
        if closedBeforeStart?(event.session) == true { return reject(event, .sessionClosed) }
        let device = deviceStream(for: event.texts[.device] ?? Self.noDevice, clock: event.ts)
        let created = OpenSession.make(OpenSession(
            key: key, device: device, newestTs: event.ts, ruleStates: RuleStates()))
        _ = created.pointee.seenIds.insert(idOf: event.texts)
        open.insert(created, for: key)
        adopt(created)
        lastSession = created
        statistics.sessions += 1
        accept(consume event, into: created)
        return .accepted
    }

    /// An event of an open session: duplicate, late or accepted, in SPEC order. (A session that has
    /// closed is no longer open: its events are refused before they get here.) `ingest(movingFrom:)`
    /// repeats this decision.
    @inline(__always)
    private func classify(_ event: consuming Event, in session: UnsafeMutablePointer<OpenSession>) -> EventDisposition {
        // Duplicate is tried before late; the id is looked up once on the common (accepted) path.
        let isLate = event.ts < session.pointee.newestTs.minus(maxLateness) || event.ts < session.pointee.releasedEarlyTs
        let isDuplicate = isLate
            ? Self.reading(&event, { session.pointee.seenIds.contains(idOf: $0.pointee.texts) })
            : !Self.reading(&event, { session.pointee.seenIds.insert(idOf: $0.pointee.texts) })
        if isDuplicate {
            statistics.duplicateEvents += 1
            if session.pointee.seenIds.takeUnverifiedDuplicate() { statistics.unverifiedDuplicates += 1 }
            return .duplicate
        }
        if isLate {
            if event.ts < session.pointee.newestTs.minus(maxLateness) {
                return reject(event, .tooOld(sessionNewestTs: session.pointee.newestTs, maxLatenessMs: maxLateness))
            }
            return reject(
                event, .olderThanReleasedEarly(releasedTs: session.pointee.releasedEarlyTs, maxPendingEvents: maxPendingEvents))
        }
        accept(consume event, into: session)
        return .accepted
    }

    /// What `body` reads of `event`, read where the event lies, as `ingest(movingFrom:)` reads it: so
    /// read, the compiler inlines `accept` into `ingestAfterLookup`, which it kept out of line with
    /// `event.texts` (an inlining decision; figures: `Tests/Benchmarks/README.md`, "The session
    /// engine's own costs"). `ingest` still copies the texts to the stack.
    @inline(__always)
    private static func reading<Result>(_ event: inout Event, _ body: (UnsafePointer<Event>) -> Result) -> Result {
        withUnsafePointer(to: &event, body)
    }

    /// End of input: closes every open session (SPEC §2 (c)), in session-id order.
    public func finish() {
        closeInOrder(allOpenSessionIds().sorted(by: Self.idOrder).map(\.key))
    }

    // MARK: - Classification

    private func reject(_ event: Event, _ reason: LateReason) -> EventDisposition {
        statistics.lateEvents += 1
        onLate(event, reason)
        return .late(reason)
    }

    /// Queues an accepted event (its id already recorded), releases what can no longer move, and moves
    /// the device's clock; `ingest(movingFrom:)` repeats these steps. Inlined, as is the buffer's
    /// `insert`, so that the ~200-byte event moves once, into its slot, instead of once per call level.
    /// Closing comes last: it may free `session`.
    @inline(__always)
    private func accept(_ event: consuming Event, into session: UnsafeMutablePointer<OpenSession>) {
        statistics.events += 1
        let ts = event.ts
        let device = session.pointee.device
        if ts > session.pointee.newestTs { session.pointee.newestTs = ts }
        if case .sessionEnd = event.payload, ts < (session.pointee.endTs ?? .max) {
            session.pointee.endTs = ts
            let key = ts.plus(maxLateness)
            if key < session.pointee.closingKey { device.pointee.rekey(session, to: key) }
        }
        session.pointee.context.acceptedEvents += 1
        session.pointee.buffer.insert(consume event)
        // Any future accepted event has ts ≥ newest − lateness and a later input position, so
        // everything at or before that bound is in its final place.
        let ready = session.pointee.newestTs.minus(maxLateness)
        while session.pointee.buffer.releaseFirst(notAfter: ready, { release($0, in: session) }) {}
        if session.pointee.buffer.count > maxPendingEvents { releaseOverLimit(session) }
        device.pointee.clock = ts
        device.pointee.acceptedInThisRun = true
        device.pointee.lastSpoke = statistics.events
        if ts >= device.pointee.closingBound { closeDue(on: device) }
        parkQuietDevicesIfDue()
    }

    /// After an accepted event: parks the devices that have gone quiet, if the queue's first is due to
    /// be looked at (`SessionEngine+Parking`).
    @inline(__always)
    private func parkQuietDevicesIfDue() {
        if open.count > keptAwakeSessions, let first = quietQueueFirst,
           statistics.events &- first.pointee.queuedAt >= quietAfterEvents {
            parkQuietDevices()
        }
    }

    // MARK: - Ordered processing

    /// SPEC §2 `max_pending_events`: the session's earliest waiting events go to the rules until it
    /// holds the limit, and any later event older than them is late (`classify`).
    @inline(never)
    private func releaseOverLimit(_ session: UnsafeMutablePointer<OpenSession>) {
        if session.pointee.releasedEarlyTs == .min { onPendingLimit?(session.pointee.id, maxPendingEvents) }
        while session.pointee.buffer.count > maxPendingEvents {
            _ = session.pointee.buffer.releaseFirst(notAfter: .max) { event in
                session.pointee.releasedEarlyTs = max(session.pointee.releasedEarlyTs, event.ts)
                release(event, in: session)
            }
        }
    }

    /// One event in its session's final order: update the shared context, run the rules, then apply
    /// the event to the state the rules read as "before".
    @inline(__always)
    private func release(_ event: borrowing Event, in session: UnsafeMutablePointer<OpenSession>) {
        session.pointee.context.prepare(for: event, screenKey: &session.pointee.screenKey)
        rules.observe(event, states: &session.pointee.ruleStates, in: &session.pointee.context)
        if !session.pointee.context.apply(event) { statistics.unbalancedDismisses += 1 }
    }

    // MARK: - Devices

    /// The device's stream, woken if it is parked, made (with `clock`) if none of its sessions is open.
    func deviceStream(for key: CompactText, clock: Int64) -> UnsafeMutablePointer<DeviceStream> {
        if let found = devices[key] { return found }
        if !parkedDevices.isEmpty, let woken = wake(device: key) { return woken }
        var stream = DeviceStream(key: key, clock: clock)
        stream.lastSpoke = statistics.events
        let made = DeviceStream.make(stream)
        devices[key] = made
        enqueue(made)
        return made
    }

    /// Puts a session that just opened (or was restored) among its device's.
    func adopt(_ session: UnsafeMutablePointer<OpenSession>) {
        session.pointee.closingKey = session.pointee.closingClock(maxLateness: maxLateness, sessionGap: sessionGap)
        session.pointee.device.pointee.insert(session)
    }

    /// Frees a restored session that a later entry of the same checkpoint replaced.
    func forget(_ session: UnsafeMutablePointer<OpenSession>) {
        session.pointee.device.pointee.remove(session)
        session.free()
    }

    // MARK: - Closing

    /// Closes the device's sessions that its clock has closed: those whose key it reached, each either
    /// closed or given its exact key again.
    private func closeDue(on device: UnsafeMutablePointer<DeviceStream>) {
        let clock = device.pointee.clock
        var closing: [UnsafeMutablePointer<OpenSession>] = []
        // Sessions whose first closing clock saturated at `.max` without closing there: kept off the heap
        // while it is scanned, so that the scan ends.
        var unclosable: [UnsafeMutablePointer<OpenSession>] = []
        while let session = device.pointee.first, session.pointee.closingKey <= clock {
            if session.pointee.closes(atClock: clock, maxLateness: maxLateness, sessionGap: sessionGap) {
                device.pointee.remove(session)
                closing.append(session)
            } else {
                let key = session.pointee.closingClock(maxLateness: maxLateness, sessionGap: sessionGap)
                if key > clock {
                    device.pointee.rekey(session, to: key)
                } else {
                    device.pointee.remove(session)
                    unclosable.append(session)
                }
            }
        }
        for session in unclosable {
            session.pointee.closingKey = .max
            device.pointee.insert(session)
        }
        guard !closing.isEmpty else { return }
        if closing.count > 1 { closing.sort(by: OpenSession.idOrder) }
        closeAll(closing)
    }

    /// Closes the sessions of every device that has sent no accepted event for `idleRuns` runs in a row,
    /// this one included (SPEC §2: a device that never comes back does not hold memory for ever), in
    /// session-id order. For incremental runs, before `checkpoint()`.
    public func closeSessionsOfIdleDevices(after runs: Int) {
        var closing: [(id: String, key: CompactText)] = []
        for device in devices.values where !device.pointee.acceptedInThisRun && device.pointee.idleRuns + 1 >= runs {
            closing.append(contentsOf: device.pointee.sessions.lazy.map { ($0.pointee.id, $0.pointee.key) })
        }
        for device in parkedDevices.values where !device.acceptedInThisRun && device.idleRuns + 1 >= runs {
            closing.append(contentsOf: liveSessions(of: device).lazy.map { ($0.keys.session.string, $0.keys.session) })
        }
        closing.sort(by: Self.idOrder)
        closeInOrder(closing.map(\.key))
    }

    /// Closes `sessions` in order. `onReport` may call back into the engine (`ingest`, `finish`) and so
    /// close sessions further down the list: those are skipped, and every session (and device) let go of
    /// meanwhile is freed only when the outermost loop ends, so that no loop reads freed memory.
    private func closeAll(_ sessions: [UnsafeMutablePointer<OpenSession>]) {
        closingLoops += 1
        for session in sessions where open[session.pointee.key] == session { close(session) }
        closingLoops -= 1
        guard closingLoops == 0 else { return }
        freeLetGo()
    }

    /// Frees the sessions and devices the closing loops let go of; only when no loop may hold them.
    func freeLetGo() {
        for session in closedWhileLooping { session.free() }
        closedWhileLooping.removeAll(keepingCapacity: true)
        for device in devicesEmptiedWhileLooping { device.free() }
        devicesEmptiedWhileLooping.removeAll(keepingCapacity: true)
    }

    /// Reports the session and lets it go, with its device if it was the device's last open session.
    /// Called only from `closeAll` and `closeInOrder`, which free them once their loops end.
    func close(_ session: UnsafeMutablePointer<OpenSession>) {
        while session.pointee.buffer.releaseFirst(notAfter: .max, { release($0, in: session) }) {}
        rules.finish(states: &session.pointee.ruleStates, in: &session.pointee.context)
        let key = session.pointee.key
        open.remove(key)
        if lastSession == session { lastSession = nil }
        closed.insert(key)
        let device = session.pointee.device
        device.pointee.remove(session)
        if device.pointee.sessions.isEmpty, devices[device.pointee.key] == device {
            devices[device.pointee.key] = nil
            dequeue(device)
            devicesEmptiedWhileLooping.append(device)
        }
        let report = session.pointee.context.takeReport(needingEveryTouch: rulesNeedingEveryTouch)
        closedWhileLooping.append(session)
        onReport(report)
    }
}

extension SessionContext {
    /// Before the rules see `event`: time range, labels, the screen resolved for it and the count of
    /// events with a screen. `screenKey` is the text `screen` was last set from (see
    /// `OpenSession.screenKey`).
    @inline(__always)
    mutating func prepare(for event: Event, screenKey: inout CompactText?) {
        if firstTs == nil { firstTs = event.ts }
        lastTs = event.ts
        if device == nil, let eventDevice = event.device { device = eventDevice }
        if appVersion == nil, let version = event.appVersion { appVersion = version }
        guard event.texts.has(.screen) else { return }
        screenSightings &+= 1
        // The screen stays the same for many events: its `String` is made only when it changes, and
        // the one it replaces is kept for `screen(beforeObserved:)`.
        if !event.texts.holds(screenKey, in: .screen), let eventScreen = event.screenText {
            screenKey = eventScreen
            replacedScreen = eventScreen.string
            swap(&screen, &replacedScreen)
            screenChangedAtSighting = screenSightings
        }
    }

    /// After the rules saw `event`: the state they read as "before" moves past it. Returns false for an
    /// unbalanced dismiss.
    @inline(__always)
    mutating func apply(_ event: Event) -> Bool {
        switch event.payload {
        case .sessionStart(let sessionSettings):
            if sessionStartTs == nil {
                sessionStartTs = event.ts
                settings = sessionSettings
            }
            if launchTs == nil, !sessionSettings.synthetic { launchTs = event.ts }
        case .haptic(let kind, _):
            SessionHaptics.count(kind, in: &hapticTally)
        case .modalPresent(let modal, let style):
            modals.present(modal, style: style)
        case .modalDismiss(let modal):
            return modals.dismiss(modal)
        default:
            break
        }
        return true
    }

    /// The closed session as the tables see it: violations labelled and in SPEC §4 order. Without
    /// every touch in the log (`settings.touches`, from the first `session.start` in `ts` order, known
    /// only now), the rules of `needingEveryTouch` did not judge the session: their violations, which
    /// may rest on a touch the log left out, are dropped.
    ///
    /// Takes the violations out of the context, which is done with once its session closes: labelling
    /// a copy that shared their storage copied the whole array (and retained every string) for every
    /// session with violations.
    mutating func takeReport(needingEveryTouch: Set<String>) -> SessionReport {
        var labelled: [Violation] = []
        swap(&labelled, &violations)
        if settings.touches != .all, !needingEveryTouch.isEmpty {
            labelled.removeAll { needingEveryTouch.contains($0.rule) }
        }
        for index in labelled.indices {
            labelled[index].device = device ?? ""
            labelled[index].appVersion = appVersion ?? ""
        }
        // Rules mostly report in this order already; a stable sort of a sorted array changes nothing,
        // so it is skipped then (it allocated a buffer for every session).
        if labelled.indices.dropFirst().contains(where: { Violation.sessionOrder(labelled[$0], labelled[$0 &- 1]) }) {
            labelled.sortInSessionOrder()
        }
        return SessionReport(
            session: session, device: device ?? "", appVersion: appVersion ?? "",
            firstTs: firstTs ?? lastTs, lastTs: lastTs, acceptedEvents: acceptedEvents,
            hapticCounts: hapticCounts, violations: labelled, touches: settings.touches
        )
    }
}
