/// Finds the `EventField` of a key in a few branch-free steps.
///
/// A `switch` on the key's length mispredicts on nearly every key (lengths vary from key to key), which
/// showed up as the largest single cost of matching. Instead a hash of (length, first byte, last byte)
/// picks the one candidate field, and one masked comparison of up to 32 bytes confirms it.
///
/// Most members are not looked up that way: `headField` recognises a compact head (`"key":`) wherever
/// it stands by its key's first bytes, without the key's length.
///
/// Both hashes are derived from the schema's keys (`EventSchema`) when the first matcher is made: their
/// multipliers are searched for (`PerfectHash`) until no two keys share a bucket, so a new key never
/// makes another unmatchable. What no multiplier can fix stops the program there, naming the keys
/// (`KeyMatcherTests` makes the first test run find it): two keys of the same length, first and last
/// byte, or a key too long for one 32-byte comparison of its head. Keys whose first eight bytes are
/// the same are not recognised by their heads; the general reading finds them.
struct KeyMatcher {
    static let wordsPerKey = 4
    /// The longest key whose compact head, `"key":`, fits the 32 bytes compared at once.
    static var longestKey: Int { wordsPerKey * 8 - 3 }

    /// 32 bytes to compare with, zero-padded, and the mask of those that count.
    struct Pattern {
        var words: InlineArray<4, UInt64>
        var masks: InlineArray<4, UInt64>
    }

    /// The hashes' multipliers, first in the storage.
    struct Multipliers {
        var bucket: UInt64
        var firstBytes: UInt64
    }

    /// Per bucket, its one field or nil. Fields are stored as values (one byte each), not as raw values:
    /// `EventField(rawValue:)` is an out-of-line switch.
    typealias Buckets = InlineArray<256, EventField?>
    static var bucketBits: Int { 8 }

    /// Every table in one allocation, at the offsets of `Layout`, so that the member loop keeps one
    /// pointer in a register where separate tables made it spill and reload them per member:
    /// `Multipliers`; the fields of the (length, first, last) hash's `Buckets`; the fields of the
    /// `firstBytes` hash's `Buckets` (all nil in a matcher that does not recognise heads by their first
    /// bytes); per field, its key's length; per field, its key's `Pattern`; per field, its head's.
    private let storage: UnsafeMutableRawPointer

    /// Offsets derived from the regions' types and the number of keys: constants once optimised.
    private enum Layout {
        static var multipliers: Int { 0 }
        static var bucketFields: Int { multipliers + MemoryLayout<Multipliers>.size }
        static var firstBytesFields: Int { bucketFields + MemoryLayout<Buckets>.size }
        static var keyLengths: Int { aligned(firstBytesFields + MemoryLayout<Buckets>.size, MemoryLayout<Int>.alignment) }
        /// Patterns start on a cache line; a pattern is one (`MemoryLayout<Pattern>.stride` is 64).
        static var keyPatterns: Int { aligned(keyLengths + EventField.count * MemoryLayout<Int>.stride, 64) }
        static var headPatterns: Int { keyPatterns + EventField.count * MemoryLayout<Pattern>.stride }
        static var byteCount: Int { headPatterns + EventField.count * MemoryLayout<Pattern>.stride }
        static var bucketMultiplier: Int { multipliers + MemoryLayout<Multipliers>.offset(of: \.bucket)! }
        static var firstBytesMultiplier: Int { multipliers + MemoryLayout<Multipliers>.offset(of: \.firstBytes)! }
        static var patternWords: Int { MemoryLayout<Pattern>.offset(of: \.words)! }
        static var patternMasks: Int { MemoryLayout<Pattern>.offset(of: \.masks)! }

        static func aligned(_ offset: Int, _ alignment: Int) -> Int { (offset + alignment - 1) & -alignment }
    }

    /// A copy of `template`: building the tables takes a few hundred small arrays, too many for a
    /// decoder made for one line (as the fast path's check makes one). Without
    /// `recognisesHeads`, `headField` finds nothing: the strict decoder's matcher.
    init(recognisesHeads: Bool = true) {
        storage = .allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.copyMemory(from: Self.template, byteCount: Layout.byteCount)
        if !recognisesHeads {
            (storage + Layout.firstBytesFields).initializeMemory(
                as: EventField?.self, repeating: nil, count: 1 << Self.bucketBits)
        }
    }

    /// The keys' bytes, in `EventField` order.
    static var keys: [[UInt8]] {
        EventField.allCases.map { Array(UnsafeBufferPointer(start: $0.key.utf8Start, count: $0.key.utf8CodeUnitCount)) }
    }

    /// The tables as a new matcher starts with them, built once from the schema's keys. Never written
    /// after.
    nonisolated(unsafe) private static let template: UnsafeRawPointer = {
        precondition(
            MemoryLayout<EventField?>.size == 1 && MemoryLayout<EventField>.size == 1
                && MemoryLayout<Buckets>.size == 1 << bucketBits && MemoryLayout<Pattern>.stride == 64
                && Layout.patternMasks == Layout.patternWords + 8 * wordsPerKey,
            "KeyMatcher: its tables' types are not laid out as it reads them")
        // The schema's own check first: key lengths and bytes (`EventSchema.problems`).
        _ = EventSchema.types
        let keys = Self.keys
        if let (a, b) = lengthFirstLastClashes(keys).first {
            preconditionFailure(
                "EventSchema: the keys \"\(EventField.allCases[a].key)\" and \"\(EventField.allCases[b].key)\" have the same "
                    + "length, first and last byte, which KeyMatcher tells keys apart by: rename one")
        }
        guard let bucketHash = PerfectHash(separating: keys.map(lengthFirstLastSignature), bits: bucketBits),
            let (firstBytesHash, firstBytesBuckets) = firstBytesTable(keys)
        else { preconditionFailure("KeyMatcher: no hash separates the schema's \(keys.count) keys in \(1 << bucketBits) buckets") }

        let storage = UnsafeMutableRawPointer.allocate(byteCount: Layout.byteCount, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Layout.byteCount)
        storage.storeBytes(
            of: Multipliers(bucket: bucketHash.multiplier, firstBytes: firstBytesHash.multiplier),
            toByteOffset: Layout.multipliers, as: Multipliers.self)
        let bucketFields = (storage + Layout.bucketFields).bindMemory(to: EventField?.self, capacity: 1 << bucketBits)
        bucketFields.initialize(repeating: nil, count: 1 << bucketBits)
        let firstBytesFields = (storage + Layout.firstBytesFields).bindMemory(to: EventField?.self, capacity: 1 << bucketBits)
        firstBytesFields.initialize(repeating: nil, count: 1 << bucketBits)
        for (bucket, index) in firstBytesBuckets { firstBytesFields[bucket] = EventField.allCases[index] }
        for (field, bytes) in zip(EventField.allCases, keys) {
            bucketFields[bucketHash.bucket(lengthFirstLastSignature(bytes))] = field
            storage.storeBytes(of: bytes.count, toByteOffset: Layout.keyLengths + MemoryLayout<Int>.stride * field.rawValue, as: Int.self)
            (storage + Layout.keyPatterns + field.rawValue * MemoryLayout<Pattern>.stride)
                .storeBytes(of: pattern(bytes), as: Pattern.self)
            (storage + Layout.headPatterns + field.rawValue * MemoryLayout<Pattern>.stride)
                .storeBytes(of: pattern([0x22] + bytes + [0x22, 0x3A]), as: Pattern.self)
        }
        return UnsafeRawPointer(storage)
    }()

    /// The (length, first byte, last byte) of a key, the general reading's hash of it.
    @inline(__always)
    static func lengthFirstLastSignature(length: Int, first: UInt8, last: UInt8) -> UInt64 {
        UInt64(truncatingIfNeeded: length) | UInt64(first) &<< 32 | UInt64(last) &<< 40
    }

    static func lengthFirstLastSignature(_ key: [UInt8]) -> UInt64 {
        lengthFirstLastSignature(length: key.count, first: key.first ?? 0, last: key.last ?? 0)
    }

    /// The pairs of keys (by index) that the general reading's hash cannot tell apart, whatever its
    /// multiplier.
    static func lengthFirstLastClashes(_ keys: [[UInt8]]) -> [(Int, Int)] {
        var seen: [UInt64: Int] = [:]
        var clashes: [(Int, Int)] = []
        for (index, key) in keys.enumerated() {
            if let other = seen.updateValue(index, forKey: lengthFirstLastSignature(key)) { clashes.append((other, index)) }
        }
        return clashes
    }

    /// The hash of the keys' `firstBytes` and, per bucket, the index of its key. Keys whose first bytes
    /// another key shares get no bucket (their heads are read the general way); nil when no multiplier
    /// separates the others.
    static func firstBytesTable(_ keys: [[UInt8]]) -> (PerfectHash, [(bucket: Int, key: Int)])? {
        let firstBytes = keys.map { Self.firstBytes(ofKey: $0) }
        var counts: [UInt64: Int] = [:]
        for word in firstBytes { counts[word, default: 0] += 1 }
        let distinct = firstBytes.indices.filter { counts[firstBytes[$0]] == 1 }
        guard let hash = PerfectHash(separating: distinct.map { firstBytes[$0] }, bits: bucketBits) else { return nil }
        return (hash, distinct.map { (hash.bucket(firstBytes[$0]), $0) })
    }

    /// `bytes` (at most 32: the longest head, `"pencil_custom_action_enabled":`, is 31) as four
    /// little-endian words, then four words masking their length.
    static func pattern(_ bytes: [UInt8]) -> Pattern {
        precondition(bytes.count <= wordsPerKey * 8, "KeyMatcher: a pattern longer than 32 bytes")
        var pattern = Pattern(words: InlineArray(repeating: 0), masks: InlineArray(repeating: 0))
        for (i, byte) in bytes.enumerated() {
            pattern.words[i / 8] |= UInt64(byte) << (8 * UInt64(i % 8))
            pattern.masks[i / 8] |= 0xFF << (8 * UInt64(i % 8))
        }
        return pattern
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
        let multiplier = storage.load(fromByteOffset: Layout.firstBytesMultiplier, as: UInt64.self)
        let bucket = PerfectHash.bucket(Self.firstBytes(word), multiplier: multiplier, bits: Self.bucketBits)
        guard let field = storage.load(fromByteOffset: Layout.firstBytesFields &+ bucket, as: EventField?.self)
        else { return nil }
        let pattern = storage + (Layout.headPatterns &+ field.rawValue &* MemoryLayout<Pattern>.stride)
        if readable >= 32 { return Self.masked(pattern, equalAt: start) ? field : nil }
        return Self.equalNearTheEnd(pattern, start, count: keyLength(field) &+ 3, readable: readable) ? field : nil
    }

    /// The eight bytes after a key's opening quote (little-endian), cut after the first quote among
    /// them: a key of up to seven bytes with its closing quote, else its first eight bytes. Keys nearly
    /// always differ there (`pencil_preferred_action` and `pencil_custom_action_enabled` at their eighth
    /// byte; those that do not are left to the general reading, `firstBytesTable`), and what follows a
    /// short key (a colon, a value) does not count.
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

    /// Whether the 32 bytes at `start`, under the `Pattern` at `pattern`'s masks, equal its words.
    @inline(__always)
    private static func masked(_ pattern: UnsafeMutableRawPointer, equalAt start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        var difference: UInt64 = 0
        for i in 0..<wordsPerKey {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self))
            let expected = pattern.load(fromByteOffset: Layout.patternWords &+ i &* 8, as: UInt64.self)
            let mask = pattern.load(fromByteOffset: Layout.patternMasks &+ i &* 8, as: UInt64.self)
            difference |= (word ^ expected) & mask
        }
        return difference == 0
    }

    /// The length of the field's key in bytes.
    @inline(__always)
    func keyLength(_ field: EventField) -> Int {
        storage.load(fromByteOffset: Layout.keyLengths &+ MemoryLayout<Int>.stride &* field.rawValue, as: Int.self)
    }

    /// The general reading's bucket of a key of `length` bytes from `first` to `last`.
    @inline(__always)
    func bucket(length: Int, first: UInt8, last: UInt8) -> Int {
        PerfectHash.bucket(
            Self.lengthFirstLastSignature(length: length, first: first, last: last),
            multiplier: storage.load(fromByteOffset: Layout.bucketMultiplier, as: UInt64.self), bits: Self.bucketBits)
    }

    /// The `firstBytes` hash's bucket of a key's first bytes, for tests.
    func firstBytesBucket(_ firstBytes: UInt64) -> Int {
        PerfectHash.bucket(
            firstBytes, multiplier: storage.load(fromByteOffset: Layout.firstBytesMultiplier, as: UInt64.self),
            bits: Self.bucketBits)
    }

    /// The field whose key is the `count` bytes at `start` (unescaped). `end` bounds the readable bytes
    /// (the line's end), so the fast path may read up to 32 bytes past `start` only when they exist.
    @inline(__always)
    func field(start: UnsafePointer<UInt8>, count: Int, readableUpTo end: UnsafePointer<UInt8>) -> EventField? {
        guard count > 0 else { return nil }
        let bucket = bucket(length: count, first: start[0], last: start[count &- 1])
        guard let field = storage.load(fromByteOffset: Layout.bucketFields &+ bucket, as: EventField?.self) else {
            return nil
        }
        guard keyLength(field) == count else { return nil }
        let pattern = storage + (Layout.keyPatterns &+ field.rawValue &* MemoryLayout<Pattern>.stride)
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
