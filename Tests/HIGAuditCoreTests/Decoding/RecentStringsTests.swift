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

    private func string(_ recent: RecentStrings, _ bytes: [UInt8]) -> String {
        // A buffer larger than the value, as a line is, with other bytes around it.
        let padded = [0x7A, 0x7A] + bytes + [0x7A, 0x7A]
        return padded.withUnsafeBufferPointer { buffer in
            recent.string(slot: 0, start: buffer.baseAddress! + 2, count: bytes.count)
        }
    }
}
