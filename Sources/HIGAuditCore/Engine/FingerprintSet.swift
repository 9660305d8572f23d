/// The fingerprints (`EventIdentity`) of the ids one session has accepted that are not numbered ones
/// in its bitmap (`SeenIds`), for duplicate detection.
///
/// Every event with such an `id` does one lookup and one insert here, so this replaces `Set<UInt64>`,
/// whose per-process seeded SipHash is work the fingerprints do not need. Fingerprints are
/// already hashes, so one multiplication spreads them over an open-addressing table (linear probing,
/// a power-of-two capacity, at most three quarters full). Zero marks an empty slot; the fingerprint 0
/// itself is kept in a flag. Behaves as a set of `UInt64`: iteration order is unspecified, equality
/// is by members, and it encodes as an array of its members in ascending order.
struct FingerprintSet: Sendable {
    private var slots: [UInt64] = []
    private var containsZero = false
    /// Members, the zero fingerprint included.
    private(set) var count = 0

    init() {}

    init<S: Sequence>(_ members: S) where S.Element == UInt64 {
        for member in members { insert(member) }
    }

    var isEmpty: Bool { count == 0 }

    /// Fibonacci hashing: the top bits of the product, as many as the table has index bits. Bits from
    /// the middle of the product leave the fingerprints of ids like `e10`, `e11`, … in long runs, which
    /// linear probing then walks. Tables have at least 16 slots, so the shift is below 64.
    @inline(__always)
    private static func home(_ fingerprint: UInt64, mask: Int) -> Int {
        let indexBits = UInt64(truncatingIfNeeded: (mask &+ 1).trailingZeroBitCount)
        return Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) &>> (64 &- indexBits))
    }

    func contains(_ fingerprint: UInt64) -> Bool {
        if fingerprint == 0 { return containsZero }
        guard !slots.isEmpty else { return false }
        return slots.withUnsafeBufferPointer { table in
            let mask = table.count &- 1
            var index = Self.home(fingerprint, mask: mask)
            while true {
                let stored = table[index]
                if stored == fingerprint { return true }
                if stored == 0 { return false }
                index = (index &+ 1) & mask
            }
        }
    }

    /// Adds `fingerprint`; `inserted` is false when it was already there (as `Set.insert`). Inlined:
    /// the engine inserts once an event, and the call cost a fifth of the insert.
    @discardableResult
    @inline(__always)
    mutating func insert(_ fingerprint: UInt64) -> (inserted: Bool, memberAfterInsert: UInt64) {
        if fingerprint == 0 {
            if containsZero { return (false, 0) }
            containsZero = true
            count &+= 1
            return (true, 0)
        }
        // Keep at most three quarters of the slots used, so probes stay short.
        if (count &+ 1) &* 4 > slots.count &* 3 { grow() }
        let inserted = slots.withUnsafeMutableBufferPointer { table in
            Self.place(fingerprint, in: table)
        }
        if inserted { count &+= 1 }
        return (inserted, fingerprint)
    }

    /// Puts a nonzero fingerprint in its slot; false if it is already there.
    @inline(__always)
    private static func place(_ fingerprint: UInt64, in table: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        let mask = table.count &- 1
        var index = home(fingerprint, mask: mask)
        while true {
            let stored = table[index]
            if stored == fingerprint { return false }
            if stored == 0 {
                table[index] = fingerprint
                return true
            }
            index = (index &+ 1) & mask
        }
    }

    /// Quadruples the table: a session's set grows to about its event count, and every growth places
    /// each member again (a branch a slot that the empty ones make unpredictable). Doubling would place
    /// each member about once more over a session's life, quadrupling a third as often, for tables up
    /// to twice as large (32 KiB for 1,000 ids, against 16).
    @inline(never)
    private mutating func grow() {
        let old = slots
        var larger = [UInt64](repeating: 0, count: Swift.max(old.count &* 4, 16))
        larger.withUnsafeMutableBufferPointer { table in
            for fingerprint in old where fingerprint != 0 { _ = Self.place(fingerprint, in: table) }
        }
        slots = larger
    }
}

extension FingerprintSet: Sequence {
    func makeIterator() -> AnyIterator<UInt64> {
        var members = slots.lazy.filter { $0 != 0 }.makeIterator()
        var zeroPending = containsZero
        return AnyIterator {
            if zeroPending {
                zeroPending = false
                return 0
            }
            return members.next()
        }
    }
}

extension FingerprintSet: Equatable {
    static func == (a: FingerprintSet, b: FingerprintSet) -> Bool {
        a.count == b.count && a.allSatisfy(b.contains)
    }
}

extension FingerprintSet: ExpressibleByArrayLiteral {
    init(arrayLiteral members: UInt64...) { self.init(members) }
}

extension FingerprintSet: Codable {
    init(from decoder: any Decoder) throws {
        self.init(try [UInt64](from: decoder))
    }

    func encode(to encoder: any Encoder) throws {
        try sorted().encode(to: encoder)
    }
}
