import Testing
@testable import HIGAuditCore

/// `JSONTape.integer` reads a string of decimal digits (OTLP/JSON's 64-bit integers) as `Int64`'s own
/// parser reads it, for strings of every length around its steps of eight digits, digits or not in
/// every place, and values up to and past `Int64.max`.
@Suite struct JSONTapeIntegerTests {
    /// What the tape must give for the string `text`: its value when it is 1 to 19 digits and no
    /// more than `Int64.max`, else nil.
    static func expected(_ text: String) -> Int64? {
        guard !text.isEmpty, text.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    static func integer(of text: String) throws -> Int64? {
        var tape = JSONTape()
        defer { tape.deallocate() }
        let line = Array(#"{"n":"\#(text)"}"#.utf8)
        return try line.withUnsafeBytes { bytes in
            try tape.read(bytes)
            return tape.integer(2)
        }
    }

    @Test func stringsOfDigitsReadAsInt64ReadsThem() throws {
        var generator = SplitMix64(seed: 19)
        // Bytes around the digits' range, so that every neighbour of '0' and '9' is tried.
        let others: [Character] = ["/", ":", "a", " ", "-", "+", ".", "e"]
        for length in 0...21 {
            for _ in 0..<300 {
                var text = String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
                if length > 0, Int.random(in: 0..<3, using: &generator) == 0 {
                    var characters = Array(text)
                    characters[Int.random(in: 0..<length, using: &generator)] = others.randomElement(using: &generator)!
                    text = String(characters)
                }
                #expect(try Self.integer(of: text) == Self.expected(text), "\(text)")
            }
        }
        for text in ["9223372036854775807", "9223372036854775808", "9999999999999999999", "0000000000000000000",
                     "1795168812345000000", "99999999", "100000000", "0"] {
            #expect(try Self.integer(of: text) == Self.expected(text), "\(text)")
        }
    }
}
