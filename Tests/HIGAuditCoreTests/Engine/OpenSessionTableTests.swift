import Testing
@testable import HIGAuditCore

/// `OpenSessionTable` must behave exactly as the `[CompactText: UnsafeMutablePointer<OpenSession>]`
/// it replaced as the engine's table of open sessions.
@Suite struct OpenSessionTableTests {
    /// A stand-in session pointer: the table stores and compares pointers, never reads through them.
    static func pointer(_ number: Int) -> UnsafeMutablePointer<OpenSession> {
        UnsafeMutablePointer(bitPattern: 0x1000 &+ number &* 64)!
    }

    /// Keys of every kind a session id becomes: short inline texts, the empty text, canonical UUIDs
    /// (packed) in either case, and texts too long to be inline.
    static func key(_ number: Int) -> CompactText {
        switch number % 4 {
        case 0: CompactText("s-\(number)")
        case 1: CompactText(number % 8 == 1 ? "" : "\(number)")
        case 2:
            uuid(number)
        default: CompactText("a session id longer than sixteen bytes \(number)")
        }
    }

    static func uuid(_ number: Int) -> CompactText {
        let hex = String(number, radix: 16)
        let text = String(repeating: "0", count: 8 - hex.count) + hex + "-d9cb-469f-a165-70867728950e"
        return CompactText(number % 8 == 6 ? text.uppercased() : text)
    }

    /// Random inserts, replacements, removals and lookups over a few thousand keys, so that the table
    /// grows and removals shift entries back across its runs, against a dictionary.
    @Test(arguments: [1, 2, 3])
    func agreesWithADictionary(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var reference: [CompactText: UnsafeMutablePointer<OpenSession>] = [:]
        var table = OpenSessionTable()
        for step in 0..<20_000 {
            let key = Self.key(Int.random(in: 0..<3_000, using: &rng))
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let session = Self.pointer(step)
                let replaced = table.insert(session, for: key)
                #expect(replaced == reference.updateValue(session, forKey: key))
            case 1:
                let removed = table.remove(key)
                #expect(removed == reference.removeValue(forKey: key))
            default:
                let found = table[key]
                #expect(found == reference[key])
            }
            let count = table.count
            #expect(count == reference.count)
        }
        for number in 0..<3_000 {
            let found = table[Self.key(number)]
            #expect(found == reference[Self.key(number)])
            // The engine's way: from an event's texts, without making the key.
            var texts = EventTexts()
            texts[.session] = Self.key(number)
            let foundFromTexts = table.session(of: texts)
            #expect(foundFromTexts == reference[Self.key(number)])
        }
        let values = table.values
        #expect(Set(values) == Set(reference.values))
    }

    /// Emptied key by key, the table finds every remaining key after each removal.
    @Test func everyKeyStaysReachableWhileTheTableEmpties() {
        var table = OpenSessionTable()
        // Distinct keys: `key` maps several numbers to the empty text.
        let keys = (0..<500).map(Self.key).filter { $0 != CompactText("") } + [CompactText("")]
        for (number, key) in keys.enumerated() { table.insert(Self.pointer(number), for: key) }
        for (number, key) in keys.enumerated() {
            let removed = table.remove(key)
            let found = table[key]
            #expect(removed == Self.pointer(number) && found == nil)
            for (later, other) in keys.enumerated().dropFirst(number &+ 1) where later % 7 == 0 {
                let remaining = table[other]
                #expect(remaining == Self.pointer(later))
            }
        }
        let isEmpty = table.isEmpty
        let values = table.values
        #expect(isEmpty && values.isEmpty)
    }
}
