/// An integer `ts` counts milliseconds since the Unix epoch (SPEC §2). A writer that sends seconds
/// (`Date().timeIntervalSince1970` rounded, Python's `int(time.time())`, `date +%s`) is read without a
/// complaint, but every event lands in the epoch's first weeks and every duration shrinks a
/// thousandfold, so rules with time windows go silently wrong. This time range is where such
/// values land: seconds from 2001-09-09 (10 digits) up to the year 5138 read as milliseconds between
/// 1970-01-12 and 1973-03-03, a span in which no iOS device logged anything.
public enum SuspectTimestamp {
    static let range: Range<Int64> = 1_000_000_000..<100_000_000_000
    /// A time outside `range`, for a line that handed over no event.
    public static let unsuspected: Int64 = 0

    @inline(__always)
    public static func looksLikeSeconds(_ ts: Int64) -> Bool {
        UInt64(bitPattern: ts &- range.lowerBound) < UInt64(range.upperBound - range.lowerBound)
    }

    public static func message(_ ts: Int64) -> String {
        "ts reads as \(TimestampFormatter.rfc3339(ts)) (\(ts) ms since the epoch), in the Unix epoch's first "
            + "years; if the writer sends seconds (as seconds it would be \(TimestampFormatter.rfc3339(ts &* 1000))), "
            + "ts must be milliseconds. The file's events are read as written (said once per file in a run)"
    }
}
