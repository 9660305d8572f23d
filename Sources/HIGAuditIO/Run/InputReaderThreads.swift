import Foundation
import HIGAuditCore

/// One input given to a reader thread, and the channel its batches come back through.
final class InputInFlight: @unchecked Sendable {
    let read: FileRead
    /// Bounded by the `ReadAheadBudget` while the input is read ahead, and by
    /// `ReadAheadBudget.frontBatches` once it is the front, which the budget does not bound.
    let messages: BlockingChannel<InputMessage>
    /// Whether the run's thread takes this input's events now; set by `ReadAheadBudget.makeFront`, read
    /// under its lock.
    var isFront = false

    init(_ read: FileRead, budget: ReadAheadBudget) {
        self.read = read
        // One more than the budget: an input holding the whole budget can still hand over its result.
        messages = BlockingChannel(capacity: budget.batches + 1)
    }
}

/// The threads that read and decode inputs for `--jobs`: each takes the next input submitted, reads
/// it with its own reader and decoder (neither is thread-safe, and a decoder's learned line shapes
/// serve every input its thread reads), and hands the events over in batches. Decoding is a function
/// of a line's bytes alone, so which thread decodes an input changes nothing in what comes out.
///
/// A thread that takes a large input while no other waits (one large file, or the last of several)
/// reads it in two stages (`InputReader.readInTwoStages`): it decompresses and splits, and a thread
/// of the input's own decodes, so that the cores the other inputs left idle share the work.
///
/// An export (`--from`) is read by one thread whose decoder carries the run's importer: the importer
/// names sessions by the launches read so far, so it must see the inputs one after another, in order,
/// which the one thread taking them as submitted does; the run's thread still feeds the engine.
final class InputReaderThreads: @unchecked Sendable {
    private let waiting = BlockingChannel<InputInFlight>()
    /// Batches to fill, and those the run's thread has emptied, for reuse.
    let batches = BatchPool()
    /// What the inputs behind the front may hold, together.
    let budget = ReadAheadBudget()
    private let finished = NSCondition()
    private var running: Int
    /// Inputs with at least this many stored bytes to read are read in two stages when nothing waits.
    private let twoStageMinimumBytes: Int64
    /// The run's importer (`--from`), given to the decoder of the one thread there is then.
    private let importer: EventImporter?

    /// Nil when a reader cannot be made (the options were accepted once, so only for lack of memory):
    /// the run then reads on its own thread. With an `importer`, `count` must be 1.
    init?(
        options: ReaderOptions, count: Int, importer: EventImporter? = nil,
        twoStageMinimumBytes: Int64 = TwoStageRead.minimumBytes()
    ) {
        precondition(importer == nil || count == 1, "an importer reads its inputs in order, on one thread")
        self.twoStageMinimumBytes = twoStageMinimumBytes
        self.importer = importer
        var readers: [InputReader] = []
        for _ in 0..<count {
            guard let reader = try? InputReader(options: options) else { return nil }
            readers.append(reader)
        }
        running = count
        for reader in readers {
            let owned = ThreadOwned(reader)
            let thread = Thread { [self] in work(with: owned.value) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    func submit(_ input: InputInFlight) {
        waiting.give(input)
    }

    /// Stops taking inputs and waits for every thread to end. Inputs not read yet, or read only in
    /// part (the run stopped early), are dropped.
    func shutDown(dropping unread: [InputInFlight]) {
        for input in unread { input.messages.close() }
        budget.close()
        waiting.close()
        finished.lock()
        while running > 0 { finished.wait() }
        finished.unlock()
    }

    private func work(with reader: InputReader) {
        var decoder: EventDecoder? = EventDecoder.forRun()
        decoder?.importer = importer
        while let input = waiting.take() {
            guard !input.messages.isClosed else { continue }
            let batcher = EventBatcher(input: input, batches: batches, budget: budget)
            let result = if readsInTwoStages(input.read) {
                reader.readInTwoStages(
                    input.read, into: batcher, decoder: &decoder, progress: { batcher.bytesInInput = $0 },
                    diagnostic: { batcher.say($0) })
            } else {
                reader.read(
                    input.read, into: batcher, decoder: &decoder, progress: { batcher.bytesInInput = $0 },
                    diagnostic: { batcher.say($0) })
            }
            batcher.finish(result)
        }
        finished.lock()
        running -= 1
        finished.broadcast()
        finished.unlock()
    }
}

extension InputReaderThreads {
    /// Whether a thread taking `read` now splits it: nothing else waits for a thread, and it is large
    /// (or of unknown size: standard input). A minimum of 0 splits every input (for tests).
    private func readsInTwoStages(_ read: FileRead) -> Bool {
        guard twoStageMinimumBytes == 0 || waiting.isEmpty else { return false }
        guard let bytes = TwoStageRead.bytesToRead(read) else { return read.source.filePath == nil }
        return bytes >= twoStageMinimumBytes
    }
}

/// A value handed to the one thread that will use it from then on.
private struct ThreadOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
