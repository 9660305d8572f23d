/// The minute of the last RFC 3339 time an importer read (as `RecentMinute` is the decoder's), so that
/// a time in the same minute as the last (most events follow one within seconds) has only its seconds
/// and offset read.
///
/// `TimestampParser.parse` is `minuteStart` (a function of the first 16 bytes, `YYYY-MM-DDTHH:MM`, once
/// at least 19 bytes are there) followed by `parseRest`; a time whose first 16 bytes equal those of a
/// time whose `minuteStart` succeeded gets that same start, so the result is `parse`'s exactly. Failed
/// starts are not kept.
struct RecentExportMinute {
    private var prefix: (UInt64, UInt64) = (0, 0)
    private var start: Int64 = 0
    private var holdsMinute = false

    /// `TimestampParser.parse(rfc3339:)` of `text`.
    mutating func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let base = text.baseAddress, text.count >= 19 else {
            return TimestampParser.parse(rfc3339: UnsafeRawBufferPointer(text))
        }
        let slice = ByteSlice(start: base, count: text.count)
        let raw = UnsafeRawPointer(base)
        let first = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if !holdsMinute || first != prefix {
            guard case .success(let minute) = TimestampParser.minuteStart(slice) else { return nil }
            prefix = first
            start = minute
            holdsMinute = true
        }
        guard case .success(let milliseconds) = TimestampParser.parseRest(slice, minuteStart: start) else { return nil }
        return milliseconds
    }
}
