import Testing
@testable import HIGAuditCore

/// `FingerprintSet` must behave exactly as the `Set<UInt64>` it replaced in duplicate detection.
@Suite struct FingerprintSetTests {
    /// Random fingerprints, some repeated, plus values that stress the table: 0 (the empty-slot
    /// marker) and numbers that share a home slot.
    @Test(arguments: [1, 2, 3, 4])
    func agreesWithSetUnderRandomInsertsAndLookups(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var reference = Set<UInt64>()
        var set = FingerprintSet()
        var pool: [UInt64] = [0, 1, 1 << 32, 2 << 32, .max]
        for _ in 0..<3000 {
            let value: UInt64 = Int.random(in: 0..<3, using: &rng) == 0
                ? pool.randomElement(using: &rng)! : UInt64.random(in: 0...UInt64.max, using: &rng)
            pool.append(value)
            let probe = pool.randomElement(using: &rng)!
            #expect(set.contains(probe) == reference.contains(probe))
            let expected = reference.insert(value)
            let got = set.insert(value)
            #expect(got.inserted == expected.inserted)
            #expect(got.memberAfterInsert == value)
            #expect(set.count == reference.count)
        }
        #expect(Set(set) == reference)
        #expect(set == FingerprintSet(reference))
    }

    @Test func zeroIsAMemberLikeAnyOther() {
        var set: FingerprintSet = []
        #expect(!set.contains(0))
        #expect(set.insert(0).inserted)
        #expect(!set.insert(0).inserted)
        #expect(set.contains(0) && set.count == 1)
        #expect(Array(set) == [0])
    }

    @Test func equalityIsByMembersWhateverTheInsertionOrder() {
        let set: FingerprintSet = [9, 0, 5, .max]
        #expect(set.sorted() == [0, 5, 9, .max])
        #expect(set == [.max, 5, 0, 9])
        #expect(set != [9, 0, 5])
    }
}
