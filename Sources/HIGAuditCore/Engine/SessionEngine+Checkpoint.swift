/// The state an incremental (nightly) job keeps between runs: the sessions still open and their
/// devices' clocks, so that the next run continues each device's stream as if the inputs had been one
/// (SPEC §2, §5).
///
/// Closed sessions are not in it: that set grows with history, so whoever stores the checkpoint answers
/// "was this session closed?" through `SessionEngine.closedBeforeStart` instead. The engine's counters
/// are not in it either; they describe one run (the `ingest` table of that run).
public struct EngineCheckpoint: Sendable, Equatable, Codable {
    /// The devices with open sessions, in device order.
    public var devices: [DeviceCheckpoint]
    /// The open sessions, in session-id order.
    public var sessions: [SessionCheckpoint]

    public init(devices: [DeviceCheckpoint] = [], sessions: [SessionCheckpoint] = []) {
        self.devices = devices
        self.sessions = sessions
    }

    /// The latest of the devices' clocks (`Int64.min` without devices): what the store shows of it.
    public var newestDeviceClock: Int64 { devices.map(\.clock).max() ?? .min }
}

/// One device with open sessions (SPEC §2 "Device clocks").
public struct DeviceCheckpoint: Sendable, Equatable, Codable {
    public var device: String
    /// `ts` of the device's most recently accepted event.
    public var clock: Int64
    /// Runs in a row, up to and including the one that wrote the checkpoint, in which the device sent
    /// no accepted event (nightly's `idle_runs`).
    public var idleRuns: Int

    public init(device: String, clock: Int64, idleRuns: Int) {
        self.device = device
        self.clock = clock
        self.idleRuns = idleRuns
    }
}

/// One open session as the engine holds it: its ordering and closing bounds, the event ids it has
/// seen, the accepted events the rules have not seen yet, and the shared and per-rule state.
public struct SessionCheckpoint: Sendable, Equatable, Codable {
    public var id: String
    /// The device whose clock closes the session: that of its first event read. Absent in checkpoints
    /// written before devices had clocks, which then use the session's label device (`labelDevice`).
    public var device: String?
    public var newestTs: Int64
    public var endTs: Int64?
    /// Fingerprints of the accepted event ids (sorted, so equal states encode equally).
    public var seenIds: [UInt64]
    /// Accepted events still waiting in the reorder buffer, in release order.
    public var pendingEvents: [Event]
    public var context: SessionContext
    public var ruleStates: RuleStates
    /// The newest `ts` among events that went to the rules early, past `max_pending_events`; absent
    /// when none has (every checkpoint written before the limit existed).
    public var releasedEarlyTs: Int64? = nil

    /// Every field, for a store that reads them from its own form (`StoredSession`).
    public init(
        id: String, device: String?, newestTs: Int64, endTs: Int64?, seenIds: [UInt64], pendingEvents: [Event],
        context: SessionContext, ruleStates: RuleStates, releasedEarlyTs: Int64? = nil
    ) {
        self.id = id
        self.device = device
        self.newestTs = newestTs
        self.endTs = endTs
        self.seenIds = seenIds
        self.pendingEvents = pendingEvents
        self.context = context
        self.ruleStates = ruleStates
        self.releasedEarlyTs = releasedEarlyTs
    }
}

extension SessionCheckpoint {
    /// For a checkpoint written before devices had clocks: the session's label device (SPEC §2: the
    /// first `device` in `ts` order), from the events the rules saw or else those still pending.
    var labelDevice: String {
        context.device ?? pendingEvents.lazy.compactMap(\.device).first ?? ""
    }
}

/// Checkpoints written before devices had clocks hold `streamNewestTs` and no `devices`: their sessions'
/// devices start with no idle runs.
extension EngineCheckpoint {
    private enum CodingKeys: String, CodingKey { case devices, sessions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        devices = try container.decodeIfPresent([DeviceCheckpoint].self, forKey: .devices) ?? []
        sessions = try container.decode([SessionCheckpoint].self, forKey: .sessions)
    }
}

extension SessionEngine {
    /// The open sessions and their devices, to be stored at the end of a run and handed to
    /// `init(configuration:checkpoint:onLate:onReport:)` by the next one. The engine is not changed;
    /// each device's idle runs count this run.
    public func checkpoint() -> EngineCheckpoint {
        var sessions: [SessionCheckpoint] = []
        sessions.reserveCapacity(open.count)
        forEachCheckpointSession { sessions.append($0) }
        return EngineCheckpoint(devices: checkpointDevices(), sessions: sessions)
    }

    /// The devices with open sessions, in device order, as `checkpoint()` lists them.
    public func checkpointDevices() -> [DeviceCheckpoint] {
        let awake = devices.values.map { device in
            DeviceCheckpoint(
                device: device.pointee.key.string, clock: device.pointee.clock,
                idleRuns: device.pointee.acceptedInThisRun ? 0 : device.pointee.idleRuns + 1)
        }
        let parked = parkedDevices.map { key, device in
            DeviceCheckpoint(
                device: key.string, clock: device.clock, idleRuns: device.acceptedInThisRun ? 0 : device.idleRuns + 1)
        }
        return (awake + parked).sorted { $0.device.utf8.lexicographicallyPrecedes($1.device.utf8) }
    }

    /// Each open session as `checkpoint()` lists it, in session-id order, one at a time: a store can
    /// write a million of them without holding them all at once.
    /// Parked sessions are read from their bytes, one at a time, and stay parked.
    public func forEachCheckpointSession(_ body: (SessionCheckpoint) throws -> Void) rethrows {
        for (_, key) in allOpenSessionIds().sorted(by: Self.idOrder) {
            if let parked = parkedSessions[key] {
                try body(checkpoint(of: parked))
                continue
            }
            guard let session = open[key] else { continue }
            try body(SessionCheckpoint(
                id: session.pointee.id, device: session.pointee.device.pointee.key.string,
                newestTs: session.pointee.newestTs, endTs: session.pointee.endTs,
                seenIds: session.pointee.seenIds.checkpointFingerprints, pendingEvents: session.pointee.buffer.pending,
                context: session.pointee.context,
                ruleStates: session.pointee.ruleStates.settled(in: session.pointee.context),
                releasedEarlyTs: session.pointee.releasedEarlyTs == .min ? nil : session.pointee.releasedEarlyTs))
        }
    }

    /// An engine that continues where the one that made `checkpoint` stopped: feeding it the rest of
    /// the stream gives the results the first engine would have given for the whole stream.
    public convenience init(
        configuration: AuditConfiguration, checkpoint: EngineCheckpoint,
        onLate: @escaping LateSink = { _, _ in }, onReport: @escaping ReportSink
    ) {
        self.init(configuration: configuration, checkpointDevices: checkpoint.devices, onLate: onLate, onReport: onReport)
        for saved in checkpoint.sessions { restore(saved) }
        finishRestoring()
    }

    /// The first step of restoring a checkpoint session by session (a store reads them one at a time):
    /// the devices; then `restore(_:)` for each session in the checkpoint's order, then
    /// `finishRestoring()`, before any event.
    public convenience init(
        configuration: AuditConfiguration, checkpointDevices: [DeviceCheckpoint],
        onLate: @escaping LateSink = { _, _ in }, onReport: @escaping ReportSink
    ) {
        self.init(configuration: configuration, onLate: onLate, onReport: onReport)
        // Restored parked (`SessionEngine+Parking`): a device wakes with its sessions when it sends
        // again, so that a checkpoint of a million sessions is restored in their packed size.
        for saved in checkpointDevices {
            parkedDevices[CompactText(saved.device)] = ParkedDevice(
                clock: saved.clock, idleRuns: saved.idleRuns, acceptedInThisRun: false, sessions: nil)
        }
    }

    /// One open session of a checkpoint, back in the engine: parked, with its device.
    public func restore(_ saved: SessionCheckpoint) {
        let deviceKey = CompactText(saved.device ?? saved.labelDevice)
        let parked = pack(restored: saved, deviceKey: deviceKey)
        let key = parked.keys.session
        // A checkpoint that lists a session twice (one edited by hand): the later entry counts, as it
        // always did; the earlier one, left in its device's chain, is skipped there from now on.
        if let earlier = open.remove(key) { forget(earlier) }
        parkedSessions[key] = parked
        if let device = devices[deviceKey] {
            // Restored after the device woke (not the way a store restores): it goes in awake.
            parkedSessions[key] = nil
            let session = unpack(parked, device: device)
            open.insert(session, for: key)
            adopt(session)
            return
        }
        var device = parkedDevices[deviceKey]
            ?? ParkedDevice(clock: saved.newestTs, idleRuns: 0, acceptedInThisRun: false, sessions: nil)
        parked.next = device.sessions
        device.sessions = parked
        parkedDevices[deviceKey] = device
    }

    /// Ends a restore: devices listed without an open session hold nothing.
    public func finishRestoring() {
        dropEmptyParkedDevices()
        for (key, device) in devices where device.pointee.sessions.isEmpty {
            devices[key] = nil
            dequeue(device)
            device.free()
        }
    }
}
