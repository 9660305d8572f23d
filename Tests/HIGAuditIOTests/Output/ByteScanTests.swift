import Testing
@testable import HIGAuditIO

/// The vector tests must agree with a byte-by-byte look for every byte value in every lane, whatever
/// the other bytes are; and the writers' checks built on them with the plain per-byte predicate, across
/// the 16-byte steps, the tail and the short texts that fill one vector with their own bytes.
@Suite struct ByteScanTests {
    /// Fillers that sit next to the tested byte: below, at and above the bounds the writers use.
    static let fillers: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x41, 0x7F, 0x80, 0xE1, 0xE3, 0xFF]

    /// Whether the writers' checks of `bytes` differ from the plain per-byte look.
    static func checksDisagree(_ bytes: [UInt8]) -> Bool {
        let escapes = bytes.withUnsafeBufferPointer { JSONWriter.needsEscaping($0) }
        let quotes = bytes.withUnsafeBufferPointer { CSVWriter.needsQuotes($0) }
        return escapes != bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 })
            || quotes != bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A })
    }

    @Test func vectorTestsAgreeWithBytesInEveryLane() {
        var disagreements: [[UInt8]] = []
        for filler in Self.fillers {
            for position in 0..<16 {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: filler, count: 16)
                    bytes[position] = UInt8(value)
                    if Self.checksDisagree(bytes) { disagreements.append(bytes) }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
    }

    /// A text of 1 to 40 bytes, each byte in turn the only one that qualifies: the short texts' vectors
    /// (two overlapping loads), the steps and the overlapping last vector all see it, and a text of
    /// fillers alone is never taken for one that needs quotes or escapes.
    @Test func everyPlaceOfEveryLengthIsTested() {
        var disagreements: [[UInt8]] = []
        for length in 1...40 {
            for position in -1..<length {
                for special: UInt8 in [0x00, 0x0A, 0x0D, 0x1F, 0x22, 0x2C, 0x5C, 0x7F, 0xE2] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if position >= 0 { bytes[position] = special }
                    if Self.checksDisagree(bytes) { disagreements.append(bytes) }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
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
