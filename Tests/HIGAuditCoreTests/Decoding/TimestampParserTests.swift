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

    /// A `ts` whose only escape is a sign (`\u002B`, as System.Text.Json writes the offset's `+`) is put
    /// back by `unescapeOnlyASign`; whatever it accepts, generated or damaged, must unescape to the
    /// general unescaper's bytes, and the .NET form itself must take it.
    @Test func theEscapedSignReadingAgreesWithTheGeneralUnescaper() {
        func escapes(_ byte: UInt8, upper: Bool) -> [UInt8] {
            let hex = String(byte, radix: 16)
            return Array("\\u00\((byte < 16 ? "0" : "") + (upper ? hex.uppercased() : hex))".utf8)
        }
        var accepted = 0
        func check(_ escaped: [UInt8], _ note: @autoclosure () -> String = "") {
            escaped.withUnsafeBufferPointer { text in
                let base = text.baseAddress ?? UnsafePointer(bitPattern: 1)!
                var general = [UInt8](repeating: 0, count: max(text.count, 1))
                var fast = [UInt8](repeating: 0, count: max(text.count, 1))
                let generalCount = general.withUnsafeMutableBufferPointer {
                    JSONStringUnescaper.unescape(base: base, start: 0, end: text.count, into: $0.baseAddress!)
                }
                let fastCount = fast.withUnsafeMutableBufferPointer {
                    JSONStringUnescaper.unescapeOnlyASign(base, count: text.count, into: $0.baseAddress!)
                }
                if let fastCount {
                    accepted += 1
                    #expect(Array(fast.prefix(fastCount)) == Array(general.prefix(generalCount)),
                            "\(String(decoding: escaped, as: UTF8.self)) \(note())")
                }
            }
        }
        var random = SplitMix64(seed: 2026_11_29)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for round in 0..<4_000 {
            let fraction = String((0..<Int.random(in: 0...9, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
            let zone = ["Z", "+", "-"].randomElement(using: &random)!
            let text = Array(("2026-11-20T\(twoDigits(Int.random(in: 0...23, using: &random))):00:"
                + twoDigits(Int.random(in: 0...59, using: &random)) + (fraction.isEmpty ? "" : ".\(fraction)")
                + (zone == "Z" ? "Z" : zone + twoDigits(Int.random(in: 0...14, using: &random)) + ":00")).utf8)
            // One escape at every position, in either case; then a second one after it.
            for position in text.indices {
                let one = Array(text[..<position]) + escapes(text[position], upper: round % 2 == 0) + Array(text[(position + 1)...])
                check(one)
                if position % 5 == round % 5 {
                    let second = Int.random(in: 0..<one.count, using: &random)
                    if one[second] != 0x5C {
                        check(Array(one[..<second]) + escapes(one[second], upper: true) + Array(one[(second + 1)...]))
                    }
                }
            }
            // The sign's escape cut short or followed by another escape, and damaged bytes anywhere.
            if let sign = text.firstIndex(where: { $0 == 0x2B || $0 == 0x2D }) {
                let escaped = Array(text[..<sign]) + escapes(text[sign], upper: round % 3 != 0) + Array(text[(sign + 1)...])
                for cut in 1...escaped.count { check(Array(escaped.prefix(cut))) }
                for other in ["\\/", "\\\\", "\\n", "\\\"", "\\u0030", "\\"] {
                    check(escaped + Array(other.utf8))
                    check(Array(other.utf8) + escaped)
                }
                var damaged = escaped
                for _ in 0..<(1 + round % 2) {
                    damaged[Int.random(in: 0..<damaged.count, using: &random)] =
                        Array("\\u002BbDd+-0Z:x".utf8).randomElement(using: &random)!
                }
                check(damaged, "damaged")
            }
        }
        // Short values and the escape alone, at the end, and as the whole value.
        for short in ["\\u002B", "\\u002b", "\\u002D", "1\\u002d", "12345678\\u002B", "1234567\\u002B9",
                      "\\u002B\\u002B", "\\u002", "\\u00", "\\u", "\\", "x\\u002C", "\\U002B", "\\u102B"] {
            check(Array(short.utf8), short)
        }
        #expect(accepted > 4_000)
        // The .NET form takes the fast reading, to the same milliseconds as the plain form.
        var form = Array(#"2026-11-20T19:00:00.013\u002B01:00"#.utf8)
        var output = [UInt8](repeating: 0, count: form.count)
        let count = form.withUnsafeMutableBufferPointer { text in
            output.withUnsafeMutableBufferPointer {
                JSONStringUnescaper.unescapeOnlyASign(UnsafePointer(text.baseAddress!), count: text.count, into: $0.baseAddress!)
            }
        }
        #expect(count.map { String(decoding: output.prefix($0), as: UTF8.self) } == "2026-11-20T19:00:00.013+01:00")
        #expect(TimestampParser.parse(rfc3339: "2026-11-20T19:00:00.013+01:00") == 1_795_197_600_013)
    }
}
