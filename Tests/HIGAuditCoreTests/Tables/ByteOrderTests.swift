import Testing
@testable import HIGAuditCore

/// `precedesInByteOrder` is the UTF-8 views' lexicographic order, on short (inline) and long strings,
/// ASCII and not, equal and sharing prefixes.
@Suite struct ByteOrderTests {
    @Test func agreesWithTheUTF8ViewsOrder() {
        var random = SplitMix64(seed: 17)
        let alphabet: [String] = ["a", "b", "/", ".", "A", "0", "é", "ß", "中", "😀", "\u{0}", "\u{7F}", "z"]
        func text() -> String {
            let count = Int(random.next() % 40)
            return (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
        }
        var pairs: [(String, String)] = [("", ""), ("", "a"), ("a", ""), ("a/b", "a.b"), ("A.ZST", "a.zst")]
        for _ in 0..<5_000 {
            let left = text()
            // Often a prefix of the other, or the same, so that lengths and common runs decide.
            let right: String
            switch random.next() % 3 {
            case 0: right = left + text()
            case 1: right = left
            default: right = text()
            }
            pairs.append(random.next() % 2 == 0 ? (left, right) : (right, left))
        }
        for (left, right) in pairs {
            #expect(left.precedesInByteOrder(right) == left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) \(right)")
        }
    }
}
