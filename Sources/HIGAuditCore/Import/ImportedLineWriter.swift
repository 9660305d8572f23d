/// Writes one line of this tool's NDJSON (SPEC §2) from the pieces an importer found, into a buffer
/// reused from line to line. Strings found in the source are copied as they stand, escapes and all
/// (a JSON string's bytes are valid between quotes anywhere), so nothing is decoded twice.
struct ImportedLineWriter {
    private(set) var bytes: [UInt8] = []
    /// `bytes`, for the few edits the importer makes in place (a session name's `#n`).
    var bytesForEditing: [UInt8] {
        get { bytes }
        _modify { yield &bytes }
    }
    private var first = true

    init() { bytes.reserveCapacity(1024) }

    mutating func begin() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    mutating func end() { bytes.append(UInt8(ascii: "}")) }

    private mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }

    /// A key taken from the source (a property's name), copied as it stands.
    private mutating func key(raw: UnsafeBufferPointer<UInt8>) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: raw)
        bytes.append(contentsOf: "\":".utf8)
    }

    mutating func integer(_ name: StaticString, _ value: Int64) {
        key(name)
        appendInteger(value)
    }

    mutating func number(_ name: StaticString, _ value: Double) {
        key(name)
        appendNumber(value)
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A string given as text: escaped here.
    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        appendEscaped(value)
    }

    mutating func string(_ name: StaticString, _ value: StaticString) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
    }

    /// The value at `index` of `tape`, as it stands in the source (a string keeps its escapes).
    mutating func value(_ name: StaticString, from tape: borrowing JSONTape, _ index: Int) {
        key(name)
        appendValue(from: tape, index)
    }

    /// A member whose key is the source's key at `keyIndex`, valued from the source.
    mutating func member(from tape: borrowing JSONTape, key keyIndex: Int, value valueIndex: Int) {
        key(raw: tape.bytes(keyIndex))
        appendValue(from: tape, valueIndex)
    }

    /// A member whose key is the source's key at `keyIndex`, valued by the caller with `append*`.
    mutating func memberKey(from tape: borrowing JSONTape, _ keyIndex: Int) {
        key(raw: tape.bytes(keyIndex))
    }

    mutating func appendValue(from tape: borrowing JSONTape, _ index: Int) {
        let entry = tape[index]
        if entry.kind == .string {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: tape.bytes(index))
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: tape.bytes(index))
        }
    }

    mutating func appendNumber(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            bytes.append(contentsOf: "\(value)".utf8)
        }
    }

    /// Decimal digits written in place: a `String` per number was a heap allocation per timestamp.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var n = 0
            repeat {
                buffer[23 - n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            } while magnitude > 0
            return n
        }
        withUnsafeBytes(of: &digits) { buffer in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    mutating func appendRaw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func appendEscaped(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: "\\\"".utf8)
            case 0x5C: bytes.append(contentsOf: "\\\\".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
