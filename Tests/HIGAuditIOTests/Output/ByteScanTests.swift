import Testing
@testable import HIGAuditIO

/// The word-at-a-time tests must agree with a byte-by-byte look for every byte value in every place of
/// the word, whatever the other bytes are; and the writers' checks built on them with the plain
/// per-byte predicate, across the eight-byte steps and the tail.
@Suite struct ByteScanTests {
    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// Fillers that sit next to the tested byte: below, at and above the bounds the writers use.
    static let fillers: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x41, 0x7F, 0x80, 0xE1, 0xE3, 0xFF]

    @Test func wordTestsAgreeWithBytesEverywhere() {
        for target: UInt8 in [0x22, 0x5C, 0x7F, 0xE2, 0x2C, 0x0D, 0x0A, 0x00] {
            for filler in Self.fillers {
                for position in 0..<8 {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: filler, count: 8)
                        bytes[position] = UInt8(value)
                        let word = Self.word(bytes)
                        #expect(ByteScan.has(word, byte: target) == bytes.contains(target))
                        #expect(ByteScan.has(word, below: 0x20) == bytes.contains { $0 < 0x20 })
                    }
                }
            }
        }
    }

    @Test func writerChecksAgreeWithThePlainLookAcrossWordsAndTails() {
        let plain = "abcdefghijklmnopqrstuvwxyz"
        let specials: [String] = ["\"", "\\", ",", "\r", "\n", "\t", "\u{7F}", "\u{1F}", "\u{2028}", "\u{2029}", "é", "日", "👨‍👩‍👧", " ", "~"]
        for length in 0...40 {
            for position in 0...length {
                for special in specials {
                    let text = String(plain.prefix(position)) + special + String(plain.prefix(length - position))
                    let bytes = Array(text.utf8)
                    #expect(JSONWriter.needsEscaping(text)
                        == bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 })
                    #expect(CSVWriter.needsQuotes(text) == bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A })
                }
            }
        }
        #expect(!JSONWriter.needsEscaping(""))
        #expect(!CSVWriter.needsQuotes(""))
    }
}
