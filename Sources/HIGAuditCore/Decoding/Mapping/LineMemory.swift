/// What the event mapping may take from earlier lines instead of reading a value again. Results never
/// depend on it: a remembered value stands in only for the very same bytes.
protocol LineMemory {
    /// The `String` of an unescaped string value of the field whose raw value is `slot`.
    func string(slot: Int, start: UnsafePointer<UInt8>, count: Int) -> String
    /// The milliseconds of an RFC 3339 timestamp, as `TimestampParser.parse` reads them.
    func timestamp(_ text: ByteSlice) -> Result<Int64, TimestampParser.Failure>
}

/// No memory: every value is read from its line. The reference path's (`ReferenceDecoder`).
struct PlainReading: LineMemory {
    @inline(__always)
    func string(slot: Int, start: UnsafePointer<UInt8>, count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    @inline(__always)
    func timestamp(_ text: ByteSlice) -> Result<Int64, TimestampParser.Failure> {
        TimestampParser.parse(text)
    }
}
