/// A multiplicative hash without collisions over a fixed set of keys, found when the keys are first
/// needed rather than fixed by hand, so that a new key cannot silently share a bucket with another:
/// the key matcher (`KeyMatcher`) and the type names (`EventKind(wireBytes:)`) look keys up with it.
///
/// A key is first reduced to a 64-bit signature (its length and a few of its bytes); distinct keys must
/// have distinct signatures, which the caller states as a precondition naming the keys. The bucket of
/// a signature is the top `bits` bits of `signature × multiplier`.
struct PerfectHash {
    let multiplier: UInt64
    let bits: Int

    /// The golden ratio's odd multiplier, tried first: it spreads the keys of today's schema.
    static let firstMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C1F

    /// The first odd multiplier from `firstMultiplier` on (in steps of 2, the same keys giving the same
    /// one on every run) under which no two `signatures` share a bucket of `1 << bits`; nil when the
    /// signatures repeat or none of the first million multipliers separates them (the caller then needs
    /// more buckets).
    init?(separating signatures: [UInt64], bits: Int) {
        guard Set(signatures).count == signatures.count, signatures.count <= 1 << bits else { return nil }
        var occupied = [Bool](repeating: false, count: 1 << bits)
        var multiplier = Self.firstMultiplier
        for _ in 0..<1_000_000 {
            var separated = true
            occupied.withUnsafeMutableBufferPointer { taken in
                for i in taken.indices { taken[i] = false }
                for signature in signatures {
                    let bucket = Self.bucket(signature, multiplier: multiplier, bits: bits)
                    if taken[bucket] {
                        separated = false
                        return
                    }
                    taken[bucket] = true
                }
            }
            if separated {
                self.multiplier = multiplier
                self.bits = bits
                return
            }
            multiplier &+= 2
        }
        return nil
    }

    @inline(__always)
    static func bucket(_ signature: UInt64, multiplier: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (signature &* multiplier) &>> UInt64(64 &- bits))
    }

    @inline(__always)
    func bucket(_ signature: UInt64) -> Int { Self.bucket(signature, multiplier: multiplier, bits: bits) }

    /// The fewest bits (at least `minimum`) whose buckets number at least four per key: a sparse table
    /// is separated after few tries.
    static func bits(forKeys count: Int, minimum: Int) -> Int {
        max(minimum, Int.bitWidth - (max(count, 1) &* 4 &- 1).leadingZeroBitCount)
    }
}
