/// The reference path's scan of one line: a straightforward strict RFC 8259 reading with `JSONScanner`
/// that notes where each known field's value sits (`FieldValue`), looking every key up by its bytes
/// (`EventField.matching`, after unescaping when it has escapes). It reads no number's value (the
/// mapping reads it from the line: `numbers` gets NaN) and knows nothing of earlier lines.
///
/// Every other way of finding a line's fields (`AcceleratedScan`, `LineShapes`) must note what this
/// one notes, or decline; the differential tests and `FastPathVerification` compare them with it.
struct ReferenceScan {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// One slot per `EventField`, all absent before the scan.
    let fields: UnsafeMutablePointer<FieldValue>
    let numbers: UnsafeMutablePointer<Double>

    /// Validates the line and notes the known fields of its top-level object.
    /// - Returns: false for a blank line (empty or JSON whitespace).
    func scan() throws(MalformedLine) -> Bool {
        var scanner = JSONScanner(base: base, count: count)
        scanner.skipWhitespace()
        guard scanner.pos < count else { return false }
        let isObject = base[scanner.pos] == 0x7B
        if isObject {
            try scanTopLevelObject(&scanner)
        } else {
            try scanner.skipValue(depth: 0)
        }
        scanner.skipWhitespace()
        guard scanner.pos == count else {
            throw JSONError.trailingContent(base, at: scanner.pos, end: count)
        }
        guard isObject else { throw MalformedLine(reason: "top-level value is not an object", column: 0) }
        return true
    }

    /// The line's object, `{` at `scanner.pos`: each member's key, colon and value; a known key's value
    /// is noted, any other is only validated.
    private func scanTopLevelObject(_ scanner: inout JSONScanner) throws(MalformedLine) {
        scanner.pos += 1
        scanner.skipWhitespace()
        if scanner.pos < count, base[scanner.pos] == 0x7D {
            scanner.pos += 1
            return
        }
        while true {
            guard scanner.pos < count else { throw JSONError.unexpectedEnd(at: scanner.pos) }
            let keyColumn = scanner.pos
            guard base[keyColumn] == 0x22 else { throw JSONError.unexpected(base, at: keyColumn, end: count) }
            scanner.pos = keyColumn + 1
            let keyEscaped = try scanner.scanStringBody()
            let keyStart = keyColumn + 1
            let keyEnd = scanner.pos - 1
            let field = keyEscaped
                ? Self.fieldForEscapedKey(base: base, start: keyStart, end: keyEnd)
                : EventField.matching(ByteSlice(start: base + keyStart, count: keyEnd - keyStart))
            try scanner.expectColon()
            if let field {
                let value = try scanValue(&scanner)
                if value.kind == .number { numbers[field.rawValue] = .nan }
                let slot = fields + field.rawValue
                if slot.pointee.kind == .absent {
                    slot.pointee = value
                } else {
                    slot.pointee.noteDuplicate(keyColumn: keyColumn)
                }
            } else {
                try scanner.skipValue(depth: 1)
            }
            scanner.skipWhitespace()
            guard scanner.pos < count else { throw JSONError.unexpectedEnd(at: scanner.pos) }
            switch base[scanner.pos] {
            case 0x2C:
                scanner.pos += 1
                scanner.skipWhitespace()
            case 0x7D:
                scanner.pos += 1
                return
            default:
                throw JSONError.unexpected(base, at: scanner.pos, end: count)
            }
        }
    }

    /// Validates the value of a known key at `scanner.pos` and notes its type and place: for a string
    /// the bytes between its quotes and whether it has escapes, for a number whether it is an integer.
    private func scanValue(_ scanner: inout JSONScanner) throws(MalformedLine) -> FieldValue {
        let start = scanner.pos
        guard start < count else { throw JSONError.unexpectedEnd(at: start) }
        let kind: FieldValue.Kind
        var flag = false
        switch base[start] {
        case 0x22:
            scanner.pos = start + 1
            let escaped = try scanner.scanStringBody()
            return FieldValue(
                kind: .string, flag: escaped, start: Int32(truncatingIfNeeded: start + 1),
                end: Int32(truncatingIfNeeded: scanner.pos - 1))
        case 0x2D, 0x30...0x39:
            kind = .number
            flag = try scanner.scanNumber()
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
            kind: kind, flag: flag, start: Int32(truncatingIfNeeded: start),
            end: Int32(truncatingIfNeeded: scanner.pos))
    }

    /// Keys written with escapes (`"t\u0073"` is the key `ts`): unescaped, then looked up.
    static func fieldForEscapedKey(base: UnsafePointer<UInt8>, start: Int, end: Int) -> EventField? {
        var key = JSONStringUnescaper.string(base: base, start: start, end: end)
        return key.withUTF8 { bytes in
            guard let keyBase = bytes.baseAddress else { return nil }
            return EventField.matching(ByteSlice(start: keyBase, count: bytes.count))
        }
    }
}
