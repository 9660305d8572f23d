import HIGAuditCore

/// `show`'s run: the same reader → decoder → engine pipeline as `AuditRun`, with one session's events
/// and violations kept aside (`SessionSelector`, `SessionTrace`).
///
/// The engine still sees every event, because a session's closing depends on every event of its device
/// (SPEC §2 device clocks) and a later file may continue it; only the chosen session's events are copied
/// out, on their way to the engine, together with the engine's verdict (`ingest`'s disposition). The
/// engine and the rules are the ones `analyze` runs, unchanged: the violations are those of the
/// session's report, and the accepted events are listed in the order the rules saw them.
public final class SessionTraceRun {
    public let engine: SessionEngine
    public var sources: SourceFileTable { files.table }
    private let pipeline: RunPipeline<SessionRecorder>

    /// Set to read another tool's export (`--from`, SPEC §7).
    public var importer: EventImporter? {
        get { pipeline.importer }
        set { pipeline.importer = newValue }
    }
    private let recorder: SessionRecorder
    private let files: RunFiles

    /// - Parameters:
    ///   - session: a session id or a prefix of one (`SessionSelector`).
    ///   - onDiagnostic: every problem with the input, as it is found. Late events are not reported
    ///     here: the chosen session's are in the trace, and other sessions' are not asked about.
    public init(
        configuration: AuditConfiguration, reader: InputReader, session: String, jobs: Int = 1,
        onDiagnostic: @escaping (Diagnostic) -> Void
    ) {
        let files = RunFiles()
        self.files = files
        let traced = TracedSession()
        let engine = SessionEngine(configuration: configuration, onReport: { report in
            guard report.session == traced.trace?.session else { return }
            traced.trace?.close(with: files.namingRelatedEvents(of: report))
        })
        let recorder = SessionRecorder(selector: SessionSelector(prefix: session), traced: traced, engine: engine)
        self.engine = engine
        self.recorder = recorder
        pipeline = RunPipeline(target: recorder, reader: reader, jobs: jobs, onDiagnostic: onDiagnostic)
    }

    /// Everything counted so far, as `AuditRun.statistics`.
    public var statistics: IngestStatistics { pipeline.statistics(with: engine) }

    /// Counts a problem found before reading (see `RunPipeline.recordUnreadable`).
    public func recordUnreadable(_ diagnostic: Diagnostic) {
        pipeline.recordUnreadable(diagnostic)
    }

    /// Reads inputs to their end, in order; `afterEach` is called after each with its index, and
    /// returning true stops the run there (`--strict`). Returns whether it stopped.
    @discardableResult
    public func read(_ sources: [InputSource], afterEach: (Int) -> Bool = { _ in false }) -> Bool {
        pipeline.read(sources, files: files, stoppingAfter: afterEach)
    }

    /// Reads one input to its end.
    public func read(_ source: InputSource) {
        read([source])
    }

    /// End of input: closes every session and says which session the id named. The trace is that
    /// session's; nil unless the resolution is `.found`.
    public func finish() -> (resolution: SessionSelector.Resolution, trace: SessionTrace?) {
        engine.finish()
        let resolution = recorder.selector.resolution
        guard case .found(let id) = resolution, let trace = recorder.traced.trace, trace.session == id else {
            return (resolution, nil)
        }
        return (resolution, trace)
    }
}

/// The selector and the trace it feeds, in front of the engine: every event goes through it to the
/// engine, and the chosen session's are kept with the engine's verdict.
final class SessionRecorder: EventTarget {
    var selector: SessionSelector
    let traced: TracedSession
    let engine: SessionEngine

    init(selector: SessionSelector, traced: TracedSession, engine: SessionEngine) {
        self.selector = selector
        self.traced = traced
        self.engine = engine
    }

    func accept(_ event: consuming Event) {
        switch selector.step(for: event) {
        case .skip:
            engine.ingest(event)
        case .dropRecording:
            traced.trace = nil
            engine.ingest(event)
        case .record, .recordAnew:
            if traced.trace == nil || traced.trace?.session != selector.recordedSession {
                traced.trace = SessionTrace(session: selector.recordedSession ?? event.session)
            }
            let kept = copy event
            let disposition = engine.ingest(event)
            traced.trace?.record(kept, disposition)
        }
    }
}

/// The trace being recorded, shared by the recorder and the engine's report closure (the engine is
/// made before the recorder that stands in front of it).
final class TracedSession {
    var trace: SessionTrace?
}
