import Foundation
@testable import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// A sink that takes lines before their end is known (`LineSink.leadingLine`, as the event decoder does
/// from learned shapes) must see exactly the lines, numbers and verdicts of one that does not, whatever
/// the framing, chunking, line endings and oversized lines; and the reader's counts must not change.
@Suite struct LeadingLineReadingTests {
    /// Decodes every line, taking what a learned shape covers as `AnalysisLineSink` does.
    struct DecodingSink: LineSink {
        var decoder = EventDecoder(learnsLineShapes: true)
        var results: [Result] = []
        var oversized: [CollectingSink.Oversized] = []
        var taken = 0

        struct Result: Equatable {
            var number: Int64
            var line: DecodedLine
        }

        mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
            results.append(Result(number: number, line: decoder.decode(bytes, source: SourceLocation(file: 0, line: number))))
        }

        mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? {
            var event: Event?
            guard let (length, verdict) = decoder.decodeLeadingLine(
                bytes, readable: readable, source: SourceLocation(file: 0, line: number), accept: { event = $0 })
            else { return nil }
            let line: DecodedLine = switch verdict {
            case .blank: .blank
            case .event: event.map { .event($0) } ?? .blank
            case .unknownType(let name): .unknownType(name)
            case .malformed(let problem): .malformed(problem)
            }
            results.append(Result(number: number, line: line))
            taken += 1
            return length
        }

        mutating func oversizedLine(number: Int64, byteCount: Int64) {
            oversized.append(CollectingSink.Oversized(number: number, byteCount: byteCount))
        }
    }

    /// Event lines that repeat one layout with changing values, ended by `\n`, `\r\n` or `\r\r\n`, with
    /// blank lines, a damaged line, and lines over a 400-byte limit (`maxLineBytes` below) among them.
    static let content: [UInt8] = {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        for index in 0..<3_000 {
            let target = index % 97 == 0 ? String(repeating: "t", count: 420) : "canvas"
            var line = #"{"ts":\#(1_795_208_645_123 + index * 7),"session":"s-\#(index % 3)","type":"touch","id":"e\#(index)","#
                + #""phase":"moved","target":"\#(target)","x":\#(index % 1000).5,"y":\#(index * 13 % 1000)}"#
            if index % 211 == 0 { line.removeLast() }
            bytes += Array(line.utf8)
            switch index % 9 {
            case 0: bytes += Array("\r\n".utf8)
            case 1: bytes += Array("\r\r\n".utf8)
            case 2: bytes += Array("\n\n".utf8)
            default: bytes += Array("\n".utf8)
            }
        }
        return bytes + Array(#"{"ts":1,"session":"s","type":"session.end"}"#.utf8)
    }()

    @Test(arguments: InputReaderLineTests.chunkings)
    func plainFile(chunking: (read: Int, decode: Int)) throws {
        try expectSameAsWholeLines(Self.content, chunking: chunking)
    }

    @Test(arguments: InputReaderLineTests.chunkings)
    func zstdFramesInSmallBlocks(chunking: (read: Int, decode: Int)) throws {
        // Blocks of at most 1 KiB (a 1 KiB window) put block ends inside lines and their terminators; three
        // frames put frame ends there too.
        let third = Self.content.count / 3
        var file: [UInt8] = []
        for part in [Self.content[..<third], Self.content[third..<(2 * third)], Self.content[(2 * third)...]] {
            file += try InputFixtures.frame(Array(part), ["--zstd=wlog=10"])
        }
        try expectSameAsWholeLines(file, chunking: chunking)
    }

    /// A frame made unreadable (its first block's type set to the reserved one) cuts the line it falls
    /// in (`endLine`), and a last frame cut in half ends the file inside a frame (`dropPartialLine`).
    @Test(arguments: [(4096, 4096), (128 << 10, 128 << 10)])
    func corruptAndTruncatedFrames(chunking: (read: Int, decode: Int)) throws {
        let quarter = Self.content.count / 4
        var frames: [[UInt8]] = []
        for start in stride(from: 0, to: Self.content.count, by: quarter) {
            let part = Array(Self.content[start..<min(start + quarter, Self.content.count)])
            frames.append(try InputFixtures.frame(part, ["--zstd=wlog=10"]))
        }
        frames[1][6] |= 0x06
        let last = frames.count - 1
        frames[last] = Array(frames[last].prefix(frames[last].count / 2))
        try expectSameAsWholeLines(frames.flatMap { $0 }, chunking: chunking, faults: true)
    }

    /// Lines of exactly the limit and one byte over it, ended by `\n` and by `\r\n`, laid out as the
    /// lines before them, so that a shape could cover them.
    @Test(arguments: InputReaderLineTests.chunkings)
    func linesAtTheLengthLimit(chunking: (read: Int, decode: Int)) throws {
        var bytes: [UInt8] = []
        for index in 0..<400 {
            let head = #"{"ts":\#(1_795_208_645_123 + index),"session":"s","type":"touch","phase":"moved","target":""#
            let tail = #"","x":1,"y":2}"#
            // 400 bytes, the limit below, for a quarter of the lines, 401 for another quarter.
            let padding = index % 4 == 0 ? 400 : index % 4 == 1 ? 401 : 120 + index % 50
            let line = head + String(repeating: "t", count: padding - head.utf8.count - tail.utf8.count) + tail
            bytes += Array(line.utf8) + Array((index % 3 == 0 ? "\r\n" : "\n").utf8)
        }
        try expectSameAsWholeLines(bytes, chunking: chunking)
        try expectSameAsWholeLines(try InputFixtures.frame(bytes, ["--zstd=wlog=10"]), chunking: chunking)
    }

    private func expectSameAsWholeLines(
        _ file: [UInt8], chunking: (read: Int, decode: Int), faults: Bool = false
    ) throws {
        var options = InputReaderLineTests.options(chunking)
        options.maxLineBytes = 400
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try InputFixtures.write(file, named: "input", in: directory)
        let source = InputSource(path: path, displayPath: "input")

        let reference = try InputFixtures.read(source, options: options)
        var general = EventDecoder(learnsLineShapes: false)
        let expected = reference.sink.lines.map { line in
            DecodingSink.Result(
                number: line.number,
                line: line.bytes.withUnsafeBytes { general.decode($0, source: SourceLocation(file: 0, line: line.number)) })
        }

        var sink = DecodingSink()
        var statistics = IngestStatistics()
        var diagnostics: [Diagnostic] = []
        let summary = try InputReader(options: options).read(source, into: &sink, statistics: &statistics) {
            diagnostics.append($0)
        }
        #expect(sink.results == expected)
        #expect(sink.oversized == reference.sink.oversized)
        #expect(!sink.oversized.isEmpty)
        #expect(statistics == reference.statistics)
        #expect(summary == reference.summary)
        #expect(diagnostics == reference.diagnostics)
        #expect(faults == !diagnostics.isEmpty)
        // Lines in place (not straddling a chunk) were mostly taken ahead.
        if chunking.decode >= 4096 { #expect(sink.taken > sink.results.count / 2) }
    }
}
