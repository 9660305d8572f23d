/// Finds the `EventField` of a key in a few branch-free steps.
///
/// A `switch` on the key's length mispredicts on nearly every key (lengths vary from key to key), which
/// showed up as the largest single cost of matching. Instead a hash of (length, first byte, last byte)
/// picks the one candidate field, and one masked comparison of up to 32 bytes confirms it. The hash is
/// collision-free over the 36 keys (`KeyMatcherTests` checks it).
///
/// Most members are not looked up that way: `headField` recognises a compact head (`"key":`) wherever
/// it stands by its key's first bytes, without the key's length.
struct KeyMatcher {
    static let buckets = 128
    static let wordsPerKey = 4

    /// Every table in one allocation, at the fixed offsets of `Layout`, so that the member loop keeps
    /// one pointer in a register where separate tables made it spill and reload them per member:
    /// - per hash bucket, the field, or nil. Fields are stored as values (one byte each), not as raw
    ///   values: `EventField(rawValue:)` is an out-of-line switch;
    /// - per `firstBytesBucket`, the field, or nil (all nil in a matcher that does not recognise heads
    ///   by their first bytes);
    /// - per field, its key's length;
    /// - per field, the key's bytes, zero-padded to 32, as four words, then four masks of its length;
    /// - per field, the same for its head, `"key":`.
    private let storage: UnsafeMutableRawPointer

    private enum Layout {
        static var bucketFields: Int { 0 }
        static var firstBytesFields: Int { 128 }
        static var keyLengths: Int { 384 }
        static var keyPatterns: Int { 704 }
        static var headPatterns: Int { keyPatterns + EventField.count * patternBytes }
        static var byteCount: Int { headPatterns + EventField.count * patternBytes }
        /// Four words of pattern and four of mask.
        static var patternBytes: Int { 64 }
    }

    static let firstBytesBuckets = 256
    /// Spreads the 36 keys' first bytes (`firstBytes`) over `firstBytesBuckets` buckets without two in
    /// one (`KeyMatcherTests` checks it): the golden ratio's multiplier, the first odd one after it that
    /// does.
    static let firstBytesMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C1F

    /// A copy of `template`: building the tables takes a few hundred small arrays, too many for a
    /// decoder made for one line (as the fast path's check makes one). Without
    /// `recognisesHeads`, `headField` finds nothing: the strict decoder's matcher.
    init(recognisesHeads: Bool = true) {
        storage = .allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.copyMemory(from: Self.template, byteCount: Layout.byteCount)
        if !recognisesHeads {
            (storage + Layout.firstBytesFields).initializeMemory(
                as: EventField?.self, repeating: nil, count: Self.firstBytesBuckets)
        }
    }

    /// The tables as a new matcher starts with them, built once. Never written after.
    nonisolated(unsafe) private static let template: UnsafeRawPointer = {
        precondition(
            MemoryLayout<EventField?>.size == 1 && MemoryLayout<EventField>.size == 1
                && Layout.bucketFields + Self.buckets <= Layout.firstBytesFields
                && Layout.firstBytesFields + Self.firstBytesBuckets <= Layout.keyLengths
                && Layout.keyLengths + 8 * EventField.count <= Layout.keyPatterns && Layout.keyPatterns % 64 == 0,
            "KeyMatcher tables overlap")
        let storage = UnsafeMutableRawPointer.allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Layout.byteCount)
        let bucketFields = (storage + Layout.bucketFields).bindMemory(to: EventField?.self, capacity: Self.buckets)
        bucketFields.initialize(repeating: nil, count: Self.buckets)
        let firstBytesFields = (storage + Layout.firstBytesFields).bindMemory(to: EventField?.self, capacity: Self.firstBytesBuckets)
        firstBytesFields.initialize(repeating: nil, count: Self.firstBytesBuckets)
        for field in EventField.allCases {
            let key = field.key
            let n = key.utf8CodeUnitCount
            let bytes = Array(UnsafeBufferPointer(start: key.utf8Start, count: n))
            // Two keys in one bucket would make one of them unmatchable; the tests guard against it.
            let bucket = Self.bucket(length: n, first: bytes[0], last: bytes[n - 1])
            if bucketFields[bucket] == nil { bucketFields[bucket] = field }
            let firstBytesBucket = Self.firstBytesBucket(Self.firstBytes(ofKey: bytes))
            if firstBytesFields[firstBytesBucket] == nil { firstBytesFields[firstBytesBucket] = field }
            storage.storeBytes(of: n, toByteOffset: Layout.keyLengths + 8 * field.rawValue, as: Int.self)
            Self.storePattern(bytes, at: storage + Layout.keyPatterns + field.rawValue * Layout.patternBytes)
            Self.storePattern([0x22] + bytes + [0x22, 0x3A], at: storage + Layout.headPatterns + field.rawValue * Layout.patternBytes)
        }
        return UnsafeRawPointer(storage)
    }()

    /// Writes `bytes` (at most 32: the longest head, `"pencil_custom_action_enabled":`, is 31) as four
    /// little-endian words, then four words masking their length.
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

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        storage.deallocate()
    }

    /// The field whose compact head, `"key":`, starts at `start` (the key's opening quote); nil when
    /// the bytes there are no field's head byte for byte (an unread key, an escape, whitespace before
    /// the colon), or fewer than 9 bytes are readable up to `end`: the general reading decides then.
    ///
    /// Writers put the keys in their own order, some in a new order on every line (Foundation's
    /// `JSONEncoder` without `.sortedKeys`), so a head is recognised wherever it stands: the key's
    /// bytes up to its closing quote, at most eight (`firstBytes`), pick its one candidate field without
    /// finding the quote first, and one masked comparison of 32 bytes (byte by byte near the end of
    /// the line) confirms the head. Equal bytes mean exactly what the general reading would have found
    /// (no key contains a quote, a backslash or a control character), so the answer never differs from
    /// it. The value begins `keyLength(field) + 3` bytes after `start`.
    @inline(__always)
    func headField(start: UnsafePointer<UInt8>, readableUpTo end: UnsafePointer<UInt8>) -> EventField? {
        let readable = end - start
        guard readable >= 9 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        guard let field = storage.load(
            fromByteOffset: Layout.firstBytesFields &+ Self.firstBytesBucket(Self.firstBytes(word)), as: EventField?.self)
        else { return nil }
        let pattern = storage + (Layout.headPatterns &+ field.rawValue &* Layout.patternBytes)
        if readable >= 32 { return Self.masked(pattern, equalAt: start) ? field : nil }
        return Self.equalNearTheEnd(pattern, start, count: keyLength(field) &+ 3, readable: readable) ? field : nil
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
        return Self.equalNearTheEnd(pattern, start, count: count, readable: count) ? field : nil
    }

    /// Whether the `count` bytes at `start` equal the pattern's first `count`, when fewer than 32 bytes
    /// are readable there (never when fewer than `count` are). Out of line: near the end of a line only.
    @inline(never)
    private static func equalNearTheEnd(
        _ pattern: UnsafeMutableRawPointer, _ start: UnsafePointer<UInt8>, count: Int, readable: Int
    ) -> Bool {
        guard count <= readable else { return false }
        return ByteComparison.equal(start, UnsafeRawPointer(pattern).assumingMemoryBound(to: UInt8.self), count: count)
    }
}
