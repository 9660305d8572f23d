import Foundation

/// The primitives of `StoredSession`'s form: LEB128 counts, zigzag LEB128 signed numbers, 8-byte
/// little-endian words, length-prefixed UTF-8 strings and byte runs.
struct StoredBytesWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func count(_ value: Int) { unsigned(UInt64(value)) }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func run(_ value: [UInt8]) {
        count(value.count)
        bytes.append(contentsOf: value)
    }
}

/// Reads what `StoredBytesWriter` wrote (and the same primitives of `PackedCheckpoint`'s form); every
/// read checks what is left, so damaged bytes throw a `DecodingError` (never trap).
struct StoredBytesReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    /// What the bytes hold, as errors name it ("a stored session").
    let subject: String

    init(_ bytes: [UInt8], offset: Int, subject: String = "a stored session") {
        self.bytes = bytes
        self.offset = offset
        self.subject = subject
    }

    var atEnd: Bool { offset == bytes.count }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw damaged("the bytes end early") }
        defer { offset &+= 1 }
        return bytes[offset]
    }

    mutating func unsigned() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw damaged("a number too long") }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift &+= 7
        }
    }

    mutating func signed() throws -> Int64 {
        let zigzag = try unsigned()
        return Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
    }

    /// A count of things each at least `elementSize` bytes long, which the bytes left can hold.
    mutating func count(elementSize: Int = 1) throws -> Int {
        let count = try unsigned()
        guard count <= UInt64(bytes.count &- offset) / UInt64(elementSize) else { throw damaged("a count past the end") }
        return Int(count)
    }

    mutating func word() throws -> UInt64 {
        guard bytes.count &- offset >= 8 else { throw damaged("the bytes end early") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset &+ index]) << (8 &* UInt64(index)) }
        offset &+= 8
        return value
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw damaged("a flag that is neither 0 nor 1")
        }
    }

    mutating func string() throws -> String {
        let length = try count()
        defer { offset &+= length }
        return String(decoding: bytes[offset..<(offset &+ length)], as: UTF8.self)
    }

    /// A value of a wire-string enumeration, or an error naming what was not one.
    mutating func choice<Value: RawRepresentable>(_ type: Value.Type) throws -> Value where Value.RawValue == String {
        let wire = try string()
        guard let value = Value(rawValue: wire) else { throw damaged("an unknown \(Value.self) \"\(wire)\"") }
        return value
    }

    mutating func run() throws -> [UInt8] {
        let length = try count()
        defer { offset &+= length }
        return Array(bytes[offset..<(offset &+ length)])
    }

    func damaged(_ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "\(subject) with \(what) at byte \(offset)"))
    }
}
