import Testing
@testable import HIGAuditCore

/// `RecentStrings` compares by words of different widths depending on the length (overlapping last
/// word, two half words, single bytes); a value differing in any one byte must never get the cached
/// `String` of the previous value.
@Suite struct RecentStringsTests {
    @Test(arguments: 0...RecentStrings.maxLength + 1)
    func aValueDifferingInAnyOneByteIsNotTheRememberedOne(length: Int) {
        let recent = RecentStrings(slots: 1)
        defer { recent.deallocate() }
        let original = (0..<length).map { UInt8(0x61 + $0 % 26) }
        #expect(string(recent, original) == String(decoding: original, as: UTF8.self))
        #expect(string(recent, original) == String(decoding: original, as: UTF8.self), "remembered")
        for position in 0..<length {
            var changed = original
            changed[position] = 0x30
            let expected = String(decoding: changed, as: UTF8.self)
            #expect(string(recent, changed) == expected, "byte \(position) of \(length)")
            // The next lookup of the original must not be answered by the changed value either.
            #expect(string(recent, original) == String(decoding: original, as: UTF8.self), "back, \(position)")
        }
    }

    @Test func aPrefixOrAnExtensionIsNotTheRememberedValue() {
        let recent = RecentStrings(slots: 1)
        defer { recent.deallocate() }
        let values = ["abcdefgh", "abcdefg", "abcdefghi", "abcdefgh", "abc", "abcd", "", "a"]
        for value in values {
            #expect(string(recent, Array(value.utf8)) == value)
        }
    }

    /// Interleaved devices take turns on a field (`target`: `canvas`, then another's button): a value
    /// met again after another one is still the same `String`, its storage shared, not built anew.
    @Test func aValueMetAgainAfterAnotherKeepsItsString() throws {
        let recent = RecentStrings(slots: 1)
        defer { recent.deallocate() }
        // Longer than a `String` keeps inline, so that storage can be compared.
        let first = Array("button:brush-settings".utf8)
        let firstWay = first.withUnsafeBufferPointer { RecentStrings.way($0.baseAddress!, count: $0.count) }
        let other = try #require(["button:save", "picker:brushes", "cell:artwork", "tab:Library"].map { Array($0.utf8) }
            .first { bytes in bytes.withUnsafeBufferPointer { RecentStrings.way($0.baseAddress!, count: $0.count) } != firstWay })
        let held = string(recent, first)
        #expect(string(recent, other) == String(decoding: other, as: UTF8.self))
        let again = string(recent, first)
        #expect(again == held)
        #expect(storage(again) == storage(held))
    }

    /// Values of one length whose places collide replace each other, and each is still returned right.
    @Test func valuesTakingOnePlaceReplaceEachOther() {
        let recent = RecentStrings(slots: 2)
        defer { recent.deallocate() }
        let values = (0..<64).map { "target-\($0 / 10)\($0 % 10)" }
        for round in 0..<3 {
            for value in values.shuffled() {
                #expect(string(recent, Array(value.utf8)) == value, "round \(round)")
            }
        }
    }

    private func storage(_ text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    private func string(_ recent: RecentStrings, _ bytes: [UInt8]) -> String {
        // A buffer larger than the value, as a line is, with other bytes around it.
        let padded = [0x7A, 0x7A] + bytes + [0x7A, 0x7A]
        return padded.withUnsafeBufferPointer { buffer in
            recent.string(slot: 0, start: buffer.baseAddress! + 2, count: bytes.count)
        }
    }
}
