/// One line of a test stream where `LineSplitter` cuts it: up to the `\n`, less one `\r` before it.
struct SplitLine {
    let stream: UnsafeRawBufferPointer
    /// The line's first byte.
    let start: Int
    /// One past its last byte, before the `\r\n` or `\n`.
    let end: Int
    /// Its `\n`.
    let newline: Int

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: stream[start..<end]) }
    /// Where a leading-line decode starts, with `restOfStream` bytes readable from there.
    var head: UnsafeRawPointer { stream.baseAddress! + start }
    var restOfStream: Int { stream.count - start }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension Array where Element == UInt8 {
    /// Calls `body` with each `\n`-terminated line of the stream, in order, as the line splitter
    /// delivers them.
    func forEachSplitLine(_ body: (SplitLine) -> Void) {
        withUnsafeBytes { stream in
            var start = 0
            while start < stream.count {
                let newline = stream[start...].firstIndex(of: 0x0A)!
                var end = newline
                if end > start && stream[end - 1] == 0x0D { end -= 1 }
                body(SplitLine(stream: stream, start: start, end: end, newline: newline))
                start = newline + 1
            }
        }
    }
}
