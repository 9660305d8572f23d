/// Finds the `EventField` of a key in a few branch-free steps.
///
/// A `switch` on the key's length mispredicts on nearly every key (lengths vary from key to key), which
/// showed up as the largest single cost of matching. Instead a hash of (length, first byte, last byte)
/// picks the one candidate field, and one masked comparison of up to 32 bytes confirms it. The hash is
/// collision-free over the 30 keys (`KeyMatcherTests` checks it).
struct KeyMatcher {
    static let buckets = 64
    static let wordsPerKey = 4

    /// The field per hash bucket, or nil. Fields are stored as values (one byte each), not as raw
    /// values: `EventField(rawValue:)` is an out-of-line switch, once per key of every line.
    private let bucketFields: UnsafeMutablePointer<EventField?>
    /// Per field: the key's bytes, zero-padded to 32, as four words; then four masks of its length.
    private let patterns: UnsafeMutablePointer<UInt64>
    private let lengths: UnsafeMutablePointer<Int>
    /// Per field, its member's head as the compact layout writes it, in two variants: `"key":` and,
    /// for a string value, `"key":"`. Each as four words (zero-padded to 32 bytes), then four masks.
    private let heads: UnsafeMutablePointer<UInt64>
    /// Per member position in the top-level object, the field found there on the previous line, or nil,
    /// and whether its value was a string (see `predictedMember`).
    private let lastOrder: UnsafeMutablePointer<EventField?>
    private let lastQuoted: UnsafeMutablePointer<Bool>
    static let rememberedPositions = 32

    init() {
        lastOrder = .allocate(capacity: Self.rememberedPositions)
        lastOrder.initialize(repeating: nil, count: Self.rememberedPositions)
        lastQuoted = .allocate(capacity: Self.rememberedPositions)
        lastQuoted.initialize(repeating: false, count: Self.rememberedPositions)
        heads = .allocate(capacity: EventField.count * 2 * Self.wordsPerKey * 2)
        heads.initialize(repeating: 0, count: EventField.count * 2 * Self.wordsPerKey * 2)
        bucketFields = .allocate(capacity: Self.buckets)
        bucketFields.initialize(repeating: nil, count: Self.buckets)
        patterns = .allocate(capacity: EventField.count * Self.wordsPerKey * 2)
        patterns.initialize(repeating: 0, count: EventField.count * Self.wordsPerKey * 2)
        lengths = .allocate(capacity: EventField.count)
        lengths.initialize(repeating: 0, count: EventField.count)
        for field in EventField.allCases {
            let key = field.key
            let n = key.utf8CodeUnitCount
            let bytes = key.utf8Start
            let bucket = Self.bucket(length: n, first: bytes[0], last: bytes[n - 1])
            // Two keys in one bucket would make one of them unmatchable; the tests guard against it.
            if bucketFields[bucket] == nil { bucketFields[bucket] = field }
            lengths[field.rawValue] = n
            let words = patterns + field.rawValue * Self.wordsPerKey * 2
            for i in 0..<n {
                words[i / 8] |= UInt64(bytes[i]) << (8 * UInt64(i % 8))
                words[Self.wordsPerKey + i / 8] |= 0xFF << (8 * UInt64(i % 8))
            }
            for quoted in [false, true] {
                var head: [UInt8] = [0x22]
                head += UnsafeBufferPointer(start: bytes, count: n)
                head += quoted ? [0x22, 0x3A, 0x22] : [0x22, 0x3A]
                // The longest key (28 bytes) with its quotes, colon and a value's quote is 32 bytes.
                precondition(head.count <= Self.wordsPerKey * 8, "member head longer than 32 bytes")
                let words = heads + Self.headIndex(field, valueQuoted: quoted) * Self.wordsPerKey * 2
                for (i, byte) in head.enumerated() {
                    words[i / 8] |= UInt64(byte) << (8 * UInt64(i % 8))
                    words[Self.wordsPerKey + i / 8] |= 0xFF << (8 * UInt64(i % 8))
                }
            }
        }
    }

    @inline(__always)
    private static func headIndex(_ field: EventField, valueQuoted: Bool) -> Int {
        field.rawValue &* 2 &+ (valueQuoted ? 1 : 0)
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        bucketFields.deallocate()
        patterns.deallocate()
        lengths.deallocate()
        heads.deallocate()
        lastOrder.deallocate()
        lastQuoted.deallocate()
    }

    /// The member at `position` of the top-level object, if its head (`"key":`, and the opening quote
    /// of its value when that was a string) is byte for byte the one the previous line had there; nil
    /// otherwise, or when fewer than 32 bytes are readable from `start` (the key's opening quote) up to
    /// `end`.
    ///
    /// Lines of one log write their members in the same order and layout, so this usually replaces
    /// finding the key's closing quote, hashing the key, and checking the colon, any whitespace and the
    /// value's first byte, with one masked comparison of 32 bytes. Equal bytes mean exactly what the
    /// general reading would have found (no key contains a quote, a backslash or a control character),
    /// so the answer never differs from it.
    @inline(__always)
    func predictedMember(at position: Int, start: UnsafePointer<UInt8>, readableUpTo end: UnsafePointer<UInt8>)
        -> PredictedMember?
    {
        guard position < Self.rememberedPositions, end - start >= 32, let field = lastOrder[position] else {
            return nil
        }
        let quoted = lastQuoted[position]
        guard Self.masked(heads + Self.headIndex(field, valueQuoted: quoted) &* (Self.wordsPerKey &* 2), equalAt: start)
        else { return nil }
        return PredictedMember(field: field, valueQuoted: quoted, valueStart: lengths[field.rawValue] &+ 3)
    }

    /// Whether the 32 readable bytes at `start` begin with the key of field `fieldIndex`: one masked
    /// comparison of four words.
    @inline(__always)
    private func keyMatches(_ fieldIndex: Int, at start: UnsafePointer<UInt8>) -> Bool {
        Self.masked(patterns + fieldIndex &* (Self.wordsPerKey &* 2), equalAt: start)
    }

    /// Whether the 32 bytes at `start`, under the four mask words after the four pattern `words`,
    /// equal the pattern.
    @inline(__always)
    private static func masked(_ words: UnsafeMutablePointer<UInt64>, equalAt start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        var difference: UInt64 = 0
        for i in 0..<wordsPerKey {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self))
            difference |= (word ^ words[i]) & words[wordsPerKey &+ i]
        }
        return difference == 0
    }

    /// The length of the field's key in bytes.
    @inline(__always)
    func keyLength(_ field: EventField) -> Int { lengths[field.rawValue] }

    /// Notes which field (or none) the member at `position` of this line was, and whether its value is
    /// a string.
    @inline(__always)
    func remember(_ field: EventField?, valueQuoted: Bool, at position: Int) {
        guard position < Self.rememberedPositions else { return }
        lastOrder[position] = field
        lastQuoted[position] = valueQuoted
    }

    @inline(__always)
    static func bucket(length: Int, first: UInt8, last: UInt8) -> Int {
        (length &* 28 &+ Int(first) &+ Int(last) &* 20) & (buckets - 1)
    }

    /// The field whose key is the `count` bytes at `start` (unescaped). `end` bounds the readable bytes
    /// (the line's end), so the fast path may read up to 32 bytes past `start` only when they exist.
    @inline(__always)
    func field(start: UnsafePointer<UInt8>, count: Int, readableUpTo end: UnsafePointer<UInt8>) -> EventField? {
        guard count > 0 else { return nil }
        guard let field = bucketFields[Self.bucket(length: count, first: start[0], last: start[count &- 1])] else {
            return nil
        }
        let fieldIndex = field.rawValue
        guard lengths[fieldIndex] == count else { return nil }
        if end - start >= 32 {
            return keyMatches(fieldIndex, at: start) ? field : nil
        }
        let words = patterns + fieldIndex &* (Self.wordsPerKey &* 2)
        // Near the end of the line: compare byte by byte.
        for i in 0..<count where UInt64(start[i]) != (words[i / 8] >> (8 * UInt64(i % 8))) & 0xFF {
            return nil
        }
        return field
    }
}

/// A member recognised by its head (see `KeyMatcher.predictedMember`).
struct PredictedMember {
    let field: EventField
    /// Whether the value is a string: its opening quote is part of the head.
    let valueQuoted: Bool
    /// Where the value begins, counted from the key's opening quote.
    let valueStart: Int
}
