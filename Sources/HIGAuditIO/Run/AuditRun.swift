import HIGAuditCore

/// One analysis over a stream of inputs: reader → decoder → session engine → table accumulator.
///
/// A single engine sees every file of the run in order, so a session may continue from one file into
/// the next; each device is its own stream inside it (SPEC §2). The run owns no output: the caller renders the
/// accumulator's tables however it was asked to.
public final class AuditRun {
    public let engine: SessionEngine
    /// The tables' source, up to the sessions closed so far.
    public var accumulator: AnalysisAccumulator { box.accumulator }
    public private(set) var sources = SourceFileTable()
    /// The reader's and decoder's counters; the engine's part is merged in by `statistics`.
    private var inputStatistics = IngestStatistics()
    private let reader: InputReader
    private let onDiagnostic: (Diagnostic) -> Void
    private let box: AccumulatorBox

    /// - Parameters:
    ///   - keepsViolations: false when no `violations` table will be written, so none are stored.
    ///   - onDiagnostic: every problem with the input, as it is found (late events included).
    public init(
        configuration: AuditConfiguration, reader: InputReader, filter: TableFilter = .none,
        keepsViolations: Bool = true, onDiagnostic: @escaping (Diagnostic) -> Void
    ) {
        let enabledRules = RuleRegistry.descriptions.filter(configuration.isEnabled)
        let box = AccumulatorBox(
            AnalysisAccumulator(rules: enabledRules, filter: filter, keepsViolations: keepsViolations))
        let files = SourceFilesBox()
        self.box = box
        self.sourceFiles = files
        self.reader = reader
        self.onDiagnostic = onDiagnostic
        self.engine = SessionEngine(
            configuration: configuration,
            onLate: { event, reason in
                onDiagnostic(Diagnostic(.lateEvent, at: files.table.describe(event.source), reason.message(forEventAt: event.ts)))
            },
            onReport: { report in
                // The related event's file is named now, while the file table is at hand.
                var report = report
                for index in report.violations.indices where report.violations[index].related != nil {
                    report.violations[index].detail = report.violations[index].detail(describing: files.table)
                    report.violations[index].related = nil
                }
                box.accumulator.add(report)
            }
        )
    }

    private let sourceFiles: SourceFilesBox

    /// Called every few thousand lines with the decompressed bytes read so far, for a progress line.
    public var onProgress: ((Int64) -> Void)?

    /// Everything counted so far: the reader's, the decoder's and the engine's part of the ingest table.
    public var statistics: IngestStatistics {
        var merged = inputStatistics
        merged.takeEngineCounters(from: engine.statistics)
        return merged
    }

    /// Counts a problem found before reading (a path that does not exist, a directory that cannot be
    /// listed) so that it shows in the ingest table and the exit status.
    public func recordUnreadable(_ diagnostic: Diagnostic) {
        inputStatistics.faults += 1
        onDiagnostic(diagnostic)
    }

    /// One decoder for every input of the run (see `AnalysisLineSink.decoder`), lent to each file's
    /// sink and taken back: held here meanwhile, its table would not be uniquely referenced, and the
    /// decoder would make itself a new one.
    private var decoder: EventDecoder? = EventDecoder.forRun()

    /// Reads one input to its end, feeding every line through the engine.
    @discardableResult
    public func read(_ source: InputSource) -> FileReadSummary {
        let file = sources.add(source.displayPath)
        sourceFiles.table = sources
        var sink = AnalysisLineSink(
            engine: engine, file: file, displayPath: source.displayPath, statistics: IngestStatistics(),
            decoder: decoder.take() ?? EventDecoder.forRun(), onMalformed: onDiagnostic)
        sink.onProgress = onProgress
        sink.bytesBefore = inputStatistics.decompressedBytes
        let summary = reader.read(source, into: &sink, statistics: &inputStatistics, diagnostic: onDiagnostic)
        decoder = sink.decoder
        inputStatistics.malformedLines += sink.statistics.malformedLines
        for (name, count) in sink.statistics.unknownTypes {
            inputStatistics.unknownTypes[name, default: 0] += count
        }
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

/// Lets the late-event callback name files registered after the engine was made.
private final class SourceFilesBox {
    var table = SourceFileTable()
}
