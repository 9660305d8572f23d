/// A minute of a recent RFC 3339 `ts`: consecutive events mostly fall in the same minute, and then
/// only the seconds, fraction and offset need reading. The decoder keeps the minute it read last, tried
/// first (a log of one writer and zone costs one comparison), and `places` more, one per hour and
/// parity of the minute (`place`): interleaved writers that write their local time (the same
/// instant as `10:00-08:00` and `19:00+01:00`) or whose clocks straddle a minute each keep theirs.
/// A minute is reused only for the same 16 bytes, which alone give its start (the offset and seconds
/// after them are read on every line), so which place a minute takes changes what is remembered, never
/// a timestamp.
struct RecentMinute {
    /// The first 16 bytes, `YYYY-MM-DDTHH:MM`, as two little-endian words, of a timestamp whose minute
    /// was read and checked. Before any, the epoch's: a held prefix that no timestamp checked (zero
    /// bytes) would let an escaped `ts` of sixteen NULs through as 1970, on the first lines only.
    var prefix: (UInt64, UInt64) = RecentMinute.epochPrefix
    var minuteStart: Int64 = 0

    /// Minutes kept by `place` (which gives every prefix one below it).
    static let places = 128
    /// The decoder's minutes: the last read, then the `places`.
    static let count = places + 1

    /// The place of the minute with the first 16 bytes `prefix`: from the hour's digits (bytes 11 and
    /// 12) and the parity of the minute's last digit (byte 15), whatever those bytes are.
    @inline(__always)
    static func place(_ prefix: (UInt64, UInt64)) -> Int {
        let hourTens = Int(truncatingIfNeeded: (prefix.1 &>> 24) & 0x3)
        let hourUnits = Int(truncatingIfNeeded: (prefix.1 &>> 32) & 0xF)
        let minuteParity = Int(truncatingIfNeeded: (prefix.1 &>> 56) & 0x1)
        return (hourTens &<< 5) | (hourUnits &<< 1) | minuteParity
    }

    static let epochPrefix: (UInt64, UInt64) = {
        let bytes = Array("1970-01-01T00:00".utf8)
        return bytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }()
}
/// The accelerated path's memory (`LineMemory`): the last strings of each field (`RecentStrings`) and
/// recent timestamps' minutes (`RecentMinute`), both owned by the decoder's `FieldTable`.
struct RecentValues: LineMemory {
    let recent: RecentStrings
    /// `RecentMinute.count` minutes: the last read, then the `RecentMinute.places`.
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
            let held = minute + (1 &+ RecentMinute.place(prefix))
            if prefix != held.pointee.prefix {
                switch TimestampParser.minuteStart(text) {
                case .success(let start):
                    held.pointee = RecentMinute(prefix: prefix, minuteStart: start)
                case .failure(let failure):
                    return .failure(failure)
                }
            }
            minute.pointee = held.pointee
        }
        return TimestampParser.parseRest(text, minuteStart: minute.pointee.minuteStart)
    }
}
