import HIGAuditCore

/// One analysis over a stream of inputs: `RunPipeline` (reader, decoder) → session engine → table
/// accumulator.
///
/// A single engine sees every file of the run in order, so a session may continue from one file into
/// the next; each device is its own stream inside it (SPEC §2). The run owns no output: the caller renders the
/// accumulator's tables however it was asked to.
public final class AuditRun {
    public let engine: SessionEngine
    /// The tables' source, up to the sessions closed so far.
    public var accumulator: AnalysisAccumulator { box.accumulator }
    public var sources: SourceFileTable { files.table }
    public let pipeline: RunPipeline<SessionEngine>
    private let files: RunFiles
    private let box: AccumulatorBox

    /// - Parameters:
    ///   - keepsViolations: false when no `violations` table will be written, so none are stored.
    ///   - suppression: the config's exclusions as judged on the run's day.
    ///   - showsSuppressed: suppressed violations are listed in `violations` too (`--show-suppressed`).
    ///   - jobs: threads reading inputs (`RunPipeline`); the tables are the same for any number.
    ///   - onDiagnostic: every problem with the input, in input order (late events included).
    public init(
        configuration: AuditConfiguration, reader: InputReader, filter: TableFilter = .none,
        keepsViolations: Bool = true, suppression: Suppression = .none, showsSuppressed: Bool = false, jobs: Int = 1,
        onDiagnostic: @escaping (Diagnostic) -> Void
    ) {
        let enabledRules = RuleRegistry.descriptions.filter(configuration.runs)
        let box = AccumulatorBox(
            AnalysisAccumulator(
                rules: enabledRules, filter: filter, keepsViolations: keepsViolations, suppression: suppression,
                showsSuppressed: showsSuppressed))
        let files = RunFiles()
        self.box = box
        self.files = files
        engine = SessionEngine(
            configuration: configuration,
            onLate: { event, reason in onDiagnostic(files.lateDiagnostic(event, reason)) },
            onReport: { report in box.accumulator.add(files.namingRelatedEvents(of: report)) })
        engine.onPendingLimit = { session, limit in onDiagnostic(.pendingLimit(session: session, limit: limit)) }
        pipeline = RunPipeline(target: engine, reader: reader, jobs: jobs, onDiagnostic: onDiagnostic)
    }

    /// Everything counted so far: the reader's, the decoder's and the engine's part of the ingest table.
    public var statistics: IngestStatistics { pipeline.statistics(with: engine) }

    /// Counts a problem found before reading (see `RunPipeline.recordUnreadable`).
    public func recordUnreadable(_ diagnostic: Diagnostic) {
        pipeline.recordUnreadable(diagnostic)
    }

    /// Reads inputs to their end, in order, feeding every line through the engine. `stopAfter` is asked
    /// after each input with the counters so far; true stops the run there (`--strict`). Returns
    /// whether it stopped.
    @discardableResult
    public func read(
        _ sources: some Sequence<InputSource>, stopAfter: (IngestStatistics) -> Bool = { _ in false }
    ) -> Bool {
        pipeline.read(sources, files: files, stoppingAfter: { _ in stopAfter(statistics) })
    }

    /// Reads one input to its end.
    @discardableResult
    public func read(_ source: InputSource) -> FileReadSummary {
        var summary = FileReadSummary(displayPath: source.displayPath, format: .unreadable, startOffset: 0, firstLineNumber: 1)
        try? pipeline.read([source], files: files) { _, result in summary = result.summary }
        return summary
    }

    /// End of input: closes every open session and returns the finished tables' source.
    public func finish() -> AnalysisAccumulator {
        engine.finish()
        return box.accumulator
    }
}

/// Lets the engine's report closure add to the accumulator the run hands out at the end.
private final class AccumulatorBox {
    var accumulator: AnalysisAccumulator
    init(_ accumulator: AnalysisAccumulator) { self.accumulator = accumulator }
}
