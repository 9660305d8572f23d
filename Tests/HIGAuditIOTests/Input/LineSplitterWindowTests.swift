import Testing
@testable import HIGAuditIO

/// A splitter sized for an export's long lines (`ReaderOptions.exportLineBytes`) fills no further into
/// its buffer than one sized for a log's while lines are short, so that a large limit costs memory
/// only when a line is long; long lines still arrive whole, and lines over the limit oversized.
@Suite struct LineSplitterWindowTests {
    static let fill = 4 << 10
    static let limit = 3 << 20

    /// Feeds `text` a fill at a time and returns the lines, the oversized lengths, and the furthest
    /// place in the buffer each fill reached while the line under way was at most `shortLine` long.
    static func split(_ text: [UInt8], shortLine: Int) -> (lines: [Int], oversized: [Int64], furthestShortFill: Int) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: LineSplitter.bufferBytes(maxLineBytes: limit, fillBytes: fill), alignment: 64)
        defer { buffer.deallocate() }
        var splitter = LineSplitter(buffer: buffer, maxLineBytes: limit, fillBytes: fill, firstLineNumber: 1, decompressedOffset: 0)
        var sink = CollectingSink()
        // Each line's end (its `\n`); the line under way at a fill is the first whose end is past it.
        let ends = text.indices.filter { text[$0] == 0x0A }
        var furthest = 0
        var offset = 0
        var line = 0
        while offset < text.count {
            let space = splitter.space()
            let count = min(space.count, text.count - offset, fill)
            text.withUnsafeBytes { space.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            let reach = buffer.baseAddress!.distance(to: space.baseAddress!) + count
            while line < ends.count, ends[line] < offset { line += 1 }
            let start = line == 0 ? 0 : ends[line - 1] + 1
            let end = line < ends.count ? ends[line] : text.count
            if end - start <= shortLine { furthest = max(furthest, reach) }
            offset += count
            splitter.accept(count, into: &sink)
        }
        return (sink.lines.map(\.bytes.count), sink.oversized.map(\.byteCount), furthest)
    }

    @Test func shortLinesStayInALogsWindowAndLongOnesArriveWhole() {
        let short = Array(repeating: UInt8(ascii: "a"), count: 300) + [0x0A]
        var text: [UInt8] = []
        for _ in 0..<20_000 { text += short }
        text += Array(repeating: UInt8(ascii: "b"), count: 2 << 20) + [0x0A]
        for _ in 0..<20_000 { text += short }
        text += Array(repeating: UInt8(ascii: "c"), count: Self.limit + 10) + [0x0A]
        for _ in 0..<100 { text += short }
        let (lines, oversized, furthest) = Self.split(text, shortLine: 300)
        #expect(lines == Array(repeating: 300, count: 20_000) + [2 << 20] + Array(repeating: 300, count: 20_100))
        #expect(oversized == [Int64(Self.limit + 10)])
        let window = LineSplitter.bufferBytes(maxLineBytes: 1 << 20, fillBytes: Self.fill)
        #expect(furthest <= window, "fills of short lines reached \(furthest) bytes into the buffer, past \(window)")
        #expect(furthest > window - 2 * Self.fill, "the window is used whole before the partial line moves")
    }
}
