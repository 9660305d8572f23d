import HIGAuditCore

/// Reads a run's inputs in order and hands every event to the run's target (the session engine, or
/// what stands in front of it): the one reading loop of `analyze`, `nightly` and `show`.
///
/// With `jobs` above 1, inputs are read and decoded on that many threads, several at a time, while
/// the target gets their events on the run's thread in exactly the order one thread would give them,
/// input after input, with every diagnostic in its place among them. The engine, the rules and the
/// tables therefore see the same stream whatever `jobs` is, and every output is the same, byte for
/// byte. Memory hardly grows with `jobs`: the inputs read ahead share one `ReadAheadBudget` of
/// batches, and the input whose events the target is getting holds a bounded number of its own.
public final class RunPipeline<Target: EventTarget> {
    public let target: Target
    let reader: InputReader
    /// Threads reading inputs; 1 reads on the run's thread.
    public let jobs: Int
    let onDiagnostic: (Diagnostic) -> Void
    /// Called now and then with the decompressed bytes read so far, for a progress line.
    public var onProgress: ((Int64) -> Void)?
    /// The reader's and decoder's counters of the inputs read to their end, and the faults recorded.
    public private(set) var statistics = IngestStatistics()
    /// Inputs whose turn has come (read or not), and the one whose events are reaching the target.
    public private(set) var inputsReached = 0
    public private(set) var currentPath = ""
    /// Batches of events the reader threads made (`BatchPool`), for tests of what memory follows.
    private(set) var batchesMade = 0
    /// The most inputs handed to the reader threads at once, the front one included; for tests.
    private(set) var mostInputsInFlight = 0
    /// The decoder of the run's own thread, lent to each input it reads.
    private var decoder: EventDecoder? = EventDecoder.forRun()

    /// Set for a run over another tool's export (`--from`, SPEC §7). With `jobs` above 1 such a run
    /// reads its inputs on one reader thread, in order, while the run's thread feeds the target: the
    /// importer names sessions by the launches read so far, in input order.
    public var importer: EventImporter? {
        didSet { decoder?.importer = importer }
    }

    public init(target: Target, reader: InputReader, jobs: Int = 1, onDiagnostic: @escaping (Diagnostic) -> Void) {
        self.target = target
        self.reader = reader
        self.jobs = max(1, jobs)
        self.onDiagnostic = onDiagnostic
    }

    /// Counts a problem found before reading (a path that does not exist, a directory that cannot be
    /// listed) so that it shows in the ingest table and the exit status.
    public func recordUnreadable(_ diagnostic: Diagnostic) {
        statistics.faults += 1
        onDiagnostic(diagnostic)
    }

    /// Reads the inputs `next` gives, in its order, until it gives nil.
    ///
    /// - Parameters:
    ///   - next: the next input, asked on this thread, in order; with `jobs` above 1 asked a few inputs
    ///     ahead of the one being read, so an input's `notes` are kept and said when its turn comes.
    ///   - conclude: called on this thread for each input read, after all its events reached the
    ///     target. Throwing stops the run (an input not concluded yet is dropped) and rethrows.
    /// - Throws: also `InterruptedRun`, between inputs and batches, once a signal asked a nightly run
    ///   to stop (`Interruption`).
    public func read(
        _ next: () throws -> PreparedInput?, conclude: (FileRead, FileReadResult) throws -> Void = { _, _ in }
    ) throws {
        if jobs > 1,
           let threads = InputReaderThreads(options: reader.options, count: importer == nil ? jobs : 1, importer: importer) {
            defer { batchesMade += threads.batches.batchesMade }
            try readAhead(next, conclude: conclude, threads: threads)
        } else {
            while let input = try next() {
                try Interruption.checkpoint()
                guard let read = try reach(input) else { continue }
                try readHere(read, conclude: conclude)
            }
        }
    }

    /// Reads `sources` from their start, in order. `stopAfter` is asked after each with its index; true
    /// stops the run there (`--strict`). Returns whether it stopped.
    @discardableResult
    public func read(
        _ sources: some Sequence<InputSource>, files: RunFiles, stoppingAfter stopAfter: (Int) -> Bool
    ) -> Bool {
        var index = 0
        do {
            try read(sources, files: files) { _, _ in
                defer { index += 1 }
                if stopAfter(index) { throw StopReading() }
            }
            return false
        } catch {
            return true
        }
    }

    /// Everything counted so far: the reader's and the decoder's part of the ingest table, and the
    /// engine's from `engine`.
    public func statistics(with engine: SessionEngine) -> IngestStatistics {
        var merged = statistics
        merged.takeEngineCounters(from: engine.statistics)
        return merged
    }

    /// Reads the inputs of `sources` from their start.
    public func read(_ sources: some Sequence<InputSource>, files: RunFiles, conclude: (FileRead, FileReadResult) throws -> Void = { _, _ in }) throws {
        var iterator = sources.makeIterator()
        try read({ iterator.next().map { PreparedInput(read: FileRead(source: $0, file: files.add($0.displayPath))) } }, conclude: conclude)
    }

    /// An input's turn: its notes are said, and what to read returned.
    private func reach(_ input: PreparedInput) throws -> FileRead? {
        let input = try input.atTurn?() ?? input
        inputsReached += 1
        for note in input.notes { note() }
        if let read = input.read { currentPath = read.source.displayPath }
        return input.read
    }

    /// Reads an input on this thread.
    private func readHere(_ read: FileRead, conclude: (FileRead, FileReadResult) throws -> Void) throws {
        let before = statistics.decompressedBytes
        let progress = onProgress.map { report in { (bytes: Int64) in report(before + bytes) } }
        let result = reader.read(read, into: target, decoder: &decoder, progress: progress, diagnostic: onDiagnostic)
        try finish(read, result, conclude: conclude)
    }

    private func finish(
        _ read: FileRead, _ result: FileReadResult, conclude: (FileRead, FileReadResult) throws -> Void
    ) throws {
        statistics.addInputCounters(of: result.statistics)
        onProgress?(statistics.decompressedBytes)
        try conclude(read, result)
    }

    /// How many inputs, the front one included, are handed to `jobs` reader threads whatever their size.
    static func inputsInFlight(jobs: Int) -> Int { 2 * jobs + 1 }

    /// How many while the inputs are small: the ones read lately held less than `smallInputBytes`
    /// stored, on average.
    ///
    /// Small inputs (a layout of one file per upload, a few lines each) are read in microseconds: with
    /// only `inputsInFlight` of them the readers ran out of work at every input and waited for the run's
    /// thread to hand over the next, two threads taking turns rather than working side by side. Larger
    /// inputs keep their readers busy anyway, and each one more in flight would hold its batches too
    /// (memory stays bounded by the `ReadAheadBudget` either way). The sizes are those the reads
    /// counted, so that deciding costs nothing per input.
    static func smallInputsInFlight(jobs: Int) -> Int { 8 * jobs + 1 }
    static var smallInputBytes: Int { 4 << 10 }

    /// `read` with reader threads: inputs are asked for and handed to the threads up to
    /// `inputsInFlight` ahead of the one whose events the target is getting, or `smallInputsInFlight`
    /// when they are small.
    private func readAhead(
        _ next: () throws -> PreparedInput?, conclude: (FileRead, FileReadResult) throws -> Void,
        threads: InputReaderThreads
    ) throws {
        let lookahead = Self.inputsInFlight(jobs: jobs)
        let smallLookahead = Self.smallInputsInFlight(jobs: jobs)
        var queued: [(input: PreparedInput, inFlight: InputInFlight?)] = []
        var front = 0
        var exhausted = false
        defer { threads.shutDown(dropping: queued[front...].compactMap(\.inFlight)) }
        // Stored bytes of the inputs read lately, a moving average; nil until one is read.
        var recentInputBytes: Int?

        func mayAskAhead() -> Bool {
            let inFlight = queued.count - front
            return inFlight < lookahead
                || inFlight < smallLookahead && recentInputBytes.map { $0 < Self.smallInputBytes } == true
        }

        func askAhead() throws {
            // An input decided at its turn holds back those after it.
            while !exhausted, mayAskAhead(), queued.last?.input.atTurn == nil || queued.count == front {
                guard let input = try next() else {
                    exhausted = true
                    return
                }
                let inFlight = input.atTurn == nil ? input.read.map { InputInFlight($0, budget: threads.budget) } : nil
                if let inFlight { threads.submit(inFlight) }
                queued.append((input, inFlight))
                mostInputsInFlight = max(mostInputsInFlight, queued.count - front)
            }
        }

        try askAhead()
        while front < queued.count {
            try Interruption.checkpoint()
            let (input, inFlight) = queued[front]
            guard let inFlight else {
                // Nothing read ahead: nothing to read, or decided only now, and then read here, as the
                // reader threads may all be waiting with inputs after it.
                if let read = try reach(input) { try readHere(read, conclude: conclude) }
                front += 1
                try askAhead()
                continue
            }
            threads.budget.makeFront(inFlight)
            guard let read = try reach(input) else {
                // Dropped: its reader, no longer waiting for the budget, is refused from now on, and
                // the batches it handed over give their share of the budget back.
                inFlight.messages.close()
                while let message = inFlight.messages.takeIfAny() {
                    if case .batch(let batch) = message, batch.holdsBudget { threads.budget.giveBack() }
                }
                front += 1
                continue
            }
            let before = statistics.decompressedBytes
            var result: FileReadResult?
            while result == nil, let message = inFlight.messages.take() {
                switch message {
                case .batch(let batch):
                    batch.drain(into: target, say: onDiagnostic)
                    onProgress?(before + batch.bytesInInput)
                    if batch.holdsBudget { threads.budget.giveBack() }
                    threads.batches.giveBack(batch)
                case .finished(let finished):
                    result = finished
                }
                try askAhead()
                try Interruption.checkpoint()
            }
            guard let result else { preconditionFailure("a reader thread ended an input without its result") }
            try finish(read, result, conclude: conclude)
            let bytes = Int(clamping: min(result.statistics.compressedBytes, 1 << 40))
            recentInputBytes = recentInputBytes.map { (3 * $0 + bytes) / 4 } ?? bytes
            front += 1
            if front >= 64 {
                queued.removeFirst(front)
                front = 0
            }
            try askAhead()
        }
    }
}

/// Thrown by a run's `conclude` to stop reading after an input.
struct StopReading: Error {}
