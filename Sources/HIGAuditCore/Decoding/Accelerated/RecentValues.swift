/// The minute of the last RFC 3339 `ts`: consecutive events mostly fall in the same minute, and then
/// only the seconds, fraction and offset need reading.
struct RecentMinute {
    /// The first 16 bytes, `YYYY-MM-DDTHH:MM`, as two little-endian words, of a timestamp whose minute
    /// was read and checked. Before any, the epoch's: a held prefix that no timestamp checked (zero
    /// bytes) would let an escaped `ts` of sixteen NULs through as 1970, on the first lines only.
    var prefix: (UInt64, UInt64) = RecentMinute.epochPrefix
    var minuteStart: Int64 = 0

    static let epochPrefix: (UInt64, UInt64) = {
        let bytes = Array("1970-01-01T00:00".utf8)
        return bytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }()
}
/// The accelerated path's memory (`LineMemory`): the last string of each field (`RecentStrings`) and the
/// last timestamp's minute (`RecentMinute`), both owned by the decoder's `FieldTable`.
struct RecentValues: LineMemory {
    let recent: RecentStrings
    let minute: UnsafeMutablePointer<RecentMinute>

    @inline(__always)
    func string(slot: Int, start: UnsafePointer<UInt8>, count: Int) -> String {
        recent.string(slot: slot, start: start, count: count)
    }

    /// `TimestampParser.parse`, skipping the date and minute when they are those of the last `ts`.
    @inline(__always)
    func timestamp(_ text: ByteSlice) -> Result<Int64, TimestampParser.Failure> {
        guard text.count >= 19 else { return TimestampParser.parse(text) }
        let raw = UnsafeRawPointer(text.start)
        let prefix = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if prefix != minute.pointee.prefix {
            switch TimestampParser.minuteStart(text) {
            case .success(let start):
                minute.pointee = RecentMinute(prefix: prefix, minuteStart: start)
            case .failure(let failure):
                return .failure(failure)
            }
        }
        return TimestampParser.parseRest(text, minuteStart: minute.pointee.minuteStart)
    }
}
