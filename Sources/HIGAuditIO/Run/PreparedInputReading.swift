import HIGAuditCore

extension InputReader {
    /// Reads one prepared input to its end, every event to `target`: the one way every run, and every
    /// `--jobs` worker, reads an input, so that they count and report alike.
    ///
    /// - Parameters:
    ///   - decoder: lent for the read and given back: one decoder (and its learned line shapes) serves
    ///     every input a thread reads. A decoder made and freed per file left holes in the heap that
    ///     the engine's long-lived session buffers filled.
    ///   - progress: called every few thousand lines with the decompressed bytes read in this input.
    ///
    /// Specialised for the engine and the reader threads' batches, so that the reading loop calls the
    /// sink and the target directly: reached from a generic class (`RunPipeline`) or from another
    /// module (the nightly job), the generic body would run unspecialised.
    @_specialize(where Target == SessionEngine)
    @_specialize(where Target == EventBatcher)
    func read<Target: EventTarget>(
        _ input: FileRead, into target: Target, decoder: inout EventDecoder?,
        progress: ((Int64) -> Void)? = nil, diagnostic: @escaping (Diagnostic) -> Void
    ) -> FileReadResult {
        var lines = ReaderLines(reader: self, input: input, diagnostic: diagnostic)
        return Self.analyse(input, lines: &lines, into: target, decoder: &decoder, progress: progress, diagnostic: diagnostic)
    }

    /// The lines of `input`, from `lines`, decoded into `target`, with the nightly job's tail handling
    /// when the input asks for it. `diagnostic` takes the decoder's malformed-line reports.
    static func analyse<Target: EventTarget, Lines: LineSource>(
        _ input: FileRead, lines: inout Lines, into target: Target, decoder: inout EventDecoder?,
        progress: ((Int64) -> Void)?, diagnostic: @escaping (Diagnostic) -> Void
    ) -> FileReadResult {
        var statistics = IngestStatistics()
        // The sink is made where it is used, never kept beside the one reading: a second reference
        // to the lent decoder's field table would make its first write copy the table (copy on
        // write), once per file.
        func analysisSink() -> AnalysisLineSink<Target> {
            var sink = AnalysisLineSink(
                target: target, file: input.file, displayPath: input.source.displayPath,
                decoder: decoder.take() ?? EventDecoder.forRun(), onMalformed: diagnostic)
            sink.onProgress = progress
            return sink
        }
        let summary: FileReadSummary
        var heldBack = false
        var forwardedThrough: Int64
        let sink: AnalysisLineSink<Target>
        if let tail = input.tail {
            var holding = TailHoldingSink(analysis: analysisSink(), countedThrough: tail.countedThrough)
            summary = lines.deliver(into: &holding, statistics: &statistics)
            heldBack = holding.finish(resume: summary.resumePoint, forward: tail.forward)
            statistics.lines -= holding.droppedLines + (heldBack ? 1 : 0)
            forwardedThrough = holding.forwardedThrough
            sink = holding.analysis
        } else {
            var reading = analysisSink()
            summary = lines.deliver(into: &reading, statistics: &statistics)
            forwardedThrough = (input.resume?.linesBefore ?? 0) + summary.lines
            sink = reading
        }
        decoder = sink.decoder
        statistics.malformedLines += sink.statistics.malformedLines
        for (name, count) in sink.statistics.unknownTypes { statistics.unknownTypes[name, default: 0] += count }
        return FileReadResult(
            summary: summary, statistics: statistics, heldBack: heldBack, forwardedThrough: forwardedThrough)
    }
}

/// Where the lines of one input come from: the reader itself, or the chunks of a reader on another
/// thread (`TwoStageRead`). Either delivers every line to the sink once, in order, with the reader's
/// diagnostics in their place, and gives the reader's summary and counters.
protocol LineSource {
    mutating func deliver<Sink: LineSink>(into sink: inout Sink, statistics: inout IngestStatistics) -> FileReadSummary
}

/// An input's lines read here, by `reader`.
struct ReaderLines: LineSource {
    let reader: InputReader
    let input: FileRead
    let diagnostic: (Diagnostic) -> Void

    func deliver<Sink: LineSink>(into sink: inout Sink, statistics: inout IngestStatistics) -> FileReadSummary {
        reader.read(
            input.source, startingAt: input.resume, into: &sink, statistics: &statistics,
            storedBytes: input.storedBytes, diagnostic: diagnostic)
    }
}
