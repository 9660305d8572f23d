import Testing
@testable import HIGAuditCore

/// Writers spell the same `ts` in many ways (SPEC §2 "Common fields"): every spelling of one instant
/// decodes to the same milliseconds, on the strict path and on a learned shape's, and a number that is
/// not a whole number of milliseconds stays malformed.
@Suite struct TimestampSpellingTests {
    /// 2026-11-20T21:04:05.123Z, each way a writer may put it.
    static let spellings = [
        #""2026-11-20T21:04:05.123Z""#,
        #""2026-11-20t21:04:05.123z""#,
        #""2026-11-20 21:04:05.123Z""#,
        #""2026-11-20 22:04:05.123456+01:00""#,
        #""2026-11-20 21:04:05.1239-00:00""#,
        "1795208645123",
        "1795208645123.0",
        "1795208645123.000000",
        "1.795208645123e12",
        "1.795208645123E+12",
        "0.1795208645123e13",
        "17952086451230e-1",
        "1795208645123000e-3",
    ]

    static func line(_ ts: String, id: Int) -> [UInt8] {
        Array(#"{"ts":\#(ts),"session":"s","type":"touch","phase":"moved","id":"e\#(id)"}"#.utf8)
    }

    @Test(arguments: spellings)
    func everySpellingOfAnInstantDecodesToIt(ts: String) {
        // A fresh decoder (the general scan), then a learning one fed the same layout until shapes match.
        var strict = EventDecoder(learnsLineShapes: false)
        var learning = EventDecoder(learnsLineShapes: true)
        for id in 0..<8 {
            let line = Self.line(ts, id: id)
            for decoded in [line.withUnsafeBytes { strict.decode($0) }, line.withUnsafeBytes { learning.decode($0) }] {
                guard case .event(let event) = decoded else {
                    Issue.record("\(ts): \(decoded)")
                    return
                }
                #expect(event.ts == novemberTwentieth, "\(ts)")
            }
        }
        #expect(learning.lineShapes.matchedLines > 0)
    }

    @Test(arguments: [
        ("1795208645123.5", "not a fraction"),
        ("1.7952086451235e12", "not a fraction"),
        ("1795208645123e-1", "not a fraction"),
        ("1e-1", "not a fraction"),
        ("1e19", "out of range"),
        ("-1e300", "out of range"),
        ("253402300800000.0", "out of range"),
    ])
    func aNumberThatIsNoWholeMillisecondInTheYearsIsMalformed(ts: String, reason: String) {
        var decoder = EventDecoder(learnsLineShapes: false)
        let decoded = Self.line(ts, id: 0).withUnsafeBytes { decoder.decode($0) }
        guard case .malformed(let problem) = decoded else {
            Issue.record("\(ts): \(decoded)")
            return
        }
        #expect(problem.reason.contains(reason), "\(ts): \(problem.reason)")
    }

    /// The decoder remembers the last minute it read; before it has read one, what it holds must still
    /// be a minute it checked: sixteen escaped NULs were taken for 1970 on a decoder's first lines.
    @Test func aFreshDecodersRememberedMinuteIsOneItChecked() {
        let nul = String(repeating: #"\u0000"#, count: 16)
        for ts in [#""\#(nul):00.000Z""#, #""1970-01-01T00:00:00.000Z""#] {
            var fresh = EventDecoder()
            var afterAnother = EventDecoder()
            _ = Self.line(#""2026-11-20T21:04:05.123Z""#, id: 0).withUnsafeBytes { afterAnother.decode($0) }
            let line = Self.line(ts, id: 1)
            let first = line.withUnsafeBytes { fresh.decode($0) }
            #expect(first == line.withUnsafeBytes { afterAnother.decode($0) }, "\(ts)")
            if ts.contains("u0000") {
                guard case .malformed = first else {
                    Issue.record("\(ts): \(first)")
                    continue
                }
            } else {
                guard case .event(let event) = first else {
                    Issue.record("\(ts): \(first)")
                    continue
                }
                #expect(event.ts == 0)
            }
        }
    }

    @Test func negativeZeroAndTheEarliestMillisecondAreIntegers() {
        var decoder = EventDecoder(learnsLineShapes: false)
        for (ts, expected) in [("-0.0", Int64(0)), ("-0e5", 0), ("-62167219200000.000", TimestampParser.earliestMilliseconds)] {
            let decoded = Self.line(ts, id: 0).withUnsafeBytes { decoder.decode($0) }
            guard case .event(let event) = decoded else {
                Issue.record("\(ts): \(decoded)")
                continue
            }
            #expect(event.ts == expected, "\(ts)")
        }
    }

    /// `JSONNumber.integralValue` against the value the literal was made from: `magnitude` ×
    /// 10^-`scale`, written with its point anywhere in the digits (or none), zeros padded after the
    /// point, and the exponent that makes up for where the point went.
    @Test func integralValueReadsEverySpellingOfAValue() {
        var random = SplitMix64(seed: 30)
        for _ in 0..<20_000 {
            let magnitude = random.next() % 3 == 0 ? Int64(random.next() % 1_000) : Int64(random.next() % 1_000_000_000_000_000)
            let negative = random.next() % 4 == 0
            let scale = random.next() % 3 == 0 ? Int(random.next() % 4) : 0
            var digits = String(magnitude)
            // Digits after the written point; the integer part is "0" when the point is before them all.
            let afterPoint = Int(random.next() % UInt64(digits.count + 3))
            if afterPoint >= digits.count { digits = String(repeating: "0", count: afterPoint - digits.count + 1) + digits }
            var text = (negative ? "-" : "") + digits.dropLast(afterPoint)
            let padding = String(repeating: "0", count: Int(random.next() % 3))
            if afterPoint > 0 || !padding.isEmpty { text += "." + digits.suffix(afterPoint) + padding }
            let exponent = afterPoint - scale
            if exponent != 0 || random.next() % 3 == 0 {
                text += ["e", "E"][Int(random.next() % 2)] + (exponent < 0 ? "-" : ["", "+"][Int(random.next() % 2)]) + String(abs(exponent))
            }
            let divisor = Int64([1, 10, 100, 1_000][scale])
            let expected: JSONNumber.IntegralValue =
                magnitude % divisor != 0 ? .fraction : .integer((negative ? -1 : 1) * (magnitude / divisor))
            let actual = Array(text.utf8).withUnsafeBufferPointer {
                JSONNumber.integralValue(ByteSlice(start: $0.baseAddress!, count: $0.count))
            }
            #expect(actual == expected, "\(text)")
            if actual != expected { return }
        }
    }

    @Test func integralValueSaysWhenAnIntegerIsBeyondEighteenDigits() {
        for (text, expected) in [
            ("999999999999999999", JSONNumber.IntegralValue.integer(999_999_999_999_999_999)),
            ("1000000000000000000", .tooLarge), ("1e18", .tooLarge), ("1e17", .integer(100_000_000_000_000_000)),
            ("1234567890123456789000e-2", .tooLarge), ("12345678901234567800e-2", .integer(123_456_789_012_345_678)),
            ("12345678901234567800e-3", .fraction),
        ] {
            let actual = Array(text.utf8).withUnsafeBufferPointer {
                JSONNumber.integralValue(ByteSlice(start: $0.baseAddress!, count: $0.count))
            }
            #expect(actual == expected, "\(text)")
        }
    }
}
