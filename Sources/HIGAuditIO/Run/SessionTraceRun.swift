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
    public private(set) var sources = SourceFileTable()
    private var inputStatistics = IngestStatistics()
    private let reader: InputReader
    private let onDiagnostic: (Diagnostic) -> Void
    private let recorder: SessionRecorder
    private let files: TraceFilesBox

    /// - Parameters:
    ///   - session: a session id or a prefix of one (`SessionSelector`).
    ///   - onDiagnostic: every problem with the input, as it is found. Late events are not reported
    ///     here: the chosen session's are in the trace, and other sessions' are not asked about.
    public init(
        configuration: AuditConfiguration, reader: InputReader, session: String,
        onDiagnostic: @escaping (Diagnostic) -> Void
    ) {
        let recorder = SessionRecorder(selector: SessionSelector(prefix: session))
        let files = TraceFilesBox()
        self.recorder = recorder
        self.files = files
        self.reader = reader
        self.onDiagnostic = onDiagnostic
        self.engine = SessionEngine(
            configuration: configuration,
            onReport: { report in
                guard report.session == recorder.trace?.session else { return }
                var report = report
                for index in report.violations.indices where report.violations[index].related != nil {
                    report.violations[index].detail = report.violations[index].detail(describing: files.table)
                    report.violations[index].related = nil
                }
                recorder.trace?.close(with: report)
            })
    }

    /// Everything counted so far, as `AuditRun.statistics`.
    public var statistics: IngestStatistics {
        var merged = inputStatistics
        merged.takeEngineCounters(from: engine.statistics)
        return merged
    }

    /// Counts a problem found before reading (see `AuditRun.recordUnreadable`).
    public func recordUnreadable(_ diagnostic: Diagnostic) {
        inputStatistics.faults += 1
        onDiagnostic(diagnostic)
    }

    /// One decoder for every input, lent to each file's sink and taken back (see
    /// `AnalysisLineSink.decoder`).
    private var decoder: EventDecoder? = EventDecoder.forRun()

    /// Reads one input to its end.
    public func read(_ source: InputSource) {
        let file = sources.add(source.displayPath)
        files.table = sources
        var sink = SessionTraceLineSink(
            engine: engine, recorder: recorder, file: file, displayPath: source.displayPath,
            decoder: decoder.take() ?? EventDecoder.forRun(), onMalformed: onDiagnostic)
        _ = reader.read(source, into: &sink, statistics: &inputStatistics, diagnostic: onDiagnostic)
        decoder = sink.decoder
        inputStatistics.malformedLines += sink.statistics.malformedLines
        for (name, count) in sink.statistics.unknownTypes {
            inputStatistics.unknownTypes[name, default: 0] += count
        }
    }

    /// End of input: closes every session and says which session the id named. The trace is that
    /// session's; nil unless the resolution is `.found`.
    public func finish() -> (resolution: SessionSelector.Resolution, trace: SessionTrace?) {
        engine.finish()
        let resolution = recorder.selector.resolution
        guard case .found(let id) = resolution, let trace = recorder.trace, trace.session == id else {
            return (resolution, nil)
        }
        return (resolution, trace)
    }
}

/// The selector and the trace it feeds, shared by the line sink and the engine's report closure.
final class SessionRecorder {
    var selector: SessionSelector
    var trace: SessionTrace?

    init(selector: SessionSelector) { self.selector = selector }

    /// Hands `event` to the engine, keeping a copy and the engine's verdict when it is the chosen
    /// session's.
    @inline(__always)
    func ingest(_ event: consuming Event, into engine: SessionEngine) {
        switch selector.step(for: event) {
        case .skip:
            engine.ingest(event)
        case .dropRecording:
            trace = nil
            engine.ingest(event)
        case .record, .recordAnew:
            if trace == nil || trace?.session != selector.recordedSession {
                trace = SessionTrace(session: selector.recordedSession ?? event.session)
            }
            let kept = copy event
            let disposition = engine.ingest(event)
            trace?.record(kept, disposition)
        }
    }
}

/// Lets the report closure name files registered after the engine was made.
private final class TraceFilesBox {
    var table = SourceFileTable()
}

/// `AnalysisLineSink` for `show`: decodes each line and passes events through the recorder. Kept
/// apart so that `analyze`'s sink, on the hot path, is untouched.
struct SessionTraceLineSink: LineSink {
    var decoder: EventDecoder
    let engine: SessionEngine
    let recorder: SessionRecorder
    let file: Int32
    let displayPath: String
    var statistics = IngestStatistics()
    let onMalformed: (Diagnostic) -> Void

    init(engine: SessionEngine, recorder: SessionRecorder, file: Int32, displayPath: String,
         decoder: EventDecoder, onMalformed: @escaping (Diagnostic) -> Void) {
        self.decoder = decoder
        self.engine = engine
        self.recorder = recorder
        self.file = file
        self.displayPath = displayPath
        self.onMalformed = onMalformed
    }

    mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        let engine = self.engine
        let recorder = self.recorder
        let verdict = decoder.decode(
            bytes, source: SourceLocation(file: file, line: number), accept: { recorder.ingest($0, into: engine) })
        sort(verdict, number: number)
    }

    mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? {
        let engine = self.engine
        let recorder = self.recorder
        guard let (length, verdict) = decoder.decodeLeadingLine(
            bytes, readable: readable, source: SourceLocation(file: file, line: number),
            accept: { recorder.ingest($0, into: engine) })
        else { return nil }
        sort(verdict, number: number)
        return length
    }

    private mutating func sort(_ verdict: LineVerdict, number: Int64) {
        switch verdict {
        case .blank, .event:
            break
        case .unknownType(let name):
            statistics.unknownTypes[name, default: 0] += 1
        case .malformed(let problem):
            statistics.malformedLines += 1
            onMalformed(Diagnostic(.malformedLine, at: "\(displayPath):\(number)", problem.description))
        }
    }

    mutating func oversizedLine(number: Int64, byteCount: Int64) {
        statistics.malformedLines += 1
        onMalformed(Diagnostic(
            .malformedLine, at: "\(displayPath):\(number)", "line of \(byteCount) bytes is longer than the 1 MiB limit"))
    }
}
