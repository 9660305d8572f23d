/// Whether a string's UTF-8 holds any byte of a small set, eight bytes at a time: the writers ask it of
/// every text cell (does it need quotes, does it need escapes?), too often for a closure per byte.
///
/// The word tests are the classic ones (Bit Twiddling Hacks, "determine if a word has a zero byte" and
/// "has a byte less than n"): each says exactly whether *any* byte of the word qualifies, which is all
/// the writers need.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` equals `byte`.
    @inline(__always)
    static func has(_ word: UInt64, byte: UInt8) -> Bool {
        marks(word, byte: byte) & highBits != 0
    }

    /// Whether any byte of `word` is below `bound` (at most 128).
    @inline(__always)
    static func has(_ word: UInt64, below bound: UInt8) -> Bool {
        marks(word, below: bound) & highBits != 0
    }

    /// Whether `marks`, the union of some `marks(_:byte:)` and `marks(_:below:)` of one word, marks
    /// a byte: several tests of a word then cost one branch.
    @inline(__always)
    static func anyMarked(_ marks: UInt64) -> Bool { marks & highBits != 0 }

    /// A word whose high bits, after `anyMarked`'s mask, are set (at least one) exactly when a byte
    /// of `word` equals `byte`.
    @inline(__always)
    static func marks(_ word: UInt64, byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x
    }

    /// As `marks(_:byte:)`, for a byte below `bound` (at most 128).
    @inline(__always)
    static func marks(_ word: UInt64, below bound: UInt8) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word
    }

    /// Whether `text` has a byte for which `byteTest` holds; `wordTest` must hold for a word exactly
    /// when `byteTest` holds for one of its eight bytes.
    @inline(__always)
    static func contains(
        _ text: String, word wordTest: (UInt64) -> Bool, byte byteTest: (UInt8) -> Bool
    ) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { contains($0, word: wordTest, byte: byteTest) }
        return found ?? text.utf8.contains(where: byteTest)
    }

    /// `contains` over bytes in memory.
    @inline(__always)
    static func contains(
        _ bytes: UnsafeBufferPointer<UInt8>, word wordTest: (UInt64) -> Bool, byte byteTest: (UInt8) -> Bool
    ) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index &+ 8 <= bytes.count {
            if wordTest(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) {
                return true
            }
            index &+= 8
        }
        // The last few bytes of text of a word or more: its last word, overlapping bytes already
        // tested (none of them qualified, so they cannot make it hold), rather than a test a byte.
        if index < bytes.count, bytes.count >= 8 {
            return wordTest(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self)))
        }
        while index < bytes.count {
            if byteTest(base[index]) { return true }
            index &+= 1
        }
        return false
    }

    /// Calls `body` with the UTF-8 bytes of `text` in contiguous memory (a copy's only if they are not).
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }
}
