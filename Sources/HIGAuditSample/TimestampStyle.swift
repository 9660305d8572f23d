/// How a line writes its `ts`: SPEC §2 allows RFC 3339 with any offset and 0–9 fraction digits, or
/// integer milliseconds. Every style written keeps the exact millisecond value, so the mix never
/// changes what the rules see.
enum TimestampStyle: Sendable, Equatable {
    /// RFC 3339; `offsetMinutes` 0 is written `Z`. `subMillis` holds digits beyond the millisecond
    /// (for 6 or 9 fraction digits), which readers truncate away.
    case rfc3339(fractionDigits: Int, offsetMinutes: Int, subMillis: Int)
    case epochMilliseconds

    static let standard = TimestampStyle.rfc3339(fractionDigits: 3, offsetMinutes: 0, subMillis: 0)

    /// The name under which `NoiseCounts.timestampStyles` counts it.
    var countingName: String {
        switch self {
        case .epochMilliseconds: "epoch-ms"
        case .rfc3339(let digits, let offset, _): offset != 0 ? "rfc3339-offset" : "rfc3339-\(digits)"
        }
    }

    /// A random style that can represent `ms` exactly (fewer than 3 digits only when the dropped
    /// digits are zero).
    static func random(for ms: Int64, using random: inout SampleRandom) -> TimestampStyle {
        switch random.pick(weights: [3, 2, 2, 2, 1]) {
        case 0: return .epochMilliseconds
        case 1:
            return .rfc3339(fractionDigits: 6, offsetMinutes: 0, subMillis: random.below(1_000))
        case 2:
            return .rfc3339(fractionDigits: 9, offsetMinutes: 0, subMillis: random.below(1_000_000))
        case 3:
            let offset = random.element([60, -300, 330, -480, 545, -210])
            return .rfc3339(fractionDigits: 3, offsetMinutes: offset, subMillis: 0)
        default:
            let millis = Int(((ms % 1_000) + 1_000) % 1_000)
            let digits = millis == 0 ? 0 : (millis % 100 == 0 ? 1 : (millis % 10 == 0 ? 2 : 3))
            return .rfc3339(fractionDigits: digits, offsetMinutes: 0, subMillis: 0)
        }
    }
}

/// Writes timestamps straight into a byte buffer (no Foundation date formatting on the hot path).
enum TimestampWriter {
    /// Appends `ms` in `style`, quoted when it is an RFC 3339 string.
    static func append(_ ms: Int64, style: TimestampStyle, to out: inout [UInt8]) {
        switch style {
        case .epochMilliseconds:
            NDJSONBytes.appendInteger(ms, to: &out)
        case .rfc3339(let digits, let offsetMinutes, let subMillis):
            let local = ms &+ Int64(offsetMinutes) * 60_000
            let seconds = floorDivide(local, 1_000)
            let millis = Int(local - seconds * 1_000)
            let days = floorDivide(seconds, 86_400)
            let secondOfDay = Int(seconds - days * 86_400)
            let (year, month, day) = civilDate(daysSinceEpoch: days)
            out.append(UInt8(ascii: "\""))
            appendPadded(Int(year), width: 4, to: &out)
            out.append(UInt8(ascii: "-"))
            appendPadded(month, width: 2, to: &out)
            out.append(UInt8(ascii: "-"))
            appendPadded(day, width: 2, to: &out)
            out.append(UInt8(ascii: "T"))
            appendPadded(secondOfDay / 3_600, width: 2, to: &out)
            out.append(UInt8(ascii: ":"))
            appendPadded(secondOfDay / 60 % 60, width: 2, to: &out)
            out.append(UInt8(ascii: ":"))
            appendPadded(secondOfDay % 60, width: 2, to: &out)
            if digits > 0 {
                out.append(UInt8(ascii: "."))
                // Nine digits of the second: milliseconds, then the sub-millisecond digits.
                var fraction = millis * 1_000_000
                if digits == 6 { fraction += subMillis * 1_000 } else if digits == 9 { fraction += subMillis }
                var divisor = 100_000_000
                for _ in 0..<min(digits, 9) {
                    out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                    divisor /= 10
                }
            }
            if offsetMinutes == 0 {
                out.append(UInt8(ascii: "Z"))
            } else {
                out.append(UInt8(ascii: offsetMinutes < 0 ? "-" : "+"))
                appendPadded(abs(offsetMinutes) / 60, width: 2, to: &out)
                out.append(UInt8(ascii: ":"))
                appendPadded(abs(offsetMinutes) % 60, width: 2, to: &out)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    static func appendPadded(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
            remaining %= divisor
            divisor /= 10
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Howard Hinnant's `civil_from_days`: proleptic Gregorian date of a day count since 1970-01-01.
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD` and the hour of `ms` in UTC, for file paths.
    static func utcDayAndHour(_ ms: Int64) -> (day: String, hour: Int) {
        let seconds = floorDivide(ms, 1_000)
        let days = floorDivide(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var bytes: [UInt8] = []
        appendPadded(Int(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &bytes)
        return (String(decoding: bytes, as: UTF8.self), Int(seconds - days * 86_400) / 3_600)
    }
}
