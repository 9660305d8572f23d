/// Reads RFC 3339 timestamps (`2026-11-20T21:04:05.123Z`) into milliseconds since the Unix epoch.
///
/// Integer arithmetic only (days from the civil date), no calendar library: this runs once per event.
/// - `T`/`t` and `Z`/`z` are accepted, and so is a space between date and time: RFC 3339 (§5.6, note)
///   lets applications write one for readability, and writers do (PostgreSQL, Python's
///   `str(datetime)`). The offset may be `Z` or `±HH:MM` up to ±23:59 (`-00:00` too).
/// - 0–9 fraction digits, truncated (not rounded) to milliseconds; more digits, or a `.` without
///   digits, are rejected.
/// - Real calendar validation: month 1–12, day within its month (leap years by the Gregorian rule),
///   hour ≤ 23, minute ≤ 59.
/// - A leap second (`:60`, which RFC 3339 allows) is read as the last millisecond of that minute
///   (`:59.999`, its fraction ignored): the event keeps its place before the next minute, and a valid
///   timestamp is not thrown away.
/// - Times before 1970 give negative values.
public enum TimestampParser {
    /// Why a timestamp string was rejected; the decoder puts this into the malformed-line reason.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notRFC3339, monthOutOfRange, dayOutOfRange, hourOutOfRange, minuteOutOfRange
        case secondOutOfRange, tooManyFractionDigits, missingOffset, offsetOutOfRange

        var description: String {
            switch self {
            case .notRFC3339: "expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)"
            case .monthOutOfRange: "month out of range"
            case .dayOutOfRange: "day out of range for its month"
            case .hourOutOfRange: "hour out of range"
            case .minuteOutOfRange: "minute out of range"
            case .secondOutOfRange: "second out of range"
            case .tooManyFractionDigits: "more than 9 fraction digits"
            case .missingOffset: "missing time zone offset"
            case .offsetOutOfRange: "time zone offset out of range"
            }
        }
    }

    /// The earliest time an event may have: 0000-01-01T00:00:00.000Z.
    public static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// The latest time an event may have: 9999-12-31T23:59:59.999Z.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// Whether `milliseconds` is in the years 0000–9999 (UTC), the times RFC 3339 can write and the
    /// tables print. Keeping every accepted time inside them keeps the engine's sums and differences
    /// of times (a few times 2^48 at most) far from `Int64`'s limits, so none of them saturates.
    @inline(__always)
    public static func isWithinYears0To9999(_ milliseconds: Int64) -> Bool {
        milliseconds >= earliestMilliseconds && milliseconds <= latestMilliseconds
    }

    /// Milliseconds since the Unix epoch, or nil when `bytes` is not a valid RFC 3339 date-time.
    public static func parse(rfc3339 bytes: UnsafeRawBufferPointer) -> Int64? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let slice = ByteSlice(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        if case .success(let milliseconds) = parse(slice) { return milliseconds }
        return nil
    }

    /// Convenience for tests and callers that hold a `String`.
    public static func parse(rfc3339 text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(rfc3339: UnsafeRawBufferPointer($0)) }
    }

    static func parse(_ b: ByteSlice) -> Result<Int64, Failure> {
        switch minuteStart(b) {
        case .success(let minuteMs): return parseRest(b, minuteStart: minuteMs)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Milliseconds at the start of the minute named by the first 16 bytes (`YYYY-MM-DDTHH:MM`), in
    /// the timestamp's own offset. Consecutive events usually share it, so the decoder remembers it.
    static func minuteStart(_ b: ByteSlice) -> Result<Int64, Failure> {
        let p = b.start
        // YYYY-MM-DDTHH:MM:SS is 19 bytes; at least an offset `Z` follows.
        guard b.count >= 19,
              p[4] == 0x2D, p[7] == 0x2D, p[10] | 0x20 == 0x74 || p[10] == 0x20, p[13] == 0x3A,
              let year = digits(p, 0, 4), let month = digits(p, 5, 2), let day = digits(p, 8, 2),
              let hour = digits(p, 11, 2), let minute = digits(p, 14, 2)
        else { return .failure(.notRFC3339) }
        guard month >= 1, month <= 12 else { return .failure(.monthOutOfRange) }
        guard day >= 1, day <= daysInMonth(year: year, month: month) else { return .failure(.dayOutOfRange) }
        guard hour <= 23 else { return .failure(.hourOutOfRange) }
        guard minute <= 59 else { return .failure(.minuteOutOfRange) }
        let days = daysFromCivil(year: year, month: month, day: day)
        return .success(days * 86_400_000 + (hour * 60 + minute) * 60_000)
    }

    /// The rest after the minute (`:SS[.fraction](Z|±HH:MM)` from byte 16), added to `minuteStart`.
    @inline(__always)
    static func parseRest(_ b: ByteSlice, minuteStart: Int64) -> Result<Int64, Failure> {
        if let milliseconds = millisecondsOfCommonRest(b) { return .success(minuteStart + milliseconds) }
        if let milliseconds = millisecondsOfFractionRest(b) { return .success(minuteStart + milliseconds) }
        return parseAnyRest(b, minuteStart: minuteStart)
    }

    /// Milliseconds into the minute, less the offset, when the rest is `:SS.mmm`, up to six more
    /// fraction digits, then `Z` or `±HH:MM` within range, with SS ≤ 59 (the forms of writers that
    /// put microseconds, nanoseconds or a local offset: Python's `isoformat`, Go's `RFC3339Nano`); nil
    /// for anything else, which `parseAnyRest` then reads or rejects. Gives exactly what
    /// `parseAnyRest` gives for these forms: the fraction truncated to milliseconds.
    ///
    /// The seconds and the first three fraction digits are checked and read as one word, as in
    /// `millisecondsOfCommonRest`: these forms are a third of the lines of an upload of many writers.
    @inline(__always)
    static func millisecondsOfFractionRest(_ b: ByteSlice) -> Int64? {
        let n = b.count
        guard n >= 24 else { return nil }
        let p = b.start
        let word = UInt64(littleEndian: UnsafeRawPointer(p + 16).loadUnaligned(as: UInt64.self))
        // The eighth byte, where the fraction goes on or ends, is read below.
        guard let milliseconds = millisecondsOfSecondsWord(
            (word ^ 0x0030_3030_2E30_303A) & 0x00FF_FFFF_FFFF_FFFF, punctuation: 0x0000_0000_FF00_00FF)
        else { return nil }
        // The fraction's other digits, at most six (nine in all), which truncation drops.
        var i = 23
        while i < n, p[i] &- 0x30 < 10 { i &+= 1 }
        guard i < n, i <= 29 else { return nil }
        if p[i] == 0x5A { return i &+ 1 == n ? milliseconds : nil }
        guard p[i] == 0x2B || p[i] == 0x2D, n &- i == 6, p[i &+ 3] == 0x3A else { return nil }
        let h1 = p[i &+ 1] &- 0x30, h2 = p[i &+ 2] &- 0x30, m1 = p[i &+ 4] &- 0x30, m2 = p[i &+ 5] &- 0x30
        guard h1 < 10, h2 < 10, m1 < 10, m2 < 10 else { return nil }
        let hour = Int64(h1) &* 10 &+ Int64(h2)
        let minute = Int64(m1) &* 10 &+ Int64(m2)
        guard hour <= 23, minute <= 59 else { return nil }
        let offset = (hour &* 60 &+ minute) &* 60_000
        return p[i] == 0x2D ? milliseconds &+ offset : milliseconds &- offset
    }

    /// Milliseconds into the minute when the rest is exactly `:SS.mmmZ` with SS ≤ 59, the form nearly
    /// every log writes, or nil for anything else (which `parseAnyRest` then reads, or rejects).
    ///
    /// The eight bytes are checked and read as one word: every event has a timestamp, so reading them
    /// byte by byte would cost every event (figures: Tests/Benchmarks/README.md, "Decoder choices").
    @inline(__always)
    static func millisecondsOfCommonRest(_ b: ByteSlice) -> Int64? {
        guard b.count == 24 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(b.start + 16).loadUnaligned(as: UInt64.self))
        // The eighth byte is the form's `Z`.
        return millisecondsOfSecondsWord(word ^ 0x5A30_3030_2E30_303A, punctuation: 0xFF00_0000_FF00_00FF)
    }

    /// Milliseconds into the minute from `:SS.mmm`, given as `x`: the rest's bytes 16..<24, lowest
    /// first, exclusive-ored with the form (`:`, two digits, `.`, three digits, and what the caller
    /// puts in the eighth byte). If the form is right, the bytes in `punctuation` are zero and the
    /// others hold digit values; nil if not, or if the second is past 59. A byte the caller masked to
    /// zero passes as a digit and is not read.
    @inline(__always)
    private static func millisecondsOfSecondsWord(_ x: UInt64, punctuation: UInt64) -> Int64? {
        // A byte is below 10 exactly when it is below 16 and adding 6 keeps it below 16.
        guard x & punctuation == 0, (x | (x &+ 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0 == 0 else {
            return nil
        }
        @inline(__always) func digit(_ byte: UInt64) -> Int64 { Int64(truncatingIfNeeded: (x &>> (byte &* 8)) & 0xFF) }
        let second = digit(1) &* 10 &+ digit(2)
        guard second < 60 else { return nil }
        return second &* 1000 &+ digit(4) &* 100 &+ digit(5) &* 10 &+ digit(6)
    }

    /// `parseRest` for any form RFC 3339 allows, and the reasons for rejecting the others.
    static func parseAnyRest(_ b: ByteSlice, minuteStart: Int64) -> Result<Int64, Failure> {
        let p = b.start
        let n = b.count
        guard n >= 19, p[16] == 0x3A, let second = digits(p, 17, 2) else { return .failure(.notRFC3339) }
        guard second <= 60 else { return .failure(.secondOutOfRange) }

        var i = 19
        var fractionMs: Int64 = 0
        if i < n, p[i] == 0x2E {
            i += 1
            let fractionStart = i
            while i < n, JSONScanner.isDigit(p[i]) {
                let digitCount = i - fractionStart
                if digitCount >= 9 { return .failure(.tooManyFractionDigits) }
                if digitCount < 3 { fractionMs = fractionMs * 10 + Int64(p[i] &- 0x30) }
                i += 1
            }
            let digitCount = i - fractionStart
            guard digitCount > 0 else { return .failure(.notRFC3339) }
            // Truncate: scale what was read of the first three digits up to milliseconds.
            if digitCount == 1 { fractionMs *= 100 } else if digitCount == 2 { fractionMs *= 10 }
        }

        guard i < n else { return .failure(.missingOffset) }
        var offsetMinutes: Int64 = 0
        switch p[i] {
        case 0x5A, 0x7A:  // Z z
            i += 1
        case 0x2B, 0x2D:  // + -
            guard n - i >= 6, p[i + 3] == 0x3A,
                  let offsetHour = digits(p, i + 1, 2), let offsetMinute = digits(p, i + 4, 2)
            else { return .failure(.notRFC3339) }
            guard offsetHour <= 23, offsetMinute <= 59 else { return .failure(.offsetOutOfRange) }
            offsetMinutes = offsetHour * 60 + offsetMinute
            if p[i] == 0x2D { offsetMinutes = -offsetMinutes }
            i += 6
        default:
            return .failure(JSONScanner.isDigit(p[i]) ? .notRFC3339 : .missingOffset)
        }
        guard i == n else { return .failure(.notRFC3339) }

        let secondMs = second == 60 ? 59_999 : second * 1000 + fractionMs
        return .success(minuteStart + secondMs - offsetMinutes * 60_000)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The decimal number in `count` digits at `offset`, or nil if any is not a digit.
    @inline(__always)
    private static func digits(_ p: UnsafePointer<UInt8>, _ offset: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for i in offset..<(offset + count) {
            let d = p[i] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int64(d)
        }
        return value
    }
}
