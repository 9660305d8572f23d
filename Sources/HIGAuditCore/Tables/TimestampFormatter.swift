/// Prints event times as RFC 3339 UTC with milliseconds, e.g. `2026-11-20T21:04:05.123Z` (SPEC §4).
///
/// Written on integers alone (Howard Hinnant's `civil_from_days`) because the core has no Foundation,
/// and so that times before 1970 (negative milliseconds) print correctly: -1 is
/// `1969-12-31T23:59:59.999Z`. Years outside 0000…9999 are printed with more digits or a sign; RFC 3339
/// cannot express them, but a log that carries them should still be readable.
public enum TimestampFormatter {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The bytes `rfc3339(_:into:)` writes.
    public static let rfc3339Width = 24

    /// The timestamp `ms` milliseconds after 1970-01-01T00:00:00Z.
    public static func rfc3339(_ ms: Int64) -> String {
        // Years 0000…9999, every time a log can hold: the 24 bytes written in place, with none of the
        // general path's dozen small strings (four time stamps a violation row).
        let text = String(unsafeUninitializedCapacity: rfc3339Width) { buffer in
            rfc3339(ms, into: buffer.baseAddress!) ? rfc3339Width : 0
        }
        if !text.isEmpty { return text }
        let (date, hour, minute, second, millisecond) = parts(ms)
        return general(date: date, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }

    /// Writes `rfc3339(ms)`, `rfc3339Width` bytes, at `buffer` when its year is 0000…9999 (any time a
    /// log can hold), and says whether it did; for other years it writes nothing (`rfc3339(_:)` prints
    /// them). The table writers format straight into their output's buffer with it.
    public static func rfc3339(_ ms: Int64, into buffer: UnsafeMutablePointer<UInt8>) -> Bool {
        var dates = RecentDate()
        return rfc3339(ms, into: buffer, dates: &dates)
    }

    /// The date part (`YYYY-MM-DD`) last written by `rfc3339(_:into:dates:)` and its day: a table's
    /// time stamps nearly all fall on a few days, so the civil date is worked out once a day, not
    /// once a time stamp.
    public struct RecentDate: Sendable {
        fileprivate var day: Int64 = .min
        fileprivate var bytes: (UInt64, UInt16) = (0, 0)
        public init() {}
    }

    /// `rfc3339(_:into:)`, taking the date part from `dates` when `ms` falls on its day.
    @inline(__always)
    public static func rfc3339(_ ms: Int64, into buffer: UnsafeMutablePointer<UInt8>, dates: inout RecentDate) -> Bool {
        // Floor division without overflow for every Int64, including .min.
        var days = ms / millisecondsPerDay
        var msOfDay = ms % millisecondsPerDay
        if msOfDay < 0 {
            msOfDay += millisecondsPerDay
            days -= 1
        }
        if days != dates.day {
            guard writeDate(civilFromDays(days), into: buffer) else { return false }
            dates.day = days
            dates.bytes = (
                UnsafeRawPointer(buffer).loadUnaligned(as: UInt64.self),
                UnsafeRawPointer(buffer).loadUnaligned(fromByteOffset: 8, as: UInt16.self)
            )
        } else {
            UnsafeMutableRawPointer(buffer).storeBytes(of: dates.bytes.0, as: UInt64.self)
            UnsafeMutableRawPointer(buffer).storeBytes(of: dates.bytes.1, toByteOffset: 8, as: UInt16.self)
        }
        writeTime(hour: msOfDay / 3_600_000, minute: msOfDay / 60_000 % 60, second: msOfDay / 1000 % 60,
                  millisecond: msOfDay % 1000, into: buffer)
        return true
    }

    /// Two digits at a time, on small unsigned values rather than a digit loop on `Int64`.
    @inline(__always)
    private static func two(_ value: UInt32, at offset: Int, in buffer: UnsafeMutablePointer<UInt8>) {
        let tens = value / 10
        buffer[offset] = UInt8(truncatingIfNeeded: 0x30 &+ tens)
        buffer[offset &+ 1] = UInt8(truncatingIfNeeded: 0x30 &+ value &- tens &* 10)
    }

    /// `YYYY-MM-DD` at `buffer`, for years 0000…9999 (false, nothing written, for others).
    @inline(__always)
    private static func writeDate(_ date: (year: Int64, month: Int, day: Int), into buffer: UnsafeMutablePointer<UInt8>) -> Bool {
        guard (0...9999).contains(date.year) else { return false }
        let year = UInt32(truncatingIfNeeded: date.year)
        two(year / 100, at: 0, in: buffer)
        two(year % 100, at: 2, in: buffer)
        buffer[4] = UInt8(ascii: "-")
        two(UInt32(truncatingIfNeeded: date.month), at: 5, in: buffer)
        buffer[7] = UInt8(ascii: "-")
        two(UInt32(truncatingIfNeeded: date.day), at: 8, in: buffer)
        return true
    }

    /// `THH:MM:SS.mmmZ` at `buffer + 10`.
    @inline(__always)
    private static func writeTime(hour: Int64, minute: Int64, second: Int64, millisecond: Int64, into buffer: UnsafeMutablePointer<UInt8>) {
        buffer[10] = UInt8(ascii: "T")
        two(UInt32(truncatingIfNeeded: hour), at: 11, in: buffer)
        buffer[13] = UInt8(ascii: ":")
        two(UInt32(truncatingIfNeeded: minute), at: 14, in: buffer)
        buffer[16] = UInt8(ascii: ":")
        two(UInt32(truncatingIfNeeded: second), at: 17, in: buffer)
        buffer[19] = UInt8(ascii: ".")
        let milliseconds = UInt32(truncatingIfNeeded: millisecond)
        buffer[20] = UInt8(truncatingIfNeeded: 0x30 &+ milliseconds / 100)
        two(milliseconds % 100, at: 21, in: buffer)
        buffer[23] = UInt8(ascii: "Z")
    }

    /// The civil date and time of day of `ms`.
    private static func parts(_ ms: Int64) -> (date: (year: Int64, month: Int, day: Int), hour: Int64, minute: Int64, second: Int64, millisecond: Int64) {
        // Floor division without overflow for every Int64, including .min.
        var days = ms / millisecondsPerDay
        var msOfDay = ms % millisecondsPerDay
        if msOfDay < 0 {
            msOfDay += millisecondsPerDay
            days -= 1
        }
        let date = civilFromDays(days)
        return (date, msOfDay / 3_600_000, msOfDay / 60_000 % 60, msOfDay / 1000 % 60, msOfDay % 1000)
    }

    /// `rfc3339` for any year: more digits, or a sign, where RFC 3339 has no form.
    static func general(date: (year: Int64, month: Int, day: Int), hour: Int64, minute: Int64, second: Int64, millisecond: Int64) -> String {
        var text = date.year < 0 ? "-" + pad(date.year.magnitude, 4) : pad(date.year.magnitude, 4)
        text += "-" + pad(UInt64(date.month), 2) + "-" + pad(UInt64(date.day), 2)
        text += "T" + pad(UInt64(hour), 2) + ":" + pad(UInt64(minute), 2) + ":" + pad(UInt64(second), 2)
        text += "." + pad(UInt64(millisecond), 3) + "Z"
        return text
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    public static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468  // days since 0000-03-01; |days| ≤ 1.1e14, no overflow
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097  // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // [0, 399]
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // [0, 365]
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // [0, 11], March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, Int(month), Int(day))
    }

    private static func pad(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
