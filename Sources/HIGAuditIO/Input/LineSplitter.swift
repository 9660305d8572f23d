#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a stream of decompressed bytes into lines, in one buffer that `read(2)` writes into directly,
/// or where zstd decoded them (`acceptInPlace`), and hands each line to the sink as a slice of memory.
///
/// Only the current partial line is kept between fills, so memory is bounded by the line limit plus
/// two fill chunks, whatever the file size or line count. A line that grows past the limit is not
/// kept at all: its bytes are counted as they stream by until its `\n`.
struct LineSplitter {
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    /// The part of the buffer fills stay in while lines are short (`space`): a buffer sized for long
    /// lines is walked no further than one for lines of at most 1 MiB, so that its memory is touched
    /// only when a line needs it.
    private let window: Int
    private let maxLineBytes: Int
    private let fillBytes: Int
    /// Start of the current (partial) line in the buffer.
    private var lineStart = 0
    /// End of the bytes received so far.
    private var end = 0
    /// Length so far of a line over the limit, or -1 when not inside one.
    private var oversizedBytes: Int64 = -1
    private var oversizedEndsInCR = false
    /// The first line of a file read from its start may begin with a byte order mark (SPEC §2).
    private var byteOrderMarkPending: Bool

    /// The number the next line will get.
    private(set) var nextLineNumber: Int64
    /// Lines handed to the sink (oversized ones included).
    private(set) var linesDelivered: Int64 = 0
    /// Decompressed offset just after the last byte received.
    private(set) var decompressedOffset: Int64
    /// Decompressed offset just after the last `\n`.
    private(set) var lastLineEnd: Int64

    /// The buffer size a splitter with these limits needs.
    static func bufferBytes(maxLineBytes: Int, fillBytes: Int) -> Int {
        // The partial line (limit, a possible `\r`, a byte order mark) plus two fills.
        maxLineBytes + 1 + 3 + 2 * fillBytes
    }

    init(
        buffer: UnsafeMutableRawBufferPointer, maxLineBytes: Int, fillBytes: Int,
        firstLineNumber: Int64, decompressedOffset: Int64
    ) {
        self.buffer = buffer.baseAddress!
        self.capacity = buffer.count
        self.window = min(buffer.count, Self.bufferBytes(maxLineBytes: min(maxLineBytes, 1 << 20), fillBytes: fillBytes))
        self.maxLineBytes = maxLineBytes
        self.fillBytes = fillBytes
        self.nextLineNumber = firstLineNumber
        self.decompressedOffset = decompressedOffset
        self.lastLineEnd = decompressedOffset
        self.byteOrderMarkPending = decompressedOffset == 0
    }

    /// True when no partial line is pending: the next byte starts a new line.
    var atLineStart: Bool { end == lineStart && oversizedBytes < 0 }

    /// Room for the next fill (at least `fillBytes`), moving the partial line to the front if needed,
    /// or once the fills would leave the window and a partial line that is not at the front yet can
    /// move there.
    mutating func space() -> UnsafeMutableRawBufferPointer {
        if capacity - end < fillBytes || (window - end < fillBytes && lineStart > 0) {
            let partial = end - lineStart
            if partial > 0 { memmove(buffer, buffer + lineStart, partial) }
            lineStart = 0
            end = partial
        }
        return UnsafeMutableRawBufferPointer(start: buffer + end, count: min(fillBytes, capacity - end))
    }

    /// Takes `count` new bytes just written at the start of `space()` and delivers every line they end.
    mutating func accept<Sink: LineSink>(_ count: Int, into sink: inout Sink) {
        guard count > 0 else { return }
        var scan = end
        let stop = end + count
        end = stop
        decompressedOffset += Int64(count)

        if byteOrderMarkPending {
            if stop - lineStart >= 3 {
                if buffer.load(fromByteOffset: lineStart, as: UInt8.self) == 0xEF
                    && buffer.load(fromByteOffset: lineStart + 1, as: UInt8.self) == 0xBB
                    && buffer.load(fromByteOffset: lineStart + 2, as: UInt8.self) == 0xBF {
                    lineStart += 3
                    scan = max(scan, lineStart)
                }
                byteOrderMarkPending = false
            } else if memchr(buffer + scan, 0x0A, stop - scan) != nil {
                byteOrderMarkPending = false
            } else {
                return
            }
        }

        var sawLineEnd = false
        if oversizedBytes >= 0 {
            guard let newline = memchr(buffer + scan, 0x0A, stop - scan) else {
                oversizedBytes += Int64(stop - scan)
                oversizedEndsInCR = buffer.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D
                end = lineStart
                return
            }
            let index = buffer.distance(to: newline)
            var length = oversizedBytes + Int64(index - scan)
            let endsInCR = index > scan
                ? buffer.load(fromByteOffset: index - 1, as: UInt8.self) == 0x0D : oversizedEndsInCR
            if endsInCR { length -= 1 }
            sink.oversizedLine(number: nextLineNumber, byteCount: length)
            nextLineNumber += 1
            linesDelivered += 1
            oversizedBytes = -1
            lineStart = index + 1
            scan = lineStart
            sawLineEnd = true
        }

        while scan < stop {
            // Where the last line ended: a line the sink takes starts there.
            if scan == lineStart, let next = offerLeadingLine(UnsafeRawPointer(buffer), at: lineStart, count: stop, into: &sink) {
                lineStart = next
                scan = next
                sawLineEnd = true
                continue
            }
            guard let newline = memchr(buffer + scan, 0x0A, stop - scan) else { break }
            let index = buffer.distance(to: newline)
            deliver(from: lineStart, to: index, into: &sink)
            lineStart = index + 1
            scan = lineStart
            sawLineEnd = true
        }
        if sawLineEnd { lastLineEnd = decompressedOffset - Int64(stop - lineStart) }

        // Still no `\n` and already too long even if the last byte turns out to be a `\r`.
        if stop - lineStart > maxLineBytes + 1 {
            oversizedBytes = Int64(stop - lineStart)
            oversizedEndsInCR = buffer.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D
            end = lineStart
        }
    }

    /// Takes `count` decompressed bytes that lie outside the buffer (zstd's window ring, see
    /// `DecodingRing`) and delivers every line they end. The lines wholly inside them are handed to the
    /// sink where they lie; the line in progress before them, and the one they leave unfinished, go
    /// through the buffer as with `accept`, which alone deals with byte order marks and oversized lines.
    mutating func acceptInPlace<Sink: LineSink>(_ bytes: UnsafeRawPointer, count: Int, into sink: inout Sink) {
        var first = 0
        if !atLineStart || byteOrderMarkPending {
            first = memchr(bytes, 0x0A, count).map { UnsafeRawPointer($0) - bytes + 1 } ?? count
            copyIn(bytes, count: first, into: &sink)
        }
        var lineStart = first
        while lineStart < count {
            if let next = offerLeadingLine(bytes, at: lineStart, count: count, into: &sink) {
                lineStart = next
                continue
            }
            guard let newline = memchr(bytes + lineStart, 0x0A, count - lineStart) else { break }
            let index = UnsafeRawPointer(newline) - bytes
            deliver(bytes, from: lineStart, to: index, into: &sink)
            lineStart = index + 1
        }
        if lineStart > first {
            decompressedOffset += Int64(lineStart - first)
            lastLineEnd = decompressedOffset
        }
        copyIn(bytes + lineStart, count: count - lineStart, into: &sink)
    }

    /// Copies bytes into the buffer, a fill at a time, as if read there.
    private mutating func copyIn<Sink: LineSink>(_ bytes: UnsafeRawPointer, count: Int, into sink: inout Sink) {
        var copied = 0
        while copied < count {
            let space = space()
            let step = min(space.count, count - copied)
            space.baseAddress!.copyMemory(from: bytes + copied, byteCount: step)
            copied += step
            accept(step, into: &sink)
        }
    }

    /// Offers the line at `start` to the sink (`LineSink.leadingLine`); if it takes it, counts it and
    /// returns where the next line starts.
    @inline(__always)
    private mutating func offerLeadingLine<Sink: LineSink>(
        _ bytes: UnsafeRawPointer, at start: Int, count: Int, into sink: inout Sink
    ) -> Int? {
        let readable = min(count &- start, maxLineBytes &+ 1)
        guard let length = sink.leadingLine(bytes + start, readable: readable, number: nextLineNumber) else { return nil }
        let end = start &+ length
        let terminator = bytes.load(fromByteOffset: end, as: UInt8.self) == 0x0D ? 2 : 1
        assert(memchr(bytes + start, 0x0A, length &+ terminator) == bytes + (end &+ terminator &- 1), "not a whole line")
        nextLineNumber &+= 1
        linesDelivered &+= 1
        return end &+ terminator
    }

    @inline(__always)
    private mutating func deliver<Sink: LineSink>(from start: Int, to newline: Int, into sink: inout Sink) {
        deliver(UnsafeRawPointer(buffer), from: start, to: newline, into: &sink)
    }

    /// Delivers the line from `start` up to `newline` (its `\n`, or the end of the data when it is not
    /// `terminated`), less one `\r` at its end.
    @inline(__always)
    private mutating func deliver<Sink: LineSink>(
        _ bytes: UnsafeRawPointer, from start: Int, to newline: Int, into sink: inout Sink, terminated: Bool = true
    ) {
        var stop = newline
        if stop > start && bytes.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D { stop -= 1 }
        let length = stop - start
        let line = UnsafeRawBufferPointer(start: bytes + start, count: length)
        if length > maxLineBytes {
            sink.oversizedLine(number: nextLineNumber, byteCount: Int64(length))
        } else if terminated {
            sink.line(line, number: nextLineNumber)
        } else {
            sink.unterminatedLine(line, number: nextLineNumber)
        }
        nextLineNumber += 1
        linesDelivered += 1
    }

    /// Ends the partial line here and delivers it, as at the end of the data or where a skipped frame
    /// cuts it; returns whether there was one. Data after this starts a new line.
    @discardableResult
    mutating func endLine<Sink: LineSink>(into sink: inout Sink) -> Bool {
        byteOrderMarkPending = false
        if oversizedBytes >= 0 {
            let length = oversizedBytes - (oversizedEndsInCR ? 1 : 0)
            sink.oversizedLine(number: nextLineNumber, byteCount: length)
            nextLineNumber += 1
            linesDelivered += 1
            oversizedBytes = -1
            lineStart = end
            return true
        }
        guard end > lineStart else { return false }
        deliver(UnsafeRawPointer(buffer), from: lineStart, to: end, into: &sink, terminated: false)
        lineStart = end
        return true
    }

    /// Forgets the partial line (a truncated upload will complete it later); returns its length.
    mutating func dropPartialLine() -> Int64 {
        byteOrderMarkPending = false
        let dropped: Int64
        if oversizedBytes >= 0 {
            dropped = oversizedBytes
            oversizedBytes = -1
        } else {
            dropped = Int64(end - lineStart)
        }
        lineStart = end
        return dropped
    }
}
