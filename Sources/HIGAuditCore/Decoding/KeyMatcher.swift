/// Finds the `EventField` of a key in a few branch-free steps.
///
/// A `switch` on the key's length mispredicts on nearly every key (lengths vary from key to key), which
/// showed up as the largest single cost of matching. Instead a hash of (length, first byte, last byte)
/// picks the one candidate field, and one masked comparison of up to 32 bytes confirms it. The hash is
/// collision-free over the 34 keys (`KeyMatcherTests` checks it).
///
/// Most members are not looked up at all: `predictedMember` recognises the head the previous line had
/// at the same position, and `recognisedMember` a head wherever it stands, by its key's first bytes.
struct KeyMatcher {
    static let buckets = 128
    static let wordsPerKey = 4
    static let rememberedPositions = 32

    /// Every table in one allocation, at the fixed offsets of `Layout`, so that the member loop keeps
    /// one pointer in a register where six separate tables made it spill and reload them per member:
    /// - per member position of the top-level object, the head the previous line had there (see
    ///   `headIndex`), or `noHead`;
    /// - per hash bucket, the field, or nil. Fields are stored as values (one byte each), not as raw
    ///   values: `EventField(rawValue:)` is an out-of-line switch;
    /// - per head, its field and where its value begins (counted from the key's opening quote);
    /// - per field, its key's length;
    /// - per field, the key's bytes, zero-padded to 32, as four words, then four masks of its length;
    /// - per head, the same for the head: `"key":` or, for a string value, `"key":"`;
    /// - per `firstBytesBucket`, the field, or nil (all nil in a matcher that does not recognise heads
    ///   by their first bytes).
    private let storage: UnsafeMutableRawPointer

    private enum Layout {
        static var lastHeads: Int { 0 }
        static var bucketFields: Int { 32 }
        static var headFields: Int { 160 }
        static var headValueStarts: Int { 240 }
        static var keyLengths: Int { 320 }
        static var keyPatterns: Int { 640 }
        static var headPatterns: Int { keyPatterns + EventField.count * patternBytes }
        static var firstBytesFields: Int { headPatterns + 2 * EventField.count * patternBytes }
        static var byteCount: Int { firstBytesFields + KeyMatcher.firstBytesBuckets }
        /// Four words of pattern and four of mask.
        static var patternBytes: Int { 64 }
    }

    private static let noHead: UInt8 = 0xFF

    static let firstBytesBuckets = 256
    /// Spreads the 34 keys' first bytes (`firstBytes`) over `firstBytesBuckets` buckets without two in
    /// one (`KeyMatcherTests` checks it): the golden ratio's multiplier, the first odd one after it that
    /// does.
    static let firstBytesMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C1F

    /// A copy of `template`: building the tables takes a few hundred small arrays, too many for a
    /// decoder made for one line (as the fast path's check makes one). Without
    /// `recognisesHeadsAnywhere`, `recognisedMember` finds nothing: the strict decoder's matcher.
    init(recognisesHeadsAnywhere: Bool = true) {
        storage = .allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.copyMemory(from: Self.template, byteCount: Layout.byteCount)
        if !recognisesHeadsAnywhere {
            (storage + Layout.firstBytesFields).initializeMemory(
                as: EventField?.self, repeating: nil, count: Self.firstBytesBuckets)
        }
    }

    /// The tables as a new matcher starts with them, built once. Never written after.
    nonisolated(unsafe) private static let template: UnsafeRawPointer = {
        precondition(
            MemoryLayout<EventField?>.size == 1 && MemoryLayout<EventField>.size == 1
                && Self.rememberedPositions <= Layout.bucketFields
                && Layout.bucketFields + Self.buckets <= Layout.headFields
                && Layout.headFields + 2 * EventField.count <= Layout.headValueStarts
                && Layout.headValueStarts + 2 * EventField.count <= Layout.keyLengths
                && Layout.keyLengths + 8 * EventField.count <= Layout.keyPatterns,
            "KeyMatcher tables overlap")
        let storage = UnsafeMutableRawPointer.allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Layout.byteCount)
        (storage + Layout.lastHeads).initializeMemory(as: UInt8.self, repeating: Self.noHead, count: Self.rememberedPositions)
        (storage + Layout.bucketFields).initializeMemory(as: EventField?.self, repeating: nil, count: Self.buckets)
        let bucketFields = (storage + Layout.bucketFields).assumingMemoryBound(to: EventField?.self)
        let firstBytesFields = (storage + Layout.firstBytesFields).bindMemory(to: EventField?.self, capacity: Self.firstBytesBuckets)
        firstBytesFields.initialize(repeating: nil, count: Self.firstBytesBuckets)
        for field in EventField.allCases {
            let key = field.key
            let n = key.utf8CodeUnitCount
            let bytes = UnsafeBufferPointer(start: key.utf8Start, count: n)
            let bucket = Self.bucket(length: n, first: bytes[0], last: bytes[n - 1])
            // Two keys in one bucket would make one of them unmatchable; the tests guard against it.
            if bucketFields[bucket] == nil { bucketFields[bucket] = field }
            let firstBytesBucket = Self.firstBytesBucket(Self.firstBytes(ofKey: Array(bytes)))
            if firstBytesFields[firstBytesBucket] == nil { firstBytesFields[firstBytesBucket] = field }
            storage.storeBytes(of: n, toByteOffset: Layout.keyLengths + 8 * field.rawValue, as: Int.self)
            Self.storePattern(Array(bytes), at: storage + Layout.keyPatterns + field.rawValue * Layout.patternBytes)
            for quoted in [false, true] {
                let head: [UInt8] = [0x22] + Array(bytes) + (quoted ? [0x22, 0x3A, 0x22] : [0x22, 0x3A])
                let index = Self.headIndex(field, valueQuoted: quoted)
                Self.storePattern(head, at: storage + Layout.headPatterns + index * Layout.patternBytes)
                storage.storeBytes(of: field, toByteOffset: Layout.headFields + index, as: EventField.self)
                storage.storeBytes(of: UInt8(n + 3), toByteOffset: Layout.headValueStarts + index, as: UInt8.self)
            }
        }
        return UnsafeRawPointer(storage)
    }()

    /// Writes `bytes` (at most 32: the longest key, 28 bytes, with its quotes, colon and a value's quote
    /// is 32) as four little-endian words, then four words masking their length.
    private static func storePattern(_ bytes: [UInt8], at destination: UnsafeMutableRawPointer) {
        precondition(bytes.count <= wordsPerKey * 8, "pattern longer than 32 bytes")
        var words = [UInt64](repeating: 0, count: wordsPerKey * 2)
        for (i, byte) in bytes.enumerated() {
            words[i / 8] |= UInt64(byte) << (8 * UInt64(i % 8))
            words[wordsPerKey + i / 8] |= 0xFF << (8 * UInt64(i % 8))
        }
        for (i, word) in words.enumerated() {
            destination.storeBytes(of: word, toByteOffset: i * 8, as: UInt64.self)
        }
    }

    /// Heads come in two variants per field: `"key":`, and `"key":"` for a string value.
    @inline(__always)
    private static func headIndex(_ field: EventField, valueQuoted: Bool) -> Int {
        field.rawValue &* 2 &+ (valueQuoted ? 1 : 0)
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        storage.deallocate()
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
        guard position < Self.rememberedPositions, end - start >= 32 else { return nil }
        let head = storage.load(fromByteOffset: Layout.lastHeads &+ position, as: UInt8.self)
        guard head != Self.noHead else { return nil }
        let index = Int(head)
        guard Self.masked(storage + (Layout.headPatterns &+ index &* Layout.patternBytes), equalAt: start) else {
            return nil
        }
        return PredictedMember(
            field: storage.load(fromByteOffset: Layout.headFields &+ index, as: EventField.self),
            valueQuoted: head & 1 == 1,
            valueStart: Int(storage.load(fromByteOffset: Layout.headValueStarts &+ index, as: UInt8.self)))
    }

    /// The member whose head (`"key":`) starts at `start`, wherever it stands in the object; nil when
    /// fewer than 32 bytes are readable from `start` up to `end`, or when the bytes there are not a
    /// field's head byte for byte (an unread key, an escape, whitespace before the colon): the general
    /// reading decides then.
    ///
    /// For writers that order keys anew on every line (Foundation's `JSONEncoder` without
    /// `.sortedKeys`), where the previous line's order predicts nothing. The key's bytes up to its
    /// closing quote, at most eight (`firstBytes`), pick its one candidate field without finding the
    /// quote first, and the head is confirmed by one masked comparison, as in `predictedMember`, with the
    /// same argument that the answer is the general reading's. A string value's quote is not part of
    /// the head compared: the caller looks at the value's first byte, as after a predicted `"key":`.
    @inline(__always)
    func recognisedMember(start: UnsafePointer<UInt8>, readableUpTo end: UnsafePointer<UInt8>) -> PredictedMember? {
        guard end - start >= 32 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        let bucket = Self.firstBytesBucket(Self.firstBytes(word))
        guard let field = storage.load(fromByteOffset: Layout.firstBytesFields &+ bucket, as: EventField?.self),
            Self.masked(
                storage + (Layout.headPatterns &+ Self.headIndex(field, valueQuoted: false) &* Layout.patternBytes),
                equalAt: start)
        else { return nil }
        return PredictedMember(field: field, valueQuoted: false, valueStart: keyLength(field) &+ 3)
    }

    /// The eight bytes after a key's opening quote (little-endian), cut after the first quote among
    /// them: a key of up to seven bytes with its closing quote, else its first eight bytes. Keys differ
    /// there (`pencil_preferred_action` and `pencil_custom_action_enabled` at their eighth byte), and
    /// what follows a short key (a colon, a value) does not count.
    @inline(__always)
    static func firstBytes(_ word: UInt64) -> UInt64 {
        // The lowest quote's high bit is exact (`JSONScanner.zeroBytes`); with none, all 64 bits stay.
        let lastKeptBit = min(JSONScanner.zeroBytes(word ^ 0x2222_2222_2222_2222).trailingZeroBitCount, 63)
        return word & (UInt64.max &>> (63 &- lastKeptBit))
    }

    /// `firstBytes` of a key given as its bytes, for building the table and for tests.
    static func firstBytes(ofKey key: [UInt8]) -> UInt64 {
        var word: UInt64 = 0
        for (i, byte) in (key + [0x22]).prefix(8).enumerated() { word |= UInt64(byte) << (8 * UInt64(i)) }
        return firstBytes(word)
    }

    @inline(__always)
    static func firstBytesBucket(_ firstBytes: UInt64) -> Int {
        Int(truncatingIfNeeded: (firstBytes &* firstBytesMultiplier) &>> 56)
    }

    /// Whether the 32 bytes at `start`, under the four mask words after the four pattern words at
    /// `pattern`, equal the pattern.
    @inline(__always)
    private static func masked(_ pattern: UnsafeMutableRawPointer, equalAt start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        var difference: UInt64 = 0
        for i in 0..<wordsPerKey {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self))
            let expected = pattern.load(fromByteOffset: i &* 8, as: UInt64.self)
            let mask = pattern.load(fromByteOffset: (wordsPerKey &+ i) &* 8, as: UInt64.self)
            difference |= (word ^ expected) & mask
        }
        return difference == 0
    }

    /// The length of the field's key in bytes.
    @inline(__always)
    func keyLength(_ field: EventField) -> Int {
        storage.load(fromByteOffset: Layout.keyLengths &+ 8 &* field.rawValue, as: Int.self)
    }

    /// Notes which field (or none) the member at `position` of this line was, and whether its value is
    /// a string.
    @inline(__always)
    func remember(_ field: EventField?, valueQuoted: Bool, at position: Int) {
        guard position < Self.rememberedPositions else { return }
        let head = field.map { UInt8(truncatingIfNeeded: Self.headIndex($0, valueQuoted: valueQuoted)) } ?? Self.noHead
        storage.storeBytes(of: head, toByteOffset: Layout.lastHeads &+ position, as: UInt8.self)
    }

    @inline(__always)
    static func bucket(length: Int, first: UInt8, last: UInt8) -> Int {
        (length &* 5 &+ Int(first) &+ Int(last) &* 30) & (buckets - 1)
    }

    /// The field whose key is the `count` bytes at `start` (unescaped). `end` bounds the readable bytes
    /// (the line's end), so the fast path may read up to 32 bytes past `start` only when they exist.
    @inline(__always)
    func field(start: UnsafePointer<UInt8>, count: Int, readableUpTo end: UnsafePointer<UInt8>) -> EventField? {
        guard count > 0 else { return nil }
        let bucket = Self.bucket(length: count, first: start[0], last: start[count &- 1])
        guard let field = storage.load(fromByteOffset: Layout.bucketFields &+ bucket, as: EventField?.self) else {
            return nil
        }
        guard keyLength(field) == count else { return nil }
        let pattern = storage + (Layout.keyPatterns &+ field.rawValue &* Layout.patternBytes)
        if end - start >= 32 {
            return Self.masked(pattern, equalAt: start) ? field : nil
        }
        // Near the end of the line: compare byte by byte.
        for i in 0..<count where start[i] != pattern.load(fromByteOffset: i, as: UInt8.self) {
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
