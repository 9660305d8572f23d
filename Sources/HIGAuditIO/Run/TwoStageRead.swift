import Foundation
import HIGAuditCore

extension InputReader {
    /// Reads one input on two threads: this one reads, decompresses and splits it into lines, which
    /// it copies into chunks (`LineChunkWriter`); a thread of its own decodes them into `target`. For
    /// a large input that no other thread is reading beside: alone, one thread would do both stages
    /// while the other cores wait.
    ///
    /// The decoding stage makes the same calls on the same sink as `read` makes, in the same order
    /// (the reader's diagnostics travel among the lines), so the events, diagnostics and counters are
    /// those of `read`. `target`, `progress` and `diagnostic` are used on the decoding thread only, and
    /// the input's `storedBytes` on this one.
    func readInTwoStages<Target: EventTarget>(
        _ input: FileRead, into target: Target, decoder: inout EventDecoder?,
        progress: ((Int64) -> Void)? = nil, diagnostic: @escaping (Diagnostic) -> Void
    ) -> FileReadResult {
        let chunks = BlockingChannel<LineChunkMessage>(capacity: TwoStageRead.chunksInFlight)
        let spares = BlockingChannel<LineChunk>(capacity: TwoStageRead.chunksInFlight + 1)
        let decoding = TwoStageRead.DecodingStage(
            input: input, target: target, decoder: decoder.take(), progress: progress, diagnostic: diagnostic)
        let thread = Thread { decoding.run(chunks: chunks, spares: spares) }
        thread.stackSize = 8 << 20
        thread.start()

        let writer = LineChunkWriter(channel: chunks, spares: spares)
        var sink = writer
        var statistics = IngestStatistics()
        let summary = read(
            input.source, startingAt: input.resume, into: &sink, statistics: &statistics,
            storedBytes: input.storedBytes, diagnostic: { writer.say($0) })
        writer.finish(summary, statistics)
        let (result, lent) = decoding.wait()
        decoder = lent
        return result
    }
}

/// The parts of `InputReader.readInTwoStages`.
enum TwoStageRead {
    /// Chunks the splitting stage may run ahead of the decoding stage (256 KiB each).
    static let chunksInFlight = 8

    /// The environment variable that sets how large an input must be (stored bytes still to read)
    /// for a reader thread to split it over two threads when no other input waits; 0 splits every
    /// input, whatever waits (for tests).
    static let minimumBytesVariable = "HIG_AUDIT_TWO_STAGE_BYTES"
    /// Below this, a thread's start and the copy of every line cost more than the second core gains.
    static let defaultMinimumBytes: Int64 = 4 << 20

    static func minimumBytes(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int64 {
        environment[minimumBytesVariable].flatMap { Int64($0) }.map { max(0, $0) } ?? defaultMinimumBytes
    }

    /// Stored bytes `read` has still to read; nil when unknown (standard input, or a file that cannot
    /// be examined, which the read itself will report).
    static func bytesToRead(_ read: FileRead) -> Int64? {
        guard let path = read.source.filePath else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size) - (read.resume?.storedOffset ?? 0)
    }

    /// The decoding thread's work and what it gives back: the read's result and the lent decoder.
    final class DecodingStage<Target: EventTarget>: @unchecked Sendable {
        private let input: FileRead
        private let target: Target
        private var decoder: EventDecoder?
        private let progress: ((Int64) -> Void)?
        private let diagnostic: (Diagnostic) -> Void
        private var result: FileReadResult?
        private let done = DispatchSemaphore(value: 0)

        init(
            input: FileRead, target: Target, decoder: EventDecoder?, progress: ((Int64) -> Void)?,
            diagnostic: @escaping (Diagnostic) -> Void
        ) {
            self.input = input
            self.target = target
            self.decoder = decoder
            self.progress = progress
            self.diagnostic = diagnostic
        }

        func run(chunks: BlockingChannel<LineChunkMessage>, spares: BlockingChannel<LineChunk>) {
            var lines = ChunkLines(chunks: chunks, spares: spares, say: diagnostic)
            result = InputReader.analyse(
                input, lines: &lines, into: target, decoder: &decoder, progress: progress, diagnostic: diagnostic)
            done.signal()
        }

        /// The result, and the decoder taken out: the stage may outlive the read (its thread's closure
        /// holds it), and a second reference to the decoder's field table would make the next read
        /// copy the table and lose the learned shapes.
        func wait() -> (FileReadResult, EventDecoder?) {
            done.wait()
            guard let result else { preconditionFailure("the decoding stage ended without a result") }
            return (result, decoder.take())
        }
    }

    /// The lines of the splitting stage's chunks, replayed in order.
    struct ChunkLines: LineSource {
        let chunks: BlockingChannel<LineChunkMessage>
        let spares: BlockingChannel<LineChunk>
        let say: (Diagnostic) -> Void

        func deliver<Sink: LineSink>(into sink: inout Sink, statistics: inout IngestStatistics) -> FileReadSummary {
            while let message = chunks.take() {
                switch message {
                case .chunk(let chunk):
                    chunk.replay(into: &sink, say: say)
                    spares.giveIfRoom(chunk)
                case .finished(let summary, let read):
                    statistics = read
                    return summary
                }
            }
            preconditionFailure("the splitting stage ended without its summary")
        }
    }
}
