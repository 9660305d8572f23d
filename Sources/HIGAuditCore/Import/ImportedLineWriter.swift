/// Writes one line of this tool's NDJSON (SPEC §2) from the pieces an importer found, into a buffer
/// reused from line to line. Strings found in the source are copied as they stand, escapes and all
/// (a JSON string's bytes are valid between quotes anywhere), so nothing is decoded twice.
///
/// A class over memory of its own rather than a struct over `[UInt8]`: a line is a few dozen small
/// appends, and an array's append checks its buffer's uniqueness and goes through a generic copy on
/// each; here an append is a capacity check and a copy. The importer holds one writer per purpose
/// (the event's line, a synthetic start), each reused for every line.
final class ImportedLineWriter {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes of the line written so far.
    private(set) var count = 0
    private var first = true

    init() {
        capacity = 1024
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    /// The line written so far (valid only inside `body`).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// A copy of the line written so far (for tests).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(toHold: count &+ extra) }
    }

    @inline(never)
    private func grow(toHold needed: Int) {
        let larger = max(needed, capacity &* 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    @inline(__always)
    private func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count &+= 1
    }

    @inline(__always)
    private func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (start + count).initialize(from: bytes, count: length)
        count &+= length
    }

    @inline(__always)
    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        append(base, count: bytes.count)
    }

    @inline(__always)
    private func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    func begin() {
        count = 0
        append(UInt8(ascii: "{"))
        first = true
    }

    func end() { append(UInt8(ascii: "}")) }

    /// Drops the last byte written (a string's closing quote, to add to the string).
    func dropLastByte() { if count > 0 { count &-= 1 } }

    /// Bytes of `text` as they stand (no escaping: the caller's text is plain).
    func appendRawBytes(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    private func key(_ name: StaticString) {
        reserve(name.utf8CodeUnitCount &+ 4)
        if !first { append(UInt8(ascii: ",")) }
        first = false
        append(UInt8(ascii: "\""))
        append(name)
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
    }

    /// A key taken from the source (a property's name), copied as it stands.
    private func key(raw: UnsafeBufferPointer<UInt8>) {
        reserve(raw.count &+ 4)
        if !first { append(UInt8(ascii: ",")) }
        first = false
        append(UInt8(ascii: "\""))
        append(raw)
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
    }

    func integer(_ name: StaticString, _ value: Int64) {
        key(name)
        appendInteger(value)
    }

    func number(_ name: StaticString, _ value: Double) {
        key(name)
        appendNumber(value)
    }

    func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// A string given as text: escaped here.
    func string(_ name: StaticString, _ value: String) {
        key(name)
        appendEscaped(value)
    }

    func string(_ name: StaticString, _ value: StaticString) {
        key(name)
        append(UInt8(ascii: "\""))
        append(value)
        append(UInt8(ascii: "\""))
    }

    /// The value at `index` of `tape`, as it stands in the source (a string keeps its escapes).
    func value(_ name: StaticString, from tape: borrowing JSONTape, _ index: Int) {
        key(name)
        appendValue(from: tape, index)
    }

    /// A member named `name` whose value is `raw`, bytes of the source as they stand (in quotes when
    /// `quoted`: a string's bytes inside its quotes).
    func value(_ name: StaticString, raw: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        key(name)
        appendRaw(raw, quoted: quoted)
    }

    /// A member's key taken from the source as it stands, valued by the caller with `append*`.
    func member(rawKey: UnsafeBufferPointer<UInt8>) {
        key(raw: rawKey)
    }

    /// `raw`, bytes of the source as they stand, in quotes when `quoted`.
    func appendRaw(_ raw: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        guard quoted else { return append(raw) }
        reserve(raw.count &+ 2)
        append(UInt8(ascii: "\""))
        append(raw)
        append(UInt8(ascii: "\""))
    }

    /// A member whose key is the source's key at `keyIndex`, valued from the source.
    func member(from tape: borrowing JSONTape, key keyIndex: Int, value valueIndex: Int) {
        key(raw: tape.bytes(keyIndex))
        appendValue(from: tape, valueIndex)
    }

    /// A member whose key is the source's key at `keyIndex`, valued by the caller with `append*`.
    func memberKey(from tape: borrowing JSONTape, _ keyIndex: Int) {
        key(raw: tape.bytes(keyIndex))
    }

    func appendValue(from tape: borrowing JSONTape, _ index: Int) {
        appendRaw(tape.bytes(index), quoted: tape[index].kind == .string)
    }

    func appendNumber(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            appendRawBytes("\(value)")
        }
    }

    /// Decimal digits written in place: a `String` per number was a heap allocation per timestamp.
    func appendInteger(_ value: Int64) {
        reserve(20)  // Int64.min: a sign and 19 digits.
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits &+= 1
            rest /= 10
        }
        var at = start + count + digits
        repeat {
            at -= 1
            at.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count &+= digits
    }

    func appendRaw(_ text: StaticString) {
        append(text)
    }

    func appendEscaped(_ value: String) {
        append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                append("\\u00")
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xF)])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
