/// Writes one line of this tool's NDJSON (SPEC §2) from the pieces an importer found, into a buffer
/// reused from line to line. Strings found in the source are copied as they stand, escapes and all
/// (a JSON string's bytes are valid between quotes anywhere), so nothing is decoded twice.
///
/// A class over bytes of its own (`GrowingBytes`) rather than a struct over `[UInt8]`: a line is a few
/// dozen small appends, and an array's append checks its buffer's uniqueness and goes through a
/// generic copy on each. Each piece is written by a `Cursor` into room reserved first: one check per member here,
/// or one per line for a writer that bounds its line beforehand (`write(room:_:)`, as
/// `EventImporter.writePlanned` does). The importer holds one writer per purpose (the event's line, a
/// synthetic start), each reused for every line.
///
/// Lines kept (`keepLine`) stay ahead of the line being written, each with its newline, until they are
/// handed on together (`handOnKept`): `import` writes its lines straight into the run of lines it
/// hands to the file, rather than copying each into it by a call of its own.
final class ImportedLineWriter {
    private var line = GrowingBytes(capacity: 1024)
    private var first = true
    /// Where the line being written begins: the bytes before it are the kept lines.
    private var kept = 0
    /// How many lines the kept bytes hold.
    private(set) var keptLines = 0

    /// Bytes of the line written so far.
    var count: Int { line.count &- kept }

    /// Bytes of the kept lines.
    var keptBytes: Int { kept }

    /// The line written so far (valid only inside `body`).
    func withBytes<R, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        try body(UnsafeRawBufferPointer(start: line.start + kept, count: line.count &- kept))
    }

    /// A copy of the line written so far (for tests).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: line.start + kept, count: line.count &- kept)) }

    /// Keeps the line written, with a newline, after the lines kept before it; the next line starts
    /// after it.
    @inline(__always)
    func keepLine() {
        line.reserve(1)
        line.end.pointee = 0x0A
        line.count &+= 1
        kept = line.count
        keptLines &+= 1
        first = true
    }

    /// Keeps `other`'s line (a synthetic start, written apart) as the next kept line.
    func keepLine(of other: ImportedLineWriter) {
        line.count = kept
        other.withBytes { line.append($0) }
        keepLine()
    }

    /// Hands the kept lines to `body` (their bytes, each line ending in a newline, and how many they
    /// are) and forgets them, with any line begun after them.
    func handOnKept(_ body: (UnsafeRawBufferPointer, Int) -> Void) {
        let lines = keptLines
        let bytes = UnsafeRawBufferPointer(start: line.start, count: kept)
        kept = 0
        keptLines = 0
        line.count = 0
        first = true
        body(bytes, lines)
    }

    /// Calls `body` with a cursor at the end of the line and room for `room` more bytes, which it
    /// must not write past.
    @inline(__always)
    func write(room: Int, _ body: (inout Cursor) -> Void) {
        line.reserve(room)
        var cursor = Cursor(at: line.end, first: first)
        body(&cursor)
        line.count = cursor.at - line.start
        first = cursor.first
    }

    /// A cursor at the end of the line, and the end of the room after it (at least `room` bytes), for
    /// a run of pieces each of which checks its own room against that end and, short of it, asks
    /// for more (`grow`); `close` ends the run. No closure, unlike `write(room:_:)`: a long run's
    /// cursor stays in registers rather than in memory a closure shares.
    @inline(__always)
    func open(room: Int) -> (cursor: Cursor, end: UnsafeMutablePointer<UInt8>) {
        line.reserve(room)
        return (Cursor(at: line.end, first: first), line.start + line.capacity)
    }

    /// Doubles the room of an open run at least, to `room` bytes past the cursor, which moves with the
    /// bytes.
    @inline(never)
    func grow(_ cursor: inout Cursor, _ end: inout UnsafeMutablePointer<UInt8>, room: Int) {
        close(cursor)
        line.reserve(max(room, line.capacity &- line.count &+ 1))
        (cursor, end) = open(room: 0)
    }

    /// Ends a run (`open`): the line is what its cursor wrote.
    @inline(__always)
    func close(_ cursor: Cursor) {
        line.count = cursor.at - line.start
        first = cursor.first
    }

    func begin() {
        clear()
        write(room: 1) { $0.byte(UInt8(ascii: "{")) }
    }

    /// Forgets the line: the next piece starts a new one, without its opening brace (`begin` writes it).
    @inline(__always)
    func clear() {
        line.count = kept
        first = true
    }

    func end() { write(room: 1) { $0.byte(UInt8(ascii: "}")) } }

    /// Drops the last byte written (a string's closing quote, to add to the string).
    func dropLastByte() { if line.count > kept { line.count &-= 1 } }

    /// Bytes of `text` as they stand (no escaping: the caller's text is plain).
    func appendRawBytes(_ text: String) {
        var text = text
        text.withUTF8 { raw in write(room: raw.count) { $0.raw(raw, quoted: false) } }
    }

    @inline(__always)
    func integer(_ name: StaticString, _ value: Int64) {
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount) &+ Cursor.integerRoom) {
            $0.key(name)
            $0.integer(value)
        }
    }

    func number(_ name: StaticString, _ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 { return integer(name, Int64(value)) }
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount)) { $0.key(name) }
        appendRawBytes("\(value)")
    }

    func bool(_ name: StaticString, _ value: Bool) {
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount) &+ 5) {
            $0.key(name)
            $0.text(value ? "true" : "false")
        }
    }

    /// A string given as text: escaped here.
    func string(_ name: StaticString, _ value: String) {
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount)) { $0.key(name) }
        appendEscaped(value)
    }

    @inline(__always)
    func string(_ name: StaticString, _ value: StaticString) {
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount) &+ value.utf8CodeUnitCount &+ 2) {
            $0.key(name)
            $0.text(value, quoted: true)
        }
    }

    /// The value at `index` of `tape`, as it stands in the source (a string keeps its escapes).
    @inline(__always)
    func value(_ name: StaticString, from tape: borrowing JSONTape, _ index: Int) {
        value(name, raw: tape.bytes(index), quoted: tape[index].kind == .string)
    }

    /// A member named `name` whose value is `raw`, bytes of the source as they stand (in quotes when
    /// `quoted`: a string's bytes inside its quotes).
    @inline(__always)
    func value(_ name: StaticString, raw: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        write(room: Cursor.keyRoom(name.utf8CodeUnitCount) &+ raw.count &+ 2) {
            $0.key(name)
            $0.raw(raw, quoted: quoted)
        }
    }

    /// A member whose key is the source's key at `keyIndex`, valued from the source.
    func member(from tape: borrowing JSONTape, key keyIndex: Int, value valueIndex: Int) {
        member(rawKey: tape.bytes(keyIndex), raw: tape.bytes(valueIndex), quoted: tape[valueIndex].kind == .string)
    }

    /// A member whose key and value are bytes of the source as they stand (the value in quotes when
    /// `quoted`).
    func member(rawKey key: UnsafeBufferPointer<UInt8>, raw value: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        write(room: Cursor.keyRoom(key.count) &+ value.count &+ 2) {
            $0.key(raw: key)
            $0.raw(value, quoted: quoted)
        }
    }

    /// A member whose key is bytes of the source as they stand, valued by an integer.
    func member(rawKey key: UnsafeBufferPointer<UInt8>, integer: Int64) {
        write(room: Cursor.keyRoom(key.count) &+ Cursor.integerRoom) {
            $0.key(raw: key)
            $0.integer(integer)
        }
    }

    func appendEscaped(_ value: String) {
        write(room: 1) { $0.byte(UInt8(ascii: "\"")) }
        for byte in value.utf8 {
            // Six bytes at most a byte (`\u00XX`).
            write(room: 6) { cursor in
                switch byte {
                case 0x22: cursor.text("\\\"")
                case 0x5C: cursor.text("\\\\")
                case 0x0A: cursor.text("\\n")
                case 0x0D: cursor.text("\\r")
                case 0x09: cursor.text("\\t")
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    cursor.text("\\u00")
                    cursor.byte(hex.utf8Start[Int(byte >> 4)])
                    cursor.byte(hex.utf8Start[Int(byte & 0xF)])
                default: cursor.byte(byte)
                }
            }
        }
        write(room: 1) { $0.byte(UInt8(ascii: "\"")) }
    }

    /// Writes pieces of a line into room its writer reserved (`write(room:_:)`), without checking it.
    struct Cursor {
        fileprivate(set) var at: UnsafeMutablePointer<UInt8>
        /// Whether no member was written yet (the next key takes no comma).
        fileprivate(set) var first: Bool

        /// The room a key of `count` bytes takes: a comma, its quotes and the colon.
        @inline(__always)
        static func keyRoom(_ count: Int) -> Int { count &+ 4 }

        /// The room an integer takes at most: `Int64.min`, a sign and 19 digits.
        static let integerRoom = 20

        @inline(__always)
        mutating func byte(_ byte: UInt8) {
            at.pointee = byte
            at += 1
        }

        /// Most keys and values are a few bytes to a few dozen: copied by loads and stores that
        /// overlap rather than by a call of `memcpy`, which costs more than such a copy.
        @inline(__always)
        mutating func bytes(_ bytes: UnsafePointer<UInt8>, count length: Int) {
            let to = UnsafeMutableRawPointer(at)
            let from = UnsafeRawPointer(bytes)
            if length >= 16 && length <= 32 {
                to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: length &- 16, as: SIMD16<UInt8>.self),
                              toByteOffset: length &- 16, as: SIMD16<UInt8>.self)
            } else if length >= 8 && length < 16 {
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self),
                              toByteOffset: length &- 8, as: UInt64.self)
            } else if length >= 4 && length < 8 {
                to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self),
                              toByteOffset: length &- 4, as: UInt32.self)
            } else if length < 4 {
                var i = 0
                while i < length {
                    to.storeBytes(of: bytes[i], toByteOffset: i, as: UInt8.self)
                    i &+= 1
                }
            } else {
                to.copyMemory(from: from, byteCount: length)
            }
            at += length
        }

        /// `length` bytes of `bytes`, where 32 bytes can be read from `bytes` and written at the cursor:
        /// a short piece (most keys with their quotes and commas) is copied as 32 bytes at once, and
        /// the bytes past it are written over by the next piece or left past the line's end.
        @inline(__always)
        mutating func bytes(padded bytes: UnsafePointer<UInt8>, count length: Int) {
            guard length <= 32 else { return self.bytes(bytes, count: length) }
            let to = UnsafeMutableRawPointer(at)
            let from = UnsafeRawPointer(bytes)
            to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16, as: SIMD16<UInt8>.self)
            at += length
        }

        @inline(__always)
        mutating func text(_ text: StaticString, quoted: Bool = false) {
            if quoted { byte(UInt8(ascii: "\"")) }
            bytes(text.utf8Start, count: text.utf8CodeUnitCount)
            if quoted { byte(UInt8(ascii: "\"")) }
        }

        /// `raw`, bytes of the source as they stand, in quotes when `quoted`.
        @inline(__always)
        mutating func raw(_ raw: UnsafeBufferPointer<UInt8>, quoted: Bool) {
            if quoted { byte(UInt8(ascii: "\"")) }
            if let base = raw.baseAddress { bytes(base, count: raw.count) }
            if quoted { byte(UInt8(ascii: "\"")) }
        }

        /// A key's bytes: `,` unless it is the first, and `"name":`.
        @inline(__always)
        mutating func key(_ name: StaticString) {
            key(name.utf8Start, count: name.utf8CodeUnitCount)
        }

        /// A key taken from the source (a property's name), copied as it stands.
        @inline(__always)
        mutating func key(raw: UnsafeBufferPointer<UInt8>) {
            guard let base = raw.baseAddress else { return key(at, count: 0) }
            key(base, count: raw.count)
        }

        @inline(__always)
        private mutating func key(_ name: UnsafePointer<UInt8>, count length: Int) {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            byte(UInt8(ascii: "\""))
            bytes(name, count: length)
            byte(UInt8(ascii: "\""))
            byte(UInt8(ascii: ":"))
        }

        /// Decimal digits written in place: a `String` per number was a heap allocation per timestamp.
        /// Eight digits at a time (`eightDigits`), the first eight or fewer without their leading
        /// zeros; each store is of eight bytes, within the `integerRoom` an integer is given.
        mutating func integer(_ value: Int64) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            let magnitude = value.magnitude
            let hundredMillion: UInt64 = 100_000_000
            guard magnitude >= hundredMillion else { return leadingDigits(magnitude) }
            let high = magnitude / hundredMillion
            let low = magnitude % hundredMillion
            if high < hundredMillion {
                leadingDigits(high)
            } else {
                // At most 19 digits: `high` has at most 11.
                leadingDigits(high / hundredMillion)
                allDigits(high % hundredMillion)
            }
            allDigits(low)
        }

        /// `value` (below 10^8) without leading zeros, "0" for 0.
        @inline(__always)
        private mutating func leadingDigits(_ value: UInt64) {
            let digits = Self.eightDigits(value)
            // The leading zeros are the first bytes (in memory order, the low ones) that are "0".
            let zeros = value == 0 ? 7 : (digits &- 0x3030_3030_3030_3030).trailingZeroBitCount / 8
            UnsafeMutableRawPointer(at).storeBytes(of: (digits >> UInt64(zeros &* 8)).littleEndian, as: UInt64.self)
            at += 8 &- zeros
        }

        /// `value` (below 10^8) as eight digits, leading zeros and all.
        @inline(__always)
        private mutating func allDigits(_ value: UInt64) {
            UnsafeMutableRawPointer(at).storeBytes(of: Self.eightDigits(value).littleEndian, as: UInt64.self)
            at += 8
        }

        /// The eight decimal digits of `value` (below 10^8) as ASCII, the first in the low byte: the
        /// halves of four digits, their pairs, and the pairs' digits, each split in all lanes of the
        /// word at once by a multiply and shift that divide exactly in their range.
        @inline(__always)
        static func eightDigits(_ value: UInt64) -> UInt64 {
            // Lanes of 32 bits: the first four digits, then the last four.
            let halves = (value / 10_000) | ((value % 10_000) << 32)
            // Lanes of 16 bits: each half's pairs (v / 100 is (v * 10486) >> 20 below 10^4).
            let hundreds = ((halves &* 10486) >> 20) & 0x0000_007F_0000_007F
            let pairs = ((halves &- hundreds &* 100) << 16) | hundreds
            // Lanes of 8 bits: each pair's digits (v / 10 is (v * 103) >> 10 below 100).
            let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
            let digits = ((pairs &- tens &* 10) << 8) | tens
            return digits &+ 0x3030_3030_3030_3030
        }
    }
}
