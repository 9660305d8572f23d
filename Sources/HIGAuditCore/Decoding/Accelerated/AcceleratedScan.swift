/// The accelerated path's scan of a line no learned shape matched: the strict JSON validation of
/// `ReferenceScan`, with the member loop sped up: a member with a compact head (`"key":`) of a field
/// is recognised by its key's first bytes (`KeyMatcher.headField`), other keys are looked up by length
/// and end bytes (`KeyMatcher.field`), and strings and numbers are read in the loop. It notes the same
/// fields as the reference scan; a line it finds malformed is declined (`EventDecoder` hands it to the
/// reference path, whose verdict it gets).
struct AcceleratedScan {
    let base: UnsafePointer<UInt8>
    let count: Int
    let fields: UnsafeMutablePointer<FieldValue>
    let numbers: UnsafeMutablePointer<Double>
    let keys: KeyMatcher

    /// Validates the line and records the known fields of its top-level object; `unreadMembers` is set
    /// when the object has a member no field reads, and `members` notes the fields in line order
    /// (`MemberOrder`), for learning.
    /// - Returns: false for a blank line.
    func scan(unreadMembers: inout Bool, members: inout MemberOrder) throws(MalformedLine) -> Bool {
        var scanner = JSONScanner(base: base, count: count)
        scanner.skipWhitespace()
        guard scanner.pos < count else { return false }
        let isObject = base[scanner.pos] == 0x7B
        if isObject {
            try scanTopLevelObject(&scanner, unreadMembers: &unreadMembers, members: &members)
        } else {
            try scanner.skipValue(depth: 0)
        }
        if scanner.pos < count, base[scanner.pos] <= 0x20 { scanner.skipWhitespace() }
        guard scanner.pos == count else {
            throw JSONError.trailingContent(base, at: scanner.pos, end: count)
        }
        guard isObject else { throw MalformedLine(reason: "top-level value is not an object", column: 0) }
        return true
    }

    /// The member loop. The position lives in a local, not in `scanner`: the scanner's memory is the
    /// caller's, and the compiler stored it back after every step (stores through `fields` might alias
    /// it) and reloaded `base` and the key tables for every key. It is handed to the scanner only for
    /// the rare cases that need it (an escaped or long string, a non-string value, an unknown key).
    ///
    /// Each turn starts at the `{` or `,` before a member. A member with a compact head (`"key":`) of a
    /// field is recognised by its key's first bytes and one comparison, whatever the order of the keys
    /// (`KeyMatcher.headField`); any other takes the general reading: whitespace, the key, whitespace,
    /// the colon, whitespace.
    private func scanTopLevelObject(
        _ scanner: inout JSONScanner, unreadMembers: inout Bool, members: inout MemberOrder
    ) throws(MalformedLine) {
        let base = self.base
        let count = self.count
        let fields = self.fields
        let keys = self.keys
        var pos = scanner.pos
        let first = JSONScanner.whitespaceEnd(base, from: pos &+ 1, end: count)
        if first < count, base[first] == 0x7D {
            scanner.pos = first &+ 1
            return
        }
        while true {
            let keyColumn: Int
            let field: EventField?
            // Whether the value (at `pos` once the head is read) is a string, its opening quote at `pos`.
            let valueQuoted: Bool
            if let recognised = keys.headField(start: base + (pos &+ 1), readableUpTo: base + count) {
                keyColumn = pos &+ 1
                field = recognised
                // After the key's closing quote and the colon. The quote is found in the line's bytes (the
                // same place: the head was compared), among the key's first eight bytes or, for a longer
                // key, as the general reading finds it, rather than from the field's key length: then the
                // next member's place does not wait for the field.
                let keyStart = keyColumn &+ 1
                let quotes = JSONScanner.zeroBytes(
                    UInt64(littleEndian: UnsafeRawPointer(base + keyStart).loadUnaligned(as: UInt64.self))
                        ^ 0x2222_2222_2222_2222)
                if quotes != 0 {
                    pos = keyStart &+ (quotes.trailingZeroBitCount &>> 3) &+ 2
                } else {
                    pos = (JSONScanner.plainStringEnd(base, from: keyStart, end: count)
                        ?? (keyStart &+ keys.keyLength(recognised))) &+ 2
                }
                if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
                valueQuoted = pos < count && base[pos] == 0x22
            } else {
                pos = JSONScanner.whitespaceEnd(base, from: pos &+ 1, end: count)
                guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
                keyColumn = pos
                guard base[keyColumn] == 0x22 else { throw JSONError.unexpected(base, at: keyColumn, end: count) }
                let keyStart = keyColumn &+ 1
                scanner.pos = keyStart
                let keyEscaped = try scanner.scanStringBody()
                pos = scanner.pos
                let keyLength = pos &- 1 &- keyStart
                field = keyEscaped
                    ? ReferenceScan.fieldForEscapedKey(base: base, start: keyStart, end: keyStart &+ keyLength)
                    : keys.field(start: base + keyStart, count: keyLength, readableUpTo: base + count)
                // The colon, with optional whitespace around it.
                if pos < count, base[pos] == 0x3A {
                    pos &+= 1
                } else {
                    pos = JSONScanner.whitespaceEnd(base, from: pos, end: count)
                    guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
                    guard base[pos] == 0x3A else { throw JSONError.unexpected(base, at: pos, end: count) }
                    pos &+= 1
                }
                if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
                valueQuoted = pos < count && base[pos] == 0x22
            }
            if let field {
                let value: FieldValue
                if valueQuoted {
                    // Strings, most values, are read here, the only place: `scanKnownValue`, which the
                    // optimiser keeps out of line, would cost a call per field.
                    let start = pos &+ 1
                    let escaped: Bool
                    if let quote = JSONScanner.plainStringEnd(base, from: start, end: count)
                        ?? (count &- start < 16 ? JSONScanner.plainStringEndNearTheEnd(base, from: start, end: count) : nil)
                    {
                        pos = quote &+ 1
                        escaped = false
                    } else {
                        scanner.pos = start
                        escaped = try scanner.scanStringBodyLoop()
                        pos = scanner.pos
                    }
                    value = FieldValue(
                        kind: .string, flag: escaped, start: Int32(truncatingIfNeeded: start),
                        end: Int32(truncatingIfNeeded: pos &- 1))
                } else if pos < count, base[pos] == 0x2D || JSONScanner.isDigit(base[pos]) {
                    // Numbers (`x`, `y` of every touch) are read here too, their value with them.
                    scanner.pos = pos
                    var number = 0.0
                    let integer = try scanner.scanNumber(value: &number)
                    value = FieldValue(
                        kind: .number, flag: integer, start: Int32(truncatingIfNeeded: pos),
                        end: Int32(truncatingIfNeeded: scanner.pos))
                    pos = scanner.pos
                    // Written for a repeated key too: a field the line's type reads cannot repeat (the
                    // line is malformed), and one it does not read is never read.
                    numbers[field.rawValue] = number
                } else {
                    scanner.pos = pos
                    value = try scanKnownValue(&scanner)
                    pos = scanner.pos
                }
                let slot = fields + field.rawValue
                if slot.pointee.kind == .absent {
                    slot.pointee = value
                    members.note(field)
                } else {
                    slot.pointee.noteDuplicate(keyColumn: keyColumn)
                    members.repeated = true
                }
            } else {
                unreadMembers = true
                scanner.pos = pos
                try scanner.skipValue(depth: 1)
                pos = scanner.pos
            }
            if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
            guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
            switch base[pos] {
            case 0x2C:
                continue
            case 0x7D:
                scanner.pos = pos &+ 1
                return
            default:
                throw JSONError.unexpected(base, at: pos, end: count)
            }
        }
    }

    /// Validates the value of a known key that is neither a string nor a number (the member loop in
    /// `scanTopLevelObject` reads those itself): a literal or a container. Notes its type and position.
    private func scanKnownValue(_ scanner: inout JSONScanner) throws(MalformedLine) -> FieldValue {
        let start = scanner.pos
        guard start < count else { throw JSONError.unexpectedEnd(at: start) }
        let kind: FieldValue.Kind
        switch base[start] {
        case 0x74:
            kind = .true
            try scanner.scanLiteral("true")
        case 0x66:
            kind = .false
            try scanner.scanLiteral("false")
        case 0x6E:
            kind = .null
            try scanner.scanLiteral("null")
        case 0x7B:
            kind = .object
            try scanner.skipObject(depth: 2)
        case 0x5B:
            kind = .array
            try scanner.skipArray(depth: 2)
        default:
            throw JSONError.unexpected(base, at: start, end: count)
        }
        return FieldValue(
            kind: kind, flag: false, start: Int32(truncatingIfNeeded: start),
            end: Int32(truncatingIfNeeded: scanner.pos))
    }
}

/// The known fields of a line in the order its keys come, as a hash (`LineShapes.learn` asks whether
/// it has seen the layout before without sorting the field table by position), whether a field's
/// key came twice (such a line is never learned), and the fields set (`EventDecoder` clears only
/// those before the next line).
struct MemberOrder {
    private(set) var hash: UInt64 = MemberOrder.empty
    var repeated = false
    /// Bit `field.rawValue` set for each field noted.
    private(set) var fields: FieldMask = 0

    /// The hash of no fields.
    static let empty = EventIdentity.offsetBasis

    /// Appends a field (its first occurrence) to the order.
    @inline(__always)
    mutating func note(_ field: EventField) {
        hash = Self.appending(UInt8(truncatingIfNeeded: field.rawValue), to: hash)
        fields |= field.bit
    }

    /// The hash of the fields in `order` (a field table sorted by position): what `note` gives for
    /// them one by one.
    static func of(_ order: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = empty
        for field in order { hash = appending(field, to: hash) }
        return hash
    }

    @inline(__always)
    private static func appending(_ field: UInt8, to hash: UInt64) -> UInt64 {
        (hash ^ UInt64(field)) &* EventIdentity.prime
    }
}
