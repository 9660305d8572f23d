import Testing
@testable import HIGAuditCore

/// `LineFingerprint`: lines of one writer and type share a fingerprint whatever their values, the
/// lines of other writers' layouts or other types do not, and a line with a `type` read before its
/// end is known gets the fingerprint it gets with its length.
@Suite struct LineFingerprintTests {
    static func fingerprint(_ line: String, readable extra: String = "") -> UInt64 {
        let bytes = Array((line + extra).utf8)
        return bytes.withUnsafeBufferPointer { LineFingerprint.of($0.baseAddress!, limit: extra.isEmpty ? line.utf8.count : bytes.count) }
    }

    @Test func valuesDoNotChangeIt() {
        let lines = [
            #"{"ts":"2026-11-20T18:00:00.000Z","session":"dde7558a6e9bed0f","type":"touch","id":"e1","x":1}"#,
            #"{"ts":"2026-11-20T18:00:00.1Z","session":"s","type":"touch","id":"e12345","x":1234.5}"#,
        ]
        #expect(Self.fingerprint(lines[0]) == Self.fingerprint(lines[1]))
        // Sorted keys: `type` last, after values of changing length.
        #expect(Self.fingerprint(#"{"app_version":"5.1.0","id":"e1","ts":"x","type":"haptic"}"#)
            == Self.fingerprint(#"{"app_version":"5.2.10","id":"e12345","ts":"xyz","type":"haptic"}"#))
        // A number first: its digits are not part of the head.
        #expect(Self.fingerprint(#"{"ts":1,"type":"touch"}"#) == Self.fingerprint(#"{"ts":98765,"type":"touch"}"#))
    }

    @Test func writersAndTypesChangeIt() {
        let touch = Self.fingerprint(#"{"ts":"2026-11-20T18:00:00.000Z","type":"touch","x":1}"#)
        #expect(touch != Self.fingerprint(#"{"ts":"2026-11-20T18:00:00.000Z","type":"haptic","x":1}"#))
        #expect(touch != Self.fingerprint(#"{ "ts" : "2026-11-20T18:00:00.000Z" , "type" : "touch" , "x" : 1 }"#))
        #expect(Self.fingerprint(#"{"type":"touch","ts":1}"#) != Self.fingerprint(#"{"type": "touch", "ts": 1}"#))
        // Types alike in their first 16 bytes but not after differ only in length: the quote ends them.
        #expect(Self.fingerprint(#"{"type":"session.start"}"#) != Self.fingerprint(#"{"type":"session.end"}"#))
    }

    @Test func aLineReadBeforeItsEndIsKnownGetsTheSameFingerprint() {
        let lines = [
            #"{"ts":"2026-11-20T18:00:00.000Z","session":"s1","type":"touch"}"#,
            #"{"app":"a","type":"permission.request"}"#,
            #"{"type":"x"}"#,
        ]
        // (A line without a `type` may get another: such a line is no event, and is never learned.)
        for line in lines {
            #expect(Self.fingerprint(line) == Self.fingerprint(line, readable: "\n" + #"{"type":"haptic","ts":"2026-11-20T18:00:00.000Z"}"#), "\(line)")
        }
    }

    /// The `type` key is found thirty-two or sixteen places a step, then byte by byte near the end: wherever it
    /// stands, after keys and values that begin like it (`"ty"`, `"t…`), the fingerprint is the one of
    /// its writer and type, and where its value starts is reported.
    @Test func theTypeKeyIsFoundWhereverItStands() {
        let expected = Self.fingerprint(#"{"ts":"","ty":"tyty","type":"touch","x":1}"#)
        let haptic = Self.fingerprint(#"{"ts":"","ty":"tyty","type":"haptic","x":1}"#)
        #expect(expected != haptic)
        for pad in 0..<48 {
            // Escaped quotes before `ty` inside the value: candidates that are no key.
            let filler = String(repeating: #"\"ty"#, count: pad / 3) + String(repeating: "t", count: pad % 3)
            let line = #"{"ts":""# + filler + #"","ty":"tyty","type":"touch","x":1}"#
            #expect(Self.fingerprint(line) == expected, "\(line)")
            let bytes = Array(line.utf8)
            let start = bytes.withUnsafeBufferPointer {
                LineFingerprint.withTypeValueStart($0.baseAddress!, limit: $0.count).typeValueStart
            }
            #expect(Array(bytes[start..<(start + 5)]) == Array("touch".utf8), "\(line)")
        }
        let none = Array(#"{"ts":"","ty":"tyty","t\u0079pe":"touch"}"#.utf8)
        #expect(none.withUnsafeBufferPointer { LineFingerprint.withTypeValueStart($0.baseAddress!, limit: $0.count).typeValueStart } == Int.max)
    }

    /// A head (up to its colon) or a value (up to its quote) is read from 16 bytes at once when they are
    /// readable, else byte by byte: the words and the place found are those a byte-by-byte reading of
    /// the first 16 bytes gives, wherever the byte stands or when it is not there.
    @Test(arguments: [UInt8(0x3A), 0x22])
    func headAndValueWordsAreThoseOfAByteByByteReading(until byte: UInt8) {
        var random = SplitMix64(seed: UInt64(byte))
        let alphabet: [UInt8] = Array("ab:\" {}_-.0".utf8) + [0x00, 0xFF, 0x80]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            let start = Int.random(in: 0...min(count, 4), using: &random)
            let words = bytes.withUnsafeBufferPointer {
                LineFingerprint.bytes($0.baseAddress!, start: start, limit: count, until: byte)
            }
            // The reference: up to 16 bytes from `start`, cut before the quote or after the colon.
            let window = Array(bytes[start..<min(count, start + 16)])
            let at = window.firstIndex(of: byte)
            let kept = at.map { byte == 0x22 ? $0 : $0 + 1 } ?? window.count
            var low: UInt64 = 0
            var high: UInt64 = 0
            for (i, value) in window.prefix(kept).enumerated() {
                if i < 8 { low |= UInt64(value) << (8 * UInt64(i)) } else { high |= UInt64(value) << (8 * UInt64(i - 8)) }
            }
            #expect(words.low == low && words.high == high && words.found == (at.map { start + $0 } ?? count), "\(bytes) from \(start)")
        }
    }

    /// Where the first `"type"` key's string value starts within `limit` bytes, found byte by byte:
    /// the standard the stepped search (thirty-two places, then sixteen, then one) is held to.
    static func typeValueStartByteByByte(_ bytes: [UInt8], limit: Int) -> Int {
        let key = Array(#""type""#.utf8)
        var index = 0
        while index &+ key.count <= limit {
            if Array(bytes[index..<(index + key.count)]) == key {
                var at = index + key.count
                while at < limit, bytes[at] == 0x20 { at += 1 }
                if at < limit, bytes[at] == 0x3A {
                    at += 1
                    while at < limit, bytes[at] == 0x20 { at += 1 }
                    if at < limit, bytes[at] == 0x22 { return at + 1 }
                }
            }
            index += 1
        }
        return Int.max
    }

    /// Lines of decoys (`"ty`, `"typ`, `"type"` not followed by a colon and a string, escaped
    /// quotes) with a `type` key anywhere or nowhere, read up to any length: the stepped search
    /// finds the value the byte-by-byte one finds, across every step's boundary.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theSteppedSearchFindsTheFirstTypeKey(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = [
            #""ty""#, #""t"#, #""typ"#, #""type","#, #""type": 1"#, #""type":"x""#, "a", " ", "tyty", #""type" :"#,
            // Candidates of the 16-byte search (a quote, any byte, a `y`) that are no `type` key.
            #""ay"#, #""xy":"#, "\"\"y", #""\y"#,
            String(repeating: "x", count: 13), String(repeating: "y", count: 29),
        ]
        for _ in 0..<400 {
            var line = "{"
            let typeAt = Int.random(in: 0..<24, using: &random)
            for piece in 0..<24 {
                if piece == typeAt, Bool.random(using: &random) {
                    line += [#""type":"touch""#, #""type" : "haptic""#, #""type":  "x""#].randomElement(using: &random)!
                }
                line += pieces.randomElement(using: &random)!
            }
            line += "}"
            let bytes = Array(line.utf8)
            let limit = Int.random(in: 0...bytes.count, using: &random)
            let found = bytes.withUnsafeBufferPointer {
                LineFingerprint.withTypeValueStart($0.baseAddress!, limit: limit).typeValueStart
            }
            #expect(found == Self.typeValueStartByteByByte(bytes, limit: min(limit, LineFingerprint.searchLimit)), "\(line) limit \(limit)")
        }
    }
}
