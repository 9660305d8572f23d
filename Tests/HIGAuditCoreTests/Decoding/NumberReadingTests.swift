import Testing
@testable import HIGAuditCore

/// Numbers are read during the scan when the literal is short (Clinger's fast path) and by the
/// standard library otherwise; either way a field's value must be the nearest double, which is what
/// `Double(String)` gives.
@Suite struct NumberReadingTests {
    @Test func everyLiteralReadsAsTheNearestDouble() {
        var random = SplitMix64(seed: 77)
        var decoder = EventDecoder()
        for _ in 0..<20_000 {
            let literal = Self.randomLiteral(using: &random)
            let line = #"{"ts":1,"session":"s","type":"touch","phase":"began","x":\#(literal),"y":0}"#
            guard case .event(let event) = decoder.decode(line), case .touch(let touch) = event.payload else {
                Issue.record("not decoded: \(line)")
                continue
            }
            let expected = Double(literal)!
            #expect(touch.x?.bitPattern == expected.bitPattern, "\(literal)")
        }
    }

    @Test func signedZeroAndTheEdgesOfTheFastPath() {
        var decoder = EventDecoder()
        for (literal, expected) in [
            ("-0", -0.0), ("0.0", 0.0), ("999999999999999", 999_999_999_999_999.0),
            ("9999999999999999", 1e16), ("0.1", 0.1), ("1.0000000000000000000001", 1.0),
            ("0.0000000000000000000001", 1e-22), ("0.00000000000000000000001", 1e-23),
        ] {
            let line = #"{"ts":1,"session":"s","type":"touch","phase":"began","x":\#(literal)}"#
            guard case .event(let event) = decoder.decode(line), case .touch(let touch) = event.payload else {
                Issue.record("not decoded: \(line)")
                continue
            }
            #expect(touch.x?.bitPattern == expected.bitPattern, "\(literal)")
        }
    }

    /// The one number reader, alone: on every literal, with the bytes after it in view or not (its
    /// 8-bytes-at-a-time and its byte-by-byte reading), it ends where the literal ends, says whether it
    /// is an integer, and gives the nearest double or NaN, never another value; exponents of C loggers'
    /// numbers (`1.235e+02`) and short exponent forms take the fast path.
    @Test func theNumberReaderEndsWhereTheLiteralEndsAndReadsTheNearestDouble() {
        var random = SplitMix64(seed: 5)
        var fastExponents = 0
        for _ in 0..<20_000 {
            let literal = Self.randomLiteral(using: &random)
            let expected = Double(literal)!
            for trailer in ["", ",\"y\":12345678901234567890}"] {
                let bytes = Array((literal + trailer).utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    guard let scanned = JSONNumber.scan(buffer.baseAddress!, from: 0, end: buffer.count) else {
                        Issue.record("not read: \(literal)")
                        return
                    }
                    #expect(scanned.end == literal.utf8.count, "\(literal)")
                    #expect(scanned.integer == !literal.contains { ".eE".contains($0) }, "\(literal)")
                    #expect(scanned.value.isNaN || scanned.value.bitPattern == expected.bitPattern, "\(literal)")
                    if !scanned.value.isNaN, literal.contains(where: { "eE".contains($0) }) { fastExponents += 1 }
                }
            }
        }
        #expect(fastExponents > 1_000)
        for literal in ["1.235e+02", "-6.011e+02", "3.953e+02", "1e-1", "5E3"] {
            let bytes = Array(literal.utf8)
            let value = bytes.withUnsafeBufferPointer { JSONNumber.scan($0.baseAddress!, from: 0, end: $0.count)?.value }
            #expect(value?.bitPattern == Double(literal)!.bitPattern, "\(literal)")
        }
    }

    @Test func theNumberReaderFindsNoNumberWhereTheGrammarHasNone() {
        for text in ["-", "01", "-01", "1.", "1.e5", "1e", "1e+", "-a", ".5", "00.1", "1.5e-"] {
            for trailer in ["", "                    "] {
                let bytes = Array((text + trailer).utf8)
                let scanned = bytes.withUnsafeBufferPointer { JSONNumber.scan($0.baseAddress!, from: 0, end: $0.count) }
                #expect(scanned == nil, "\(text)")
            }
        }
    }

    /// A JSON number: sign, 0 or 1 to 20 digits, maybe a fraction of 1 to 25 digits, maybe an exponent.
    private static func randomLiteral(using random: inout SplitMix64) -> String {
        func digits(_ count: Int, leadingNonZero: Bool) -> String {
            String((0..<count).map { index in
                let low = index == 0 && leadingNonZero ? 1 : 0
                return Character(String(Int.random(in: low...9, using: &random)))
            })
        }
        var text = Bool.random(using: &random) ? "-" : ""
        text += Int.random(in: 0..<8, using: &random) == 0
            ? "0" : digits(Int.random(in: 1...20, using: &random), leadingNonZero: true)
        if Int.random(in: 0..<4, using: &random) != 0 {
            text += "." + digits(Int.random(in: 1...25, using: &random), leadingNonZero: false)
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            text += ["e", "E", "e+", "e-"].randomElement(using: &random)! + String(Int.random(in: 0...30, using: &random))
        }
        return text
    }
}
