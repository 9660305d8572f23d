/// The ids of one session past what it keeps exactly (`SeenIds.exactLimit`): a Bloom filter of a
/// fixed 2^24 bits (2 MiB), each id's `EventIdentity` fingerprint setting `probes` bits.
///
/// It never forgets an id it was given, so a duplicate is never taken for a new event; it may take a
/// new id for one it has (a false duplicate), more often as it fills: about 1 in 500 after a million
/// ids, 1 in 20 after three million. Those answers are counted as unverified duplicates.
struct IdFilter: Sendable, Equatable {
    static let bitCount = 1 << 24
    static let wordCount = bitCount / 64
    static let probes: UInt64 = 4

    private(set) var words: [UInt64]

    init() {
        words = [UInt64](repeating: 0, count: Self.wordCount)
    }

    /// The words of a checkpoint; nil when there are not exactly `wordCount` of them.
    init?(words: some Collection<UInt64>) {
        guard words.count == Self.wordCount else { return nil }
        self.words = Array(words)
    }

    /// Bit `probe` of `fingerprint`, by double hashing its two halves (the fingerprint is a hash
    /// already; the odd step visits distinct bits).
    @inline(__always)
    private static func bit(_ fingerprint: UInt64, probe: UInt64) -> Int {
        let start = fingerprint & 0xFFFF_FFFF
        let step = (fingerprint &>> 32) | 1
        return Int(truncatingIfNeeded: (start &+ probe &* step) & UInt64(bitCount &- 1))
    }

    func contains(_ fingerprint: UInt64) -> Bool {
        for probe in 0..<Self.probes {
            let bit = Self.bit(fingerprint, probe: probe)
            if words[bit &>> 6] & (1 &<< UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// Records `fingerprint`; false when every one of its bits was set already (it may have been seen).
    mutating func insert(_ fingerprint: UInt64) -> Bool {
        var added = false
        for probe in 0..<Self.probes {
            let bit = Self.bit(fingerprint, probe: probe)
            let mask: UInt64 = 1 &<< UInt64(bit & 63)
            if words[bit &>> 6] & mask == 0 {
                words[bit &>> 6] |= mask
                added = true
            }
        }
        return added
    }
}
