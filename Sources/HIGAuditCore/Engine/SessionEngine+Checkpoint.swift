/// The state an incremental (nightly) job keeps between runs: the sessions still open and the stream's
/// newest `ts`, so that the next run continues the stream as if the inputs had been one (SPEC §5).
///
/// Closed sessions are not in it: that set grows with history, so whoever stores the checkpoint answers
/// "was this session closed?" through `SessionEngine.closedBeforeStart` instead. The engine's counters
/// are not in it either; they describe one run (the `ingest` table of that run).
public struct EngineCheckpoint: Sendable, Equatable, Codable {
    /// Largest accepted `ts` of the stream so far (`Int64.min` before the first event).
    public var streamNewestTs: Int64
    /// The open sessions, in session-id order.
    public var sessions: [SessionCheckpoint]

    public init(streamNewestTs: Int64 = .min, sessions: [SessionCheckpoint] = []) {
        self.streamNewestTs = streamNewestTs
        self.sessions = sessions
    }
}

/// One open session as the engine holds it: its ordering and closing bounds, the event ids it has
/// seen, the accepted events the rules have not seen yet, and the shared and per-rule state.
public struct SessionCheckpoint: Sendable, Equatable, Codable {
    public var id: String
    public var newestTs: Int64
    public var endTs: Int64?
    /// Fingerprints of the accepted event ids (sorted, so equal states encode equally).
    public var seenIds: [UInt64]
    /// Accepted events still waiting in the reorder buffer, in release order.
    public var pendingEvents: [Event]
    public var context: SessionContext
    public var ruleStates: RuleStates
}

extension SessionEngine {
    /// The open sessions and the stream's newest `ts`, to be stored at the end of a run and handed to
    /// `init(configuration:checkpoint:onLate:onReport:)` by the next one. The engine is not changed.
    public func checkpoint() -> EngineCheckpoint {
        let sessions = open.values.sorted(by: OpenSession.idOrder).map { session -> SessionCheckpoint in
            SessionCheckpoint(
                id: session.pointee.id, newestTs: session.pointee.newestTs, endTs: session.pointee.endTs,
                seenIds: session.pointee.seenIds.checkpointFingerprints, pendingEvents: session.pointee.buffer.pending,
                context: session.pointee.context,
                ruleStates: session.pointee.ruleStates.settled(in: session.pointee.context))
        }
        return EngineCheckpoint(streamNewestTs: streamNewestTs, sessions: sessions)
    }

    /// An engine that continues where the one that made `checkpoint` stopped: feeding it the rest of
    /// the stream gives the results the first engine would have given for the whole stream.
    public convenience init(
        configuration: AuditConfiguration, checkpoint: EngineCheckpoint,
        onLate: @escaping LateSink = { _, _ in }, onReport: @escaping ReportSink
    ) {
        self.init(configuration: configuration, onLate: onLate, onReport: onReport)
        streamNewestTs = checkpoint.streamNewestTs
        for saved in checkpoint.sessions {
            let session = OpenSession.make(OpenSession(
                key: CompactText(saved.id), newestTs: saved.newestTs, ruleStates: saved.ruleStates,
                seenIds: SeenIds(fingerprints: saved.seenIds)))
            session.pointee.endTs = saved.endTs
            session.pointee.context = saved.context
            for event in saved.pendingEvents { session.pointee.buffer.insert(event) }
            // A checkpoint that lists a session twice (one edited by hand): the later entry counts,
            // as it always did, and the earlier one is freed.
            open.updateValue(session, forKey: session.pointee.key)?.free()
        }
    }
}
