/// A text field of an event (`session`, `device`, `app`, `app_version`, `os_version`, `screen`, `id`),
/// held inline when it is at most 16 bytes of UTF-8, as those fields nearly always are, or a canonical
/// UUID (`PackedUUID`), as session ids often are.
///
/// A `String` per field would cost every decoded event a `String` to build or a retain of a remembered
/// one, and a release per field when the event is done with; an inline value is two words the decoder
/// copies from the line and nobody retains. The engine compares and
/// hashes these values; `Event`'s `String` properties make the `String` when someone asks. Every way
/// of making one keeps texts of up to 16 bytes inline, so equal texts are equal values.
///
/// Texts are equal when their bytes are, as keys are (no Unicode normalisation): `String`'s `==` would
/// make canonically equivalent spellings (`é` and `e` + U+0301) one session id, but only for ids too
/// long to be inline. Duplicate ids were always told apart by their bytes.
struct CompactText: Sendable {
    private enum Storage: Sendable {
        /// Bytes 0–7 and 8–15, little-endian, zero beyond `count`; or, with a count of
        /// `PackedUUID.lowercase` or `.uppercase`, a UUID's 128 bits.
        case inline(UInt64, UInt64, count: UInt8)
        case text(String)
    }

    private let storage: Storage

    static let inlineCapacity = 16

    init(_ text: String) {
        guard text.utf8.count <= Self.inlineCapacity else {
            if text.utf8.count == PackedUUID.textLength {
                var text = text
                if let packed = text.withUTF8({ PackedUUID.pack($0.baseAddress!) }) {
                    storage = .inline(packed.low, packed.high, count: packed.count)
                    return
                }
            }
            storage = .text(text)
            return
        }
        var bytes = text
        storage = bytes.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return .inline(0, 0, count: 0) }
            return Self.inline(start, count: utf8.count, readable: utf8.count)
        }
    }

    @inline(__always)
    private static func inline(_ start: UnsafePointer<UInt8>, count: Int, readable: Int) -> Storage {
        let words = inlineWords(start, count: count, readable: readable)
        return .inline(words.low, words.high, count: UInt8(truncatingIfNeeded: count))
    }

    /// The words of the inline text of `count` ≤ 16 bytes of valid UTF-8 at `start`, of which `readable`
    /// bytes may be read (reading 16 at once when they are there).
    @inline(__always)
    static func inlineWords(_ start: UnsafePointer<UInt8>, count: Int, readable: Int) -> (low: UInt64, high: UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        if readable >= 16 {
            let raw = UnsafeRawPointer(start)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            // Keep the first `count` bytes (shifts of 64 or more are written out as zero).
            low = count >= 8 ? low : low & ((1 &<< UInt64(count &* 8)) &- 1)
            high = count >= 16 ? high : count <= 8 ? 0 : high & ((1 &<< UInt64((count &- 8) &* 8)) &- 1)
        } else {
            for i in 0..<count {
                if i < 8 { low |= UInt64(start[i]) &<< UInt64(i &* 8) } else { high |= UInt64(start[i]) &<< UInt64((i &- 8) &* 8) }
            }
        }
        return (low, high)
    }

    /// The inline text of `count` ≤ 16 bytes whose bytes are `low` and `high` (as `inline` makes them),
    /// or the UUID packed with a `PackedUUID` count.
    @inline(__always)
    init(low: UInt64, high: UInt64, count: UInt8) {
        assert(count <= Self.inlineCapacity || count == PackedUUID.lowercase || count == PackedUUID.uppercase)
        storage = .inline(low, high, count: count)
    }

    /// The words and count of an inline text (a `PackedUUID` count for a packed UUID); nil for another
    /// text of more than 16 bytes (see `longText`).
    @inline(__always)
    var inlineParts: (low: UInt64, high: UInt64, count: UInt8)? {
        if case .inline(let low, let high, let count) = storage { return (low, high, count) }
        return nil
    }

    /// A text of more than 16 bytes; nil for an inline one.
    var longText: String? {
        if case .text(let text) = storage { return text }
        return nil
    }

    var string: String {
        switch storage {
        case .inline(let low, let high, let count) where PackedUUID.isPacked(count: count):
            PackedUUID.string(low: low, high: high, count: count)
        case .inline(let low, let high, let count):
            withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { raw in
                String(decoding: raw.prefix(Int(count)), as: UTF8.self)
            }
        case .text(let text):
            text
        }
    }

    /// `EventIdentity.fingerprint` of the text, for an event id.
    @inline(__always)
    var fingerprint: UInt64 {
        switch storage {
        case .inline(let low, let high, let count):
            return Self.inlineFingerprint(low: low, high: high, count: count)
        case .text(let text):
            return EventIdentity.fingerprint(text)
        }
    }
}

extension CompactText {
    /// `fingerprint` of the inline text with these words.
    @inline(__always)
    static func inlineFingerprint(low: UInt64, high: UInt64, count: UInt8) -> UInt64 {
        if PackedUUID.isPacked(count: count) { return PackedUUID.fingerprint(low: low, high: high, count: count) }
        var hash = EventIdentity.offsetBasis
        var word = low
        var i = 0
        while i < Int(count) {
            if i == 8 { word = high }
            hash = (hash ^ (word & 0xFF)) &* EventIdentity.prime
            word &>>= 8
            i &+= 1
        }
        return hash
    }
}

extension CompactText {
    /// Whether two texts have the same UTF-8 bytes. The decoder hands consecutive lines the same
    /// `String` when a field's bytes repeat (`RecentStrings`), so the texts compared (a session's key
    /// and its next event's session id) are nearly always the same value bit for bit, which is enough.
    /// (A `String` is two words where pointers are 64 bits; elsewhere only the bytes are compared.)
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        #if _pointerBitWidth(_64)
        if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
        #endif
        return sameBytesCompared(a, b)
    }

    /// `sameBytes` byte by byte: in place when both are contiguous (native strings are), which
    /// `utf8.elementsEqual` is not (it walks the views index by index).
    @inline(never)
    private static func sameBytesCompared(_ a: String, _ b: String) -> Bool {
        let inPlace = a.utf8.withContiguousStorageIfAvailable { aBytes in
            b.utf8.withContiguousStorageIfAvailable { bBytes in
                guard aBytes.count == bBytes.count else { return false }
                guard let aStart = aBytes.baseAddress, let bStart = bBytes.baseAddress else { return true }
                return ByteComparison.equal(aStart, bStart, count: aBytes.count)
            }
        }
        if let inPlace, let result = inPlace { return result }
        return a.utf8.elementsEqual(b.utf8)
    }
}

extension CompactText: Hashable {
    @inline(__always)
    static func == (a: CompactText, b: CompactText) -> Bool {
        switch (a.storage, b.storage) {
        case let (.inline(aLow, aHigh, aCount), .inline(bLow, bHigh, bCount)):
            return aLow == bLow && aHigh == bHigh && aCount == bCount
        case let (.text(aText), .text(bText)):
            return sameBytes(aText, bText)
        default:
            // An inline text has at most 16 bytes or is a canonical UUID, and a `.text` one is neither.
            return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch storage {
        case let .inline(low, high, count):
            hasher.combine(low)
            hasher.combine(high)
            hasher.combine(count)
        case .text(var text):
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}

/// In checkpoints a text is its `String`, as on the wire.
extension CompactText: Codable {
    init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}

/// The text, not the words, in failed expectations and debuggers.
extension CompactText: CustomStringConvertible {
    var description: String { string.debugDescription }
}
