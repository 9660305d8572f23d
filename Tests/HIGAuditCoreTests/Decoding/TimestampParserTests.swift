import Testing
@testable import HIGAuditCore

@Suite struct TimestampParserTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
        ("1900-03-01T00:00:00Z", -2_203_891_200_000),
        ("0000-01-01T00:00:00Z", -62_167_219_200_000),
        ("9999-12-31T23:59:59.999999999Z", 253_402_300_799_999),
        ("2026-11-20T21:04:05.123-00:00", 1_795_208_645_123),
        ("2026-11-21T20:03:05.123+22:59", 1_795_208_645_123),
        ("2026-11-19T21:05:05.123-23:59", 1_795_208_645_123),
        ("1969-12-31T23:59:59.0001Z", -1000),
    ])
    func parsesToMillisecondsSinceTheEpoch(text: String, milliseconds: Int64) {
        #expect(TimestampParser.parse(rfc3339: text) == milliseconds)
    }

    @Test func fractionIsTruncatedNotRounded() {
        #expect(TimestampParser.parse(rfc3339: "2026-01-01T00:00:00.9999Z") == TimestampParser.parse(rfc3339: "2026-01-01T00:00:00.999Z"))
        #expect(TimestampParser.parse(rfc3339: "2026-01-01T00:00:00.000999999Z") == TimestampParser.parse(rfc3339: "2026-01-01T00:00:00Z"))
        #expect(TimestampParser.parse(rfc3339: "1969-12-31T23:59:59.9999Z") == -1)
    }

    @Test func leapSecondIsTheLastMillisecondOfItsMinute() {
        #expect(TimestampParser.parse(rfc3339: "2016-12-31T23:59:60Z") == TimestampParser.parse(rfc3339: "2016-12-31T23:59:59.999Z"))
        #expect(TimestampParser.parse(rfc3339: "2016-12-31T23:59:60.5Z") == TimestampParser.parse(rfc3339: "2016-12-31T23:59:59.999Z"))
    }

    @Test(arguments: [
        "", "2026-11-20T21:04:05", "2026-11-20T21:04:05.Z", "2026-11-20T21:04:05.1234567890Z",
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-06-31T00:00:00Z", "2026-11-20T24:00:00Z",
        "2026-11-20T21:04:05+23:60", "2026-11-20T21:04:05+1:00", "2026-11-20T21:04:05 Z",
        "+2026-11-20T21:04:05Z", "2026-11-20T21:04:05Z ", "２026-11-20T21:04:05Z", "2026-1a-20T21:04:05Z",
    ])
    func rejectsWhatIsNotRFC3339(text: String) {
        #expect(TimestampParser.parse(rfc3339: text) == nil)
    }

    @Test func daysFromCivilMatchesAKnownCalendar() {
        // Walk day by day from 1600 to 2400 and check the count only ever steps by one.
        var expected = TimestampParser.daysFromCivil(year: 1600, month: 1, day: 1)
        for year: Int64 in 1600...2400 {
            for month: Int64 in 1...12 {
                for day in 1...TimestampParser.daysInMonth(year: year, month: month) {
                    #expect(TimestampParser.daysFromCivil(year: year, month: month, day: day) == expected)
                    expected += 1
                }
            }
        }
        #expect(TimestampParser.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    }

    /// `:SS.mmmZ` is read as one word; any eight bytes after the minute must give the general reading's
    /// answer (the same milliseconds, or the fallback to it, which then accepts or rejects).
    @Test func theOneWordReadingOfTheCommonFormAgreesWithTheGeneralOne() {
        let alphabet = Array("0123456789:.Z+-z/ \u{7F}".utf8) + [0x00, 0x2F, 0x3B, 0x39, 0x3A, 0x80, 0xFF, 0xC6, 0x36]
        var random = SplitMix64(seed: 24)
        for round in 0..<50_000 {
            let second = Int.random(in: 0...61, using: &random)
            let millisecond = Int.random(in: 0...999, using: &random)
            var tail = Array(":\(second < 10 ? "0" : "")\(second).\(String(1000 + millisecond).dropFirst())Z".utf8)
            // Most rounds change one or two bytes, so nearly-right words are common.
            for _ in 0..<(round % 3) {
                tail[Int.random(in: 0..<tail.count, using: &random)] = alphabet.randomElement(using: &random)!
            }
            var text = Array("2026-11-20T18:00".utf8) + tail
            text.withUnsafeMutableBufferPointer { buffer in
                let slice = ByteSlice(start: UnsafePointer(buffer.baseAddress!), count: buffer.count)
                let general = TimestampParser.parseAnyRest(slice, minuteStart: 0)
                if let fast = TimestampParser.millisecondsOfCommonRest(slice) {
                    #expect(general == .success(fast), "\(tail)")
                }
                #expect(TimestampParser.parseRest(slice, minuteStart: 0) == general, "\(tail)")
            }
        }
        // And the common form itself takes the one-word reading.
        var text = Array("2026-11-20T18:00:39.488Z".utf8)
        text.withUnsafeMutableBufferPointer { buffer in
            let slice = ByteSlice(start: UnsafePointer(buffer.baseAddress!), count: buffer.count)
            #expect(TimestampParser.millisecondsOfCommonRest(slice) == 39_488)
        }
    }

    /// Fractions of three to nine digits with `Z` or an offset (`.753000+00:00`, `.766384613Z`,
    /// `.759-08:00`) are read by `millisecondsOfFractionRest`; any of them with a byte or two changed,
    /// any fraction length and any offset in or out of range must give the general reading's answer.
    @Test func theFractionFormsReadingAgreesWithTheGeneralOne() {
        let alphabet = Array("0123456789:.Z+-z/ \u{7F}".utf8) + [0x00, 0x2F, 0x3B, 0x39, 0x3A, 0x80, 0xFF, 0xC6, 0x36]
        var random = SplitMix64(seed: 49)
        var fastReadings = 0
        for round in 0..<80_000 {
            let second = Int.random(in: 0...61, using: &random)
            let fraction = String((0..<Int.random(in: 0...11, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
            let hour = Int.random(in: 0...25, using: &random)
            let minute = Int.random(in: 0...61, using: &random)
            let offset = ["Z", "+", "-"].randomElement(using: &random)!
            func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let zone = offset == "Z" ? "Z" : offset + twoDigits(hour) + ":" + twoDigits(minute)
            var tail = Array(":\(twoDigits(second))".utf8) + (fraction.isEmpty ? [] : Array(".\(fraction)".utf8))
                + Array(zone.utf8)
            for _ in 0..<(round % 3 == 2 ? 1 : 0) {
                tail[Int.random(in: 0..<tail.count, using: &random)] = alphabet.randomElement(using: &random)!
            }
            if round % 7 == 6, !tail.isEmpty { tail.removeLast() }
            var text = Array("2026-11-20T18:00".utf8) + tail
            text.withUnsafeMutableBufferPointer { buffer in
                let slice = ByteSlice(start: UnsafePointer(buffer.baseAddress!), count: buffer.count)
                let general = TimestampParser.parseAnyRest(slice, minuteStart: 0)
                if buffer.count >= 24, let fast = TimestampParser.millisecondsOfFractionRest(slice) {
                    fastReadings += 1
                    #expect(general == .success(fast), "\(String(decoding: tail, as: UTF8.self))")
                }
                #expect(TimestampParser.parseRest(slice, minuteStart: 0) == general, "\(String(decoding: tail, as: UTF8.self))")
            }
        }
        #expect(fastReadings > 10_000)
        // The writers' forms take it, to the millisecond, the fraction truncated.
        for (form, milliseconds) in [("2026-11-20T18:00:01.753000+00:00", 1_753), ("2026-11-20T18:00:01.766384613Z", 1_766),
                                     ("2026-11-20T18:00:01.759-08:00", 1_759 + 480 * 60_000),
                                     ("2026-11-20T18:00:01.759+05:30", 1_759 - 330 * 60_000)] {
            var text = Array(form.utf8)
            text.withUnsafeMutableBufferPointer { buffer in
                let slice = ByteSlice(start: UnsafePointer(buffer.baseAddress!), count: buffer.count)
                #expect(TimestampParser.millisecondsOfFractionRest(slice) == Int64(milliseconds), "\(form)")
            }
        }
    }
}
