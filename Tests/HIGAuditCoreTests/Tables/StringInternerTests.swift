import Testing
@testable import HIGAuditCore

/// `StringInterner` gives each distinct text one id, the first it was seen with, whether a string is
/// found among the recent ones by its words or by the dictionary.
@Suite struct StringInternerTests {
    /// Short texts (inline in the string), long ones made afresh each time (other storage, equal
    /// bytes), and long ones let go right after (whose storage a later, different text may take):
    /// every id is the one a plain dictionary would give.
    @Test func idsAreTheFirstSeenWhateverTheStorage() {
        var interner = StringInterner()
        var reference: [String: Int] = [:]
        var rng = SplitMix64(seed: 7)
        for step in 0..<20_000 {
            let pick = Int.random(in: 0..<300, using: &rng)
            let text: String
            switch step % 3 {
            case 0: text = "s\(pick % 40)"
            case 1: text = String(repeating: "screen-", count: 3) + String(pick)
            default: text = "a-long-enough-text-made-afresh-\(pick)-\(step % 7 == 0 ? "x" : "y")"
            }
            let expected = reference[text] ?? reference.count
            reference[text] = expected
            #expect(interner.intern(text) == expected, "\(text)")
            #expect(interner[expected] == text)
        }
        #expect(interner.strings.count == reference.count)
    }

    /// A kept string handed in again, as the rules' own identifiers are: the same id every time.
    @Test func theSameStringAgainHasItsId() {
        var interner = StringInterner()
        let long = String(repeating: "rule-identifier-", count: 2)
        let short = "screen"
        #expect(interner.intern(long) == 0)
        #expect(interner.intern(short) == 1)
        for _ in 0..<100 {
            #expect(interner.intern(long) == 0)
            #expect(interner.intern(short) == 1)
            #expect(interner.intern(String(long.reversed().reversed())) == 0)
        }
        #expect(interner.strings == [long, short])
    }
}
