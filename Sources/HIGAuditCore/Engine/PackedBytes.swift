/// The byte encoding of a parked session (`ParkedSession`): LEB128 varints, zigzag for signed
/// numbers, texts as their bytes. It lives only in the memory of the process that wrote it, so it
/// has no version and may change with the code; what must survive a run goes through the checkpoint.
///
/// The bytes grow in memory the writer owns (`GrowingBytes`) rather than in an array: a parked event
/// is a dozen or more small writes, and each append to an array checked that its buffer was unshared
/// and large enough. Here every write checks only that there is room; `bytes` copies what was written
/// into an array of exactly that size, which the parked session keeps.
struct PackedWriter: ~Copyable {
    private var storage: GrowingBytes
    /// Values the bytes refer to by number (1-based) rather than hold: session settings other than the
    /// defaults (see `event(_:newestTs:)`).
    var heldAside: [SessionSettings] = []
    /// The texts of the latest event that had a text not among them, and the source of the event
    /// written last (`event(at:newestTs:)`): the next event's are written against them.
    var previousTexts = EventTexts()
    var previousSource = SourceLocation(file: 0, line: 0)
    /// The `String` written last (`string(_:)`): a session's events name the same target, modal or tab
    /// again and again, and one written again is a single byte that the reader answers with the
    /// `String` it made last, neither validated nor allocated again.
    private var previousString: String?

    init(reservingCapacity capacity: Int = 0) {
        storage = GrowingBytes(capacity: max(capacity, 32))
    }

    /// What has been written, in an array of its own.
    var bytes: [UInt8] { storage.bytes }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        storage.reserve(extra)
    }

    /// One byte where `reserve` made room.
    @inline(__always)
    private mutating func put(_ value: UInt8) {
        storage.end.pointee = value
        storage.count &+= 1
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        reserve(1)
        put(value)
    }

    /// Most numbers written are below 128 (flags, counts, cases, distances between neighbours): one
    /// byte.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        if value < 0x80 {
            byte(UInt8(truncatingIfNeeded: value))
        } else {
            unsignedOfSeveralBytes(value)
        }
    }

    @inline(never)
    private mutating func unsignedOfSeveralBytes(_ value: UInt64) {
        // A UInt64 takes at most 10 groups of 7 bits.
        reserve(10)
        var rest = value
        while rest >= 0x80 {
            put(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        put(UInt8(truncatingIfNeeded: rest))
    }

    @inline(__always)
    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
    }

    @inline(__always)
    mutating func count(_ value: Int) {
        unsigned(UInt64(value))
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        byte(value ? 1 : 0)
    }

    /// Its 8 bytes as they are: a coordinate's or duration's bit pattern has its high bits set, so a
    /// varint would take 10.
    @inline(__always)
    mutating func double(_ value: Double) {
        reserve(8)
        UnsafeMutableRawPointer(storage.end).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        storage.count &+= 8
    }

    /// Its length + 1 and bytes, or 0 for the same bytes as the previous string written.
    mutating func string(_ value: String) {
        if let previousString, CompactText.sameBytes(previousString, value) {
            byte(0)
            return
        }
        let length = value.utf8.count
        count(length &+ 1)
        reserve(length)
        let target = storage.end
        var utf8 = value
        utf8.withUTF8 { source in
            if let from = source.baseAddress { target.initialize(from: from, count: source.count) }
        }
        storage.count &+= length
        previousString = value
    }

    /// A text as the engine keeps it: an inline text's bytes (a packed UUID's 16), or a long text's.
    mutating func text(_ value: CompactText) {
        if let (low, high, count) = value.inlineParts {
            text(low: low, high: high, count: count)
        } else {
            byte(Self.longTextMarker)
            string(value.string)
        }
    }

    /// An inline text by its `CompactText` words and count (a `PackedUUID` count for a packed UUID).
    @inline(__always)
    mutating func text(low: UInt64, high: UInt64, count: UInt8) {
        // Both words are stored whole, then only the text's bytes kept: the room is there.
        reserve(17)
        put(count)
        let target = UnsafeMutableRawPointer(storage.end)
        target.storeBytes(of: low.littleEndian, as: UInt64.self)
        target.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        storage.count &+= PackedUUID.isPacked(count: count) ? 16 : Int(count)
    }

    /// A case of an enumeration by its place in `allCases`.
    @inline(__always)
    mutating func choice<Value: CaseIterable & Equatable>(_ value: Value) {
        count(CaseNumbers.place(of: value))
    }

    /// The marker before a text of more than 16 bytes: no inline count has it.
    static let longTextMarker: UInt8 = 0xFF
}

/// A case of an enumeration as its place in `allCases` and back, for `PackedWriter.choice` and
/// `PackedReader.choice`.
///
/// An enumeration of 2 to 256 cases without payloads is stored as one byte, its case's place in
/// declaration order (the Swift ABI numbers such cases from 0 in that order), and a synthesised
/// `allCases` lists the cases in that order: that byte is the place, read without building `allCases`
/// and searching it. Any other enumeration takes the search. `PackedEventTests` checks every case of
/// every enumeration a parked event holds.
enum CaseNumbers {
    @inline(__always)
    static func place<Value: CaseIterable & Equatable>(of value: Value) -> Int {
        if MemoryLayout<Value>.size == 1, Value.allCases.count <= 256 {
            let place = Int(unsafeBitCast(value, to: UInt8.self))
            assert(Value.allCases.firstIndex(of: value) == Value.allCases.index(Value.allCases.startIndex, offsetBy: place),
                   "\(Value.self) is not stored as its place in allCases")
            return place
        }
        return Value.allCases.firstIndex(of: value).map { Value.allCases.distance(from: Value.allCases.startIndex, to: $0) } ?? 0
    }

    /// The case at `place`, which the caller has checked is below `Value.allCases.count`.
    @inline(__always)
    static func value<Value: CaseIterable>(at place: Int, of _: Value.Type) -> Value {
        if MemoryLayout<Value>.size == 1, Value.allCases.count <= 256 {
            return unsafeBitCast(UInt8(truncatingIfNeeded: place), to: Value.self)
        }
        return Value.allCases[Value.allCases.index(Value.allCases.startIndex, offsetBy: place)]
    }
}

/// Reads what `PackedWriter` wrote, in the same order. The bytes never leave the process and are read
/// by the code that wrote them, so running off their end is a bug in this file's callers: it stops
/// the program rather than making up a session.
struct PackedReader {
    private let bytes: [UInt8]
    private(set) var offset = 0
    let heldAside: [SessionSettings]
    /// The texts and source of the event read last, as `PackedWriter` keeps them.
    var previousTexts = EventTexts()
    var previousSource = SourceLocation(file: 0, line: 0)
    /// The `String` read last, as `PackedWriter` keeps it.
    private var previousString: String?

    init(_ bytes: [UInt8], heldAside: [SessionSettings] = []) {
        self.bytes = bytes
        self.heldAside = heldAside
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8 {
        precondition(offset < bytes.count, "a parked session's bytes ended early")
        defer { offset &+= 1 }
        return bytes[offset]
    }

    @inline(__always)
    mutating func unsigned() -> UInt64 {
        let first = byte()
        return first < 0x80 ? UInt64(first) : unsignedOfSeveralBytes(first)
    }

    @inline(never)
    private mutating func unsignedOfSeveralBytes(_ first: UInt8) -> UInt64 {
        var value = UInt64(first & 0x7F)
        var shift: UInt64 = 7
        while true {
            let next = byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    @inline(__always)
    mutating func signed() -> Int64 {
        let zigzag = unsigned()
        return Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
    }

    @inline(__always)
    mutating func count() -> Int {
        Int(unsigned())
    }

    mutating func bool() -> Bool {
        byte() != 0
    }

    mutating func double() -> Double {
        precondition(8 <= bytes.count &- offset, "a parked session's bytes ended early")
        let start = offset
        offset &+= 8
        let pattern = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt64.self) }
        return Double(bitPattern: UInt64(littleEndian: pattern))
    }

    /// Copies the next `count` bytes into the first bytes of `words`.
    private mutating func copyBytes<Words>(into words: inout Words, count: Int) {
        precondition(count <= bytes.count &- offset, "a parked session's bytes ended early")
        let start = offset
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &words) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start &+ count)]))
            }
        }
        offset &+= count
    }

    mutating func string() -> String {
        let marker = count()
        guard marker > 0 else {
            guard let previousString else { preconditionFailure("a parked session repeats a string it never had") }
            return previousString
        }
        let length = marker &- 1
        precondition(length <= bytes.count &- offset, "a parked session's bytes ended early")
        defer { offset &+= length }
        let read = String(decoding: bytes[offset..<(offset &+ length)], as: UTF8.self)
        previousString = read
        return read
    }

    mutating func text() -> CompactText {
        let count = byte()
        if count == PackedWriter.longTextMarker { return CompactText(string()) }
        let stored = PackedUUID.isPacked(count: count) ? 16 : Int(count)
        var words: (UInt64, UInt64) = (0, 0)
        copyBytes(into: &words, count: stored)
        return CompactText(low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
    }

    mutating func choice<Value: CaseIterable>(_ type: Value.Type) -> Value {
        let index = count()
        precondition(index < Value.allCases.count, "a parked session names an unknown case")
        return CaseNumbers.value(at: index, of: type)
    }
}
