/// The byte encoding of a parked session (`ParkedSession`): LEB128 varints, zigzag for signed
/// numbers, texts as their bytes. It lives only in the memory of the process that wrote it, so it
/// has no version and may change with the code; what must survive a run goes through the checkpoint.
struct PackedWriter {
    private(set) var bytes: [UInt8] = []
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
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        heldAside.removeAll()
        previousTexts = EventTexts()
        previousSource = SourceLocation(file: 0, line: 0)
        previousString = nil
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Most numbers written are below 128 (flags, counts, cases, distances between neighbours): one
    /// byte, appended in place.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else {
            unsignedOfSeveralBytes(value)
        }
    }

    @inline(never)
    private mutating func unsignedOfSeveralBytes(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
    }

    mutating func count(_ value: Int) {
        unsigned(UInt64(value))
    }

    mutating func bool(_ value: Bool) {
        byte(value ? 1 : 0)
    }

    /// Its 8 bytes as they are: a coordinate's or duration's bit pattern has its high bits set, so a
    /// varint would take 10.
    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Its length + 1 and bytes, or 0 for the same bytes as the previous string written.
    mutating func string(_ value: String) {
        if let previousString, CompactText.sameBytes(previousString, value) {
            byte(0)
            return
        }
        count(value.utf8.count &+ 1)
        bytes.append(contentsOf: value.utf8)
        previousString = value
    }

    /// A text as the engine keeps it: an inline text's bytes (a packed UUID's 16), or a long text's.
    mutating func text(_ value: CompactText) {
        if let (low, high, count) = value.inlineParts {
            byte(count)
            let stored = PackedUUID.isPacked(count: count) ? 16 : Int(count)
            withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { raw in
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw.prefix(stored)))
            }
        } else {
            byte(Self.longTextMarker)
            string(value.string)
        }
    }

    /// A case of an enumeration by its place in `allCases`.
    mutating func choice<Value: CaseIterable & Equatable>(_ value: Value) {
        count(Value.allCases.firstIndex(of: value).map { Value.allCases.distance(from: Value.allCases.startIndex, to: $0) } ?? 0)
    }

    /// The marker before a text of more than 16 bytes: no inline count has it.
    static let longTextMarker: UInt8 = 0xFF
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

    mutating func signed() -> Int64 {
        let zigzag = unsigned()
        return Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
    }

    mutating func count() -> Int {
        Int(unsigned())
    }

    mutating func bool() -> Bool {
        byte() != 0
    }

    mutating func double() -> Double {
        var pattern: UInt64 = 0
        copyBytes(into: &pattern, count: 8)
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

    mutating func choice<Value: CaseIterable>(_: Value.Type) -> Value {
        let index = count()
        precondition(index < Value.allCases.count, "a parked session names an unknown case")
        return Value.allCases[Value.allCases.index(Value.allCases.startIndex, offsetBy: index)]
    }
}
