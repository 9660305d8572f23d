import HIGAuditCore

/// Lines of one input copied out of the reader's buffers, with the reader's diagnostics among them,
/// so that one thread can decompress and split a file while another decodes it (`TwoStageRead`).
/// Replaying a chunk into a sink makes exactly the calls the reader made, in the same order, so
/// the sink cannot tell the two stages from one.
final class LineChunk: @unchecked Sendable {
    /// Bytes a chunk holds before it is handed over; a longer line (up to the reader's limit) gets a
    /// chunk of its own, grown to fit.
    static let byteCapacity = 256 << 10
    static let lineCapacity = 4096

    private enum Kind {
        case line
        case unterminated
        case oversized
    }

    private struct Entry {
        var kind: Kind
        var start: Int
        /// The line's length; for an oversized line, its length in the input (it is not held).
        var count: Int64
        var number: Int64
    }

    private var bytes: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private var used = 0
    private var entries: [Entry] = []
    /// Each diagnostic with the number of entries before it.
    private var diagnostics: [(entriesBefore: Int, diagnostic: Diagnostic)] = []

    init() {
        capacity = Self.byteCapacity
        bytes = .allocate(byteCount: capacity, alignment: 16)
        entries.reserveCapacity(Self.lineCapacity)
    }

    deinit { bytes.deallocate() }

    var isEmpty: Bool { entries.isEmpty && diagnostics.isEmpty }

    /// Whether a line of `count` bytes fits; an empty chunk grows to take any line, and one grown for
    /// a long line (an export's may be 64 MiB) shrinks back when it is next filled with short ones,
    /// so that the chunks in flight hold long lines only while such lines come.
    func makeRoom(for count: Int) -> Bool {
        if entries.isEmpty && diagnostics.isEmpty && (count > capacity || (capacity > Self.byteCapacity && count <= Self.byteCapacity)) {
            bytes.deallocate()
            capacity = max(count, Self.byteCapacity)
            bytes = .allocate(byteCount: capacity, alignment: 16)
        }
        return entries.count < Self.lineCapacity && used + count <= capacity
    }

    func appendLine(_ line: UnsafeRawBufferPointer, number: Int64) {
        append(line, kind: .line, number: number)
    }

    func appendUnterminatedLine(_ line: UnsafeRawBufferPointer, number: Int64) {
        append(line, kind: .unterminated, number: number)
    }

    func appendOversizedLine(number: Int64, byteCount: Int64) {
        entries.append(Entry(kind: .oversized, start: used, count: byteCount, number: number))
    }

    func append(_ diagnostic: Diagnostic) {
        diagnostics.append((entries.count, diagnostic))
    }

    private func append(_ line: UnsafeRawBufferPointer, kind: Kind, number: Int64) {
        if let source = line.baseAddress { (bytes + used).copyMemory(from: source, byteCount: line.count) }
        entries.append(Entry(kind: kind, start: used, count: Int64(line.count), number: number))
        used += line.count
    }

    private func text(of entry: Entry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes + entry.start, count: Int(entry.count))
    }

    /// Makes the calls the reader made, in order, and leaves the chunk empty for reuse.
    func replay<Sink: LineSink>(into sink: inout Sink, say: (Diagnostic) -> Void) {
        var said = 0
        for index in entries.indices {
            while said < diagnostics.count, diagnostics[said].entriesBefore == index {
                say(diagnostics[said].diagnostic)
                said += 1
            }
            let entry = entries[index]
            switch entry.kind {
            case .line: sink.line(text(of: entry), number: entry.number)
            case .unterminated: sink.unterminatedLine(text(of: entry), number: entry.number)
            case .oversized: sink.oversizedLine(number: entry.number, byteCount: entry.count)
            }
        }
        for index in said..<diagnostics.count { say(diagnostics[index].diagnostic) }
        entries.removeAll(keepingCapacity: true)
        diagnostics.removeAll(keepingCapacity: true)
        used = 0
    }
}

/// What the splitting stage hands the decoding stage: chunks of lines, then the read's end.
enum LineChunkMessage: @unchecked Sendable {
    case chunk(LineChunk)
    /// The reader's summary and counters of the whole read.
    case finished(FileReadSummary, IngestStatistics)
}

/// The splitting stage's sink: copies every line, and the reader's diagnostics in their place among
/// them, into chunks for the decoding stage. A class, so that the reader's diagnostic callback and
/// the sink the reader holds are the one writer.
final class LineChunkWriter: LineSink {
    private let channel: BlockingChannel<LineChunkMessage>
    private let spares: BlockingChannel<LineChunk>
    private var chunk: LineChunk

    init(channel: BlockingChannel<LineChunkMessage>, spares: BlockingChannel<LineChunk>) {
        self.channel = channel
        self.spares = spares
        chunk = spares.takeIfAny() ?? LineChunk()
    }

    func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        makeRoom(for: bytes.count)
        chunk.appendLine(bytes, number: number)
    }

    func unterminatedLine(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        makeRoom(for: bytes.count)
        chunk.appendUnterminatedLine(bytes, number: number)
    }

    func oversizedLine(number: Int64, byteCount: Int64) {
        makeRoom(for: 0)
        chunk.appendOversizedLine(number: number, byteCount: byteCount)
    }

    func say(_ diagnostic: Diagnostic) {
        chunk.append(diagnostic)
    }

    /// Hands over what is left, then the read's summary and counters.
    func finish(_ summary: FileReadSummary, _ statistics: IngestStatistics) {
        if !chunk.isEmpty { handOver() }
        channel.give(.finished(summary, statistics))
    }

    /// A chunk with room for `count` more bytes: the current one, or a fresh one (which grows to fit).
    private func makeRoom(for count: Int) {
        guard !chunk.makeRoom(for: count) else { return }
        handOver()
        _ = chunk.makeRoom(for: count)
    }

    private func handOver() {
        channel.give(.chunk(chunk))
        chunk = spares.takeIfAny() ?? LineChunk()
    }
}
