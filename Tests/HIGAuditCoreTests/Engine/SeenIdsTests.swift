import Testing
@testable import HIGAuditCore

/// `SeenIds` must answer exactly as a set of the ids' strings would (SPEC §2 duplicates), whichever of
/// its two structures an id lands in, and keep checkpoints as they were: every id as its fingerprint.
@Suite struct SeenIdsTests {
    private static func texts(_ id: String?) -> EventTexts {
        EventTexts(
            session: CompactText("s"), device: nil, app: nil, appVersion: nil, osVersion: nil, screen: nil,
            id: id.map(CompactText.init))
    }

    /// Ids of every shape the structures tell apart: numbered with the session's prefix (in order,
    /// reordered below the first, far above the covered range, 9–16 digits), with leading zeros, with
    /// other prefixes, a non-ASCII prefix, no digits, empty, and over 16 bytes.
    private static func randomId(near counter: inout Int, using random: inout SplitMix64) -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<10:
            counter += 1
            return "e\(counter)"
        case 10, 11: return "e\(max(0, counter - Int.random(in: 0...400, using: &random)))"
        case 12: return "e\(counter + Int.random(in: 1...200_000, using: &random))"
        case 13: return "e0\(Int.random(in: 0...99, using: &random))"
        case 14: return "\(Int.random(in: 0...5_000, using: &random))"
        case 15: return ["x\(counter)", "é\(counter)", "e", "", "e-1", "12345678901234567"].randomElement(using: &random)!
        case 16: return "e\(Int.random(in: 100_000_000...999_999_999_999_999, using: &random))"
        case 17: return "upload-2026-11-20-\(counter)"
        default: return "e\(Int.random(in: 0...counter, using: &random))"
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func agreesWithASetOfTheIds(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // The first numbered id fixes the prefix: `e` for most seeds, none (plain numbers) for some.
        var counter = Int.random(in: 0...3_000, using: &random)
        let first = seed % 3 == 0 ? "\(counter)" : "e\(counter)"
        var reference: Set = [first]
        let seen = SeenIdsBox()
        #expect(seen.insert(idOf: Self.texts(first)))
        for _ in 0..<6_000 {
            let id = Self.randomId(near: &counter, using: &random)
            let probe = Self.randomId(near: &counter, using: &random)
            #expect(seen.contains(idOf: Self.texts(probe)) == reference.contains(probe), "contains \(probe)")
            #expect(seen.insert(idOf: Self.texts(id)) == reference.insert(id).inserted, "insert \(id)")
        }
        #expect(seen.numberedCount > (seed % 3 == 0 ? 100 : 1_000), "the numbered ids went to the bitmap")
        #expect(seen.checkpointFingerprints == reference.map(EventIdentity.fingerprint).sorted())
    }

    /// Prefixes of every length up to a word and past it, with a NUL byte or a non-ASCII character,
    /// and numbers whose digits cross from an id's first word into its second.
    @Test(arguments: ["", "e", "\u{0}", "é", "evt-26:", "session:", "abcdefghij", "x\u{0}y-"])
    func agreesWithASetOfTheIdsWhateverThePrefix(prefix: String) {
        var random = SplitMix64(seed: UInt64(prefix.utf8.count))
        var reference = Set<String>()
        let seen = SeenIdsBox()
        var counter = Int.random(in: 9_999_000...9_999_900, using: &random)
        for step in 0..<3_000 {
            let number = Int.random(in: 0..<4, using: &random) == 0
                ? counter - Int.random(in: 0...300, using: &random) : { counter += 1; return counter }()
            let id = Int.random(in: 0..<10, using: &random) == 0 ? "\(prefix)0\(number)" : "\(prefix)\(number)"
            let probe = "\(prefix)\(counter - Int.random(in: 0...500, using: &random))"
            #expect(seen.contains(idOf: Self.texts(probe)) == reference.contains(probe), "contains \(probe)")
            #expect(seen.insert(idOf: Self.texts(id)) == reference.insert(id).inserted, "insert \(id) at \(step)")
        }
        #expect(seen.numberedCount > 1_000 || prefix.utf8.count > 7, "the numbered ids went to the bitmap")
        #expect(seen.checkpointFingerprints == reference.map(EventIdentity.fingerprint).sorted())
    }

    @Test func anEventWithoutIdIsNeverADuplicate() {
        let seen = SeenIdsBox()
        #expect(seen.insert(idOf: Self.texts(nil)))
        #expect(seen.insert(idOf: Self.texts(nil)))
        #expect(!seen.contains(idOf: Self.texts(nil)))
        #expect(seen.checkpointFingerprints.isEmpty)
    }

    /// A number far above the others may not stretch the bitmap: it and every number above it go to
    /// the fingerprint set, and are still found there.
    @Test func theBitmapStaysDense() {
        let seen = SeenIdsBox()
        #expect(seen.insert(idOf: Self.texts("e1")))
        #expect(seen.insert(idOf: Self.texts("e1000000000")))
        #expect(seen.insert(idOf: Self.texts("e1000000001")))
        for n in 2...5_000 { #expect(seen.insert(idOf: Self.texts("e\(n)"))) }
        #expect(seen.numberedCount == 5_000)
        #expect(seen.bitmapWords <= (5_000 + 64) * 128 / 64)
        #expect(seen.bitmapWords >= 5_000 / 64)
        for id in ["e1", "e2500", "e5000", "e1000000000", "e1000000001"] {
            #expect(!seen.insert(idOf: Self.texts(id)), "\(id) is a duplicate")
            #expect(seen.contains(idOf: Self.texts(id)))
        }
        #expect(!seen.contains(idOf: Self.texts("e999999999")))
        #expect(seen.insert(idOf: Self.texts("e999999999")))
    }

    /// `e07` is not `e7`: ids are compared as strings, and the bitmap covers both numbers here.
    @Test func leadingZerosMakeOtherIds() {
        let seen = SeenIdsBox()
        for id in ["e1", "e7", "e0", "e10"] { #expect(seen.insert(idOf: Self.texts(id))) }
        for id in ["e07", "e007", "e00", "e010"] {
            #expect(!seen.contains(idOf: Self.texts(id)))
            #expect(seen.insert(idOf: Self.texts(id)), "\(id) is not a duplicate")
        }
        #expect(seen.numberedCount == 4)
        for id in ["e7", "e07", "e0", "e00"] { #expect(!seen.insert(idOf: Self.texts(id))) }
    }

    /// After a restart the ids seen before are fingerprints; a numbered one must still be found.
    @Test func aRestoredSessionFindsTheIdsSeenBeforeTheCheckpoint() {
        let before = SeenIdsBox()
        let earlier = (1...300).map { "e\($0)" } + ["x7", "upload-2026-11-20-0001"]
        for id in earlier { #expect(before.insert(idOf: Self.texts(id))) }
        let restored = SeenIdsBox(fingerprints: before.checkpointFingerprints)
        for id in earlier {
            #expect(restored.contains(idOf: Self.texts(id)))
            #expect(!restored.insert(idOf: Self.texts(id)), "\(id) is a duplicate after the restart")
        }
        for id in ["e301", "e302", "e0", "x8"] { #expect(restored.insert(idOf: Self.texts(id))) }
        #expect(!restored.insert(idOf: Self.texts("e301")))
        let all = earlier + ["e301", "e302", "e0", "x8"]
        #expect(restored.checkpointFingerprints == all.map(EventIdentity.fingerprint).sorted())
        // A second restart: the ids of both runs are fingerprints now.
        let again = SeenIdsBox(fingerprints: restored.checkpointFingerprints)
        for id in all { #expect(!again.insert(idOf: Self.texts(id)), "\(id) is a duplicate after the second restart") }
        #expect(again.insert(idOf: Self.texts("e303")))
        #expect(again.checkpointFingerprints == (all + ["e303"]).map(EventIdentity.fingerprint).sorted())
    }

    @Test(arguments: [
        ("e1", 1, 1), ("e0", 1, 0), ("42", 0, 42), ("a1b2", 3, 2), ("tab:7", 4, 7),
        ("1234567890123456", 0, 1_234_567_890_123_456), ("e123456789012345", 1, 123_456_789_012_345),
    ] as [(String, Int, UInt64)])
    func numberedIdsSplitAfterTheirLastOtherByte(id: String, prefix: Int, number: UInt64) {
        let parts = CompactText(id).inlineParts!
        let split = NumberedIds.split((parts.low, parts.high, Int(parts.count)))
        #expect(split?.prefixCount == prefix)
        #expect(split?.number == number)
    }

    @Test(arguments: ["e07", "00", "e", "", "e1x", "é"])
    func otherIdsAreNotNumbered(id: String) {
        let parts = CompactText(id).inlineParts!
        #expect(NumberedIds.split((parts.low, parts.high, Int(parts.count))) == nil)
    }

    /// One session of 12 million unique ids held 1.67 GB and wrote a 248 MB checkpoint. Past
    /// `exactLimit` ids the session keeps no more exactly: later ones go to a filter of fixed size,
    /// whose "seen" answers are reported as unverified duplicates, and the checkpoint stops growing.
    @Test func idsPastTheExactLimitGoToAFilterOfFixedSize() {
        let limit = SeenIds.exactLimit
        let seen = SeenIdsBox()
        // Ids that end in a letter are not numbered: every one goes to the fingerprint set.
        func id(_ index: Int) -> EventTexts { Self.texts("id\(index)x") }
        for index in 0..<limit { _ = seen.insert(idOf: id(index)) }
        #expect(!seen.isPastExactLimit)
        #expect(seen.checkpointFingerprints.count == limit)

        var takenForDuplicates = 0
        for index in limit..<(limit + 100_000) where !seen.insert(idOf: id(index)) {
            #expect(seen.takeUnverifiedDuplicate())
            takenForDuplicates += 1
        }
        #expect(seen.isPastExactLimit)
        #expect(takenForDuplicates < 100)
        let checkpoint = seen.checkpointFingerprints
        #expect(checkpoint.count == 3 + limit + IdFilter.wordCount)
        for index in (limit + 100_000)..<(limit + 200_000) { _ = seen.insert(idOf: id(index)) }
        _ = seen.takeUnverifiedDuplicate()
        #expect(seen.checkpointFingerprints.count == checkpoint.count, "the checkpoint no longer grows")

        // Ids kept exactly are duplicates for sure; ids in the filter are reported as unverified.
        #expect(!seen.insert(idOf: id(7)))
        #expect(!seen.takeUnverifiedDuplicate())
        #expect(!seen.insert(idOf: id(limit + 7)))
        #expect(seen.takeUnverifiedDuplicate())
        #expect(seen.contains(idOf: id(limit + 8)))
        #expect(seen.takeUnverifiedDuplicate())
        #expect(!seen.takeUnverifiedDuplicate())

        // The checkpoint keeps the filter: a restored session answers the same.
        let restored = SeenIdsBox(fingerprints: checkpoint)
        #expect(restored.isPastExactLimit)
        #expect(restored.checkpointFingerprints == checkpoint)
        #expect(!restored.insert(idOf: id(3)))
        #expect(!restored.takeUnverifiedDuplicate())
        #expect(!restored.insert(idOf: id(limit + 3)))
        #expect(restored.takeUnverifiedDuplicate())
        #expect(restored.insert(idOf: Self.texts("never-sent-before")))
    }
}

/// `SeenIds` is noncopyable, which `#expect` cannot take apart: the tests reach it through a box.
private final class SeenIdsBox {
    private var ids: SeenIds

    init() { ids = SeenIds() }
    init(fingerprints: [UInt64]) { ids = SeenIds(fingerprints: fingerprints) }

    func insert(idOf texts: EventTexts) -> Bool { ids.insert(idOf: texts) }
    func contains(idOf texts: EventTexts) -> Bool { ids.contains(idOf: texts) }
    var numberedCount: Int { ids.numberedCount }
    var bitmapWords: Int { ids.bitmapWords }
    var checkpointFingerprints: [UInt64] { ids.checkpointFingerprints }
    var isPastExactLimit: Bool { ids.isPastExactLimit }
    func takeUnverifiedDuplicate() -> Bool { ids.takeUnverifiedDuplicate() }
}
