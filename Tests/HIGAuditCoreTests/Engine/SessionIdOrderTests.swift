import Testing
@testable import HIGAuditCore

/// Sessions that close together close in session-id order, which decides the order of reports and so
/// of the tables' rows. `CompactText.asciiIdOrder(before:)` reads that order from inline ASCII texts'
/// words; it must agree with the `String` comparison it stands for, and step aside for every other
/// text.
@Suite struct SessionIdOrderTests {
    /// What the engine's order was before the shortcut: `String` order, then the bytes'.
    private static func stringOrder(_ a: String, _ b: String) -> Bool {
        if a != b { return a < b }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func randomASCII(using random: inout SplitMix64) -> String {
        // Few letters, so that ids share prefixes and one is often a prefix of another; NUL and DEL
        // at the ends of ASCII.
        let pieces: [UInt8] = [0, 0x2D, 0x30, 0x31, 0x41, 0x61, 0x62, 0x7A, 0x7F]
        let length = Int(random.next() % 17)
        return String(decoding: (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }, as: UTF8.self)
    }

    @Test func inlineASCIIIdsSortAsTheirStrings() {
        var random = SplitMix64(seed: 49)
        for _ in 0..<5_000 {
            let a = Self.randomASCII(using: &random)
            let b = Self.randomASCII(using: &random)
            let shortcut = CompactText(a).asciiIdOrder(before: CompactText(b))
            #expect(shortcut == Self.stringOrder(a, b), "\(Array(a.utf8)) \(Array(b.utf8))")
        }
    }

    @Test func otherTextsAreLeftToStrings() {
        let ascii = CompactText("abc")
        for other in ["é", "abcdefghijklmnopq", "123e4567-e89b-12d3-a456-426614174000", "ab\u{7F}é"] {
            #expect(ascii.asciiIdOrder(before: CompactText(other)) == nil, "\(other)")
            #expect(CompactText(other).asciiIdOrder(before: ascii) == nil, "\(other)")
        }
    }

    /// The engine's two comparators, on open sessions' pointers and on ids with keys, give the order a
    /// sort by `String` gives, shortcut or not.
    @Test func sessionsSortInStringOrder() {
        var random = SplitMix64(seed: 7)
        var ids = (0..<300).map { _ in Self.randomASCII(using: &random) }
        ids += ["é", "e\u{301}", "abcdefghijklmnopq", "123e4567-e89b-12d3-a456-426614174000", "ab"]
        ids = Array(Set(ids.map { Array($0.utf8) })).map { String(decoding: $0, as: UTF8.self) }
        let expected = ids.sorted(by: Self.stringOrder)
        #expect(ids.map { (id: $0, key: CompactText($0)) }.sorted(by: SessionEngine.idOrder).map(\.id) == expected)
    }
}
