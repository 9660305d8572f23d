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
            summary = read(
                input.source, startingAt: input.resume, into: &holding, statistics: &statistics,
                storedBytes: input.storedBytes, diagnostic: diagnostic)
            heldBack = holding.finish(resume: summary.resumePoint, forward: tail.forward)
            statistics.lines -= holding.droppedLines + (heldBack ? 1 : 0)
            forwardedThrough = holding.forwardedThrough
            sink = holding.analysis
        } else {
            var reading = analysisSink()
            summary = read(
                input.source, startingAt: input.resume, into: &reading, statistics: &statistics,
                storedBytes: input.storedBytes, diagnostic: diagnostic)
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
