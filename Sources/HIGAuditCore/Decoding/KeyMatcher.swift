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
    /// Per key position in the top-level object, the field found there on the previous line, or nil
    /// (see `predictedField`).
    private let lastOrder: UnsafeMutablePointer<EventField?>
    static let rememberedPositions = 32

    init() {
        lastOrder = .allocate(capacity: Self.rememberedPositions)
        lastOrder.initialize(repeating: nil, count: Self.rememberedPositions)
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
        }
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        bucketFields.deallocate()
        patterns.deallocate()
        lengths.deallocate()
        lastOrder.deallocate()
    }

    /// The field whose key, with its closing quote, starts at `start` if it is the key the previous line
    /// had at the same `position`, else nil; `end` bounds the readable bytes.
    ///
    /// Lines of one log write their keys in the same order, so this usually saves scanning the key for
    /// its closing quote and hashing it. Equal bytes up to and including the quote mean the key is that
    /// field's key exactly (no key contains a quote, a backslash or a control character), so the answer
    /// never differs from scanning and `field(start:count:readableUpTo:)`.
    @inline(__always)
    func predictedField(at position: Int, start: UnsafePointer<UInt8>, readableUpTo end: UnsafePointer<UInt8>)
        -> EventField?
    {
        guard position < Self.rememberedPositions, end - start >= 32, let field = lastOrder[position] else {
            return nil
        }
        guard start[lengths[field.rawValue]] == 0x22 else { return nil }
        return keyMatches(field.rawValue, at: start) ? field : nil
    }

    /// Whether the 32 readable bytes at `start` begin with the key of field `fieldIndex`: one masked
    /// comparison of four words.
    @inline(__always)
    private func keyMatches(_ fieldIndex: Int, at start: UnsafePointer<UInt8>) -> Bool {
        let words = patterns + fieldIndex &* (Self.wordsPerKey &* 2)
        let raw = UnsafeRawPointer(start)
        var difference: UInt64 = 0
        for i in 0..<Self.wordsPerKey {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self))
            difference |= (word ^ words[i]) & words[Self.wordsPerKey &+ i]
        }
        return difference == 0
    }

    /// The length of the field's key in bytes.
    @inline(__always)
    func keyLength(_ field: EventField) -> Int { lengths[field.rawValue] }

    /// Notes which field (or none) the key at `position` of this line was.
    @inline(__always)
    func remember(_ field: EventField?, at position: Int) {
        guard position < Self.rememberedPositions else { return }
        lastOrder[position] = field
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
