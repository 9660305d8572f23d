/// Receives the lines of one input, in order, as the reader splits them.
///
/// The reader knows nothing of JSON: a line is opaque bytes. The bytes passed to `line` live in the
/// reader's buffer and are valid only during the call; copy what must outlive it.
public protocol LineSink {
    /// One complete line: no `\n`, no trailing `\r`, the UTF-8 byte order mark removed at the start of
    /// the decompressed file. Blank lines are delivered too (the decoder counts them as blank).
    /// `number` is the 1-based line number in the decompressed file, blank lines counted.
    mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64)

    /// A line longer than `ReaderOptions.maxLineBytes`: it was skipped as it streamed by, never held
    /// whole in memory. `byteCount` is its length without the line ending. The reader does not report
    /// it as a diagnostic itself, so that the sink can count and report it once, as a malformed line.
    mutating func oversizedLine(number: Int64, byteCount: Int64)

    /// A line with no `\n` after it: the last of the data, or one a skipped frame or trailing garbage
    /// cut. It may be incomplete (a file still being written), which the nightly job needs to know to
    /// hold it back. The default hands it to `line`. (One over the length limit comes as
    /// `oversizedLine`, as a terminated one does.)
    mutating func unterminatedLine(_ bytes: UnsafeRawBufferPointer, number: Int64)

    /// Offered each line that starts at `bytes` before the reader has looked for its end: a sink that
    /// can tell where the line ends while taking it (the event decoder, from a learned line shape) takes
    /// it and returns its length, and the reader goes on after its terminator without searching for it.
    /// Otherwise it returns nil, and the reader finds the end and calls `line` with the same bytes.
    ///
    /// `readable` bytes may be read, at most `ReaderOptions.maxLineBytes` plus one, so a line taken is
    /// never oversized. A length returned must be that of the whole line as `line` would get it: a `\n`
    /// follows it, or `\r\n`, and no `\n` comes before, and it does not end in `\r` if a `\n` follows.
    /// The default takes no line.
    mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int?
}

extension LineSink {
    public mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? { nil }

    public mutating func unterminatedLine(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        line(bytes, number: number)
    }
}
