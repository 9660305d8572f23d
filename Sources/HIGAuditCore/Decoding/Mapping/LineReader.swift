/// The reading of one line's fields (`fields`, filled by a scan or a learned shape) into typed values
/// for the event mapping (`interpret`, in EventMapping.swift): presence, duplicates, JSON types, enum
/// values, numbers, timestamps, and the texts an event keeps.
///
/// `Memory` is what may stand in for reading a value again (`LineMemory`): nothing on the reference
/// path, the last strings and minute on the accelerated one. Generic, so that each path gets its own
/// specialised copy and the reference path pays nothing for the other's memory.
struct LineReader<Memory: LineMemory> {
    let base: UnsafePointer<UInt8>
    let count: Int
    let fields: UnsafeMutablePointer<FieldValue>
    /// Where the scan puts the value of a number field, or NaN to have the mapping read it from the
    /// line; read only when that field's kind is `.number` on this line, so it needs no clearing.
    let numbers: UnsafeMutablePointer<Double>
    let memory: Memory
    let longTexts: UnsafeMutablePointer<LongTextsReuse>

    init(
        base: UnsafePointer<UInt8>, count: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>, memory: Memory, longTexts: UnsafeMutablePointer<LongTextsReuse>
    ) {
        self.base = base
        self.count = count
        self.fields = fields
        self.numbers = numbers
        self.memory = memory
        self.longTexts = longTexts
    }

    @inline(__always)
    func value(_ field: EventField) -> FieldValue { fields[field.rawValue] }

    /// The field's value if it occurs exactly once; absent stays absent.
    @inline(__always)
    func checked(_ field: EventField) throws(MalformedLine) -> FieldValue {
        let value = fields[field.rawValue]
        if let duplicate = value.duplicateColumn {
            throw MalformedLine(reason: "duplicate key \"\(field.key)\"", column: duplicate)
        }
        return value
    }

    /// The field's value; absent is a missing required field (`null` is then a wrong type).
    @inline(__always)
    func present(_ field: EventField) throws(MalformedLine) -> FieldValue {
        let value = try checked(field)
        if value.kind == .absent { throw MalformedLine(reason: "missing required field \"\(field.key)\"") }
        return value
    }

    func wrongType(_ field: EventField, _ value: FieldValue, expected: String) -> MalformedLine {
        MalformedLine(
            reason: "field \"\(field.key)\" must be \(expected), not \(value.kindDescription)", column: value.column)
    }

    @inline(__always)
    func bytes(_ value: FieldValue) -> ByteSlice {
        ByteSlice(start: base + Int(value.start), count: Int(value.end) - Int(value.start))
    }

    /// A string value as Swift `String`, unescaped if it has escapes.
    @inline(__always)
    func string(_ value: FieldValue) -> String {
        if value.flag {
            return JSONStringUnescaper.string(base: base, start: Int(value.start), end: Int(value.end))
        }
        return String(decoding: UnsafeBufferPointer(start: base + Int(value.start), count: Int(value.end) - Int(value.start)), as: UTF8.self)
    }

    /// An escaped value the event keeps, refused when it holds U+0000: SQLite texts, C strings and
    /// spreadsheets end a text there, so two sessions (or devices, screens, types) differing only after
    /// it would be one in the store, and the `nightly` run meeting them would fail on every retry
    /// (docs/log-format.md). Only an escape can put U+0000 in a value: the scanner refuses the raw byte.
    @inline(never)
    func unescapedText(_ field: EventField, _ value: FieldValue) throws(MalformedLine) -> String {
        let text = string(value)
        if text.utf8.contains(0) { throw Self.textWithNull(field, column: value.column) }
        return text
    }

    static func textWithNull(_ field: EventField, column: Int) -> MalformedLine {
        MalformedLine(reason: "field \"\(field.key)\" holds U+0000, at which stores and spreadsheets cut a text", column: column)
    }

    /// A string value the event keeps: reused from the previous line when the bytes are the same,
    /// except for `id`, which differs on every event.
    @inline(__always)
    func keptString(_ field: EventField, _ value: FieldValue) throws(MalformedLine) -> String {
        if value.flag { return try unescapedText(field, value) }
        if field == .id { return string(value) }
        return memory.string(
            slot: field.rawValue, start: base + Int(value.start), count: Int(value.end) - Int(value.start))
    }

    @inline(__always)
    func requiredString(_ field: EventField) throws(MalformedLine) -> String {
        let value = try present(field)
        guard value.kind == .string else { throw wrongType(field, value, expected: "a string") }
        return try keptString(field, value)
    }

    @inline(__always)
    func optionalString(_ field: EventField) throws(MalformedLine) -> String? {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return nil
        case .string: return try keptString(field, value)
        default: throw wrongType(field, value, expected: "a string")
        }
    }

    /// Sets a string value an event keeps in `EventTexts`: copied from the line when it is short and has
    /// no escapes (nearly always), else made from its `String`.
    @inline(__always)
    func setText(_ field: EventField, _ value: FieldValue, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let length = Int(value.end) &- Int(value.start)
        if value.flag || length > CompactText.inlineCapacity {
            if !value.flag, length == PackedUUID.textLength, let uuid = PackedUUID.pack(base + Int(value.start)) {
                texts.setPacked(slot, low: uuid.low, high: uuid.high, count: uuid.count)
            } else {
                try setLongText(field, value, slot, in: &texts)
            }
        } else {
            texts.setInline(slot, bytes: base + Int(value.start), count: length, readable: count &- Int(value.start))
        }
    }

    /// `setText` for an escaped or long value, out of line so that the common case inlines.
    @inline(never)
    func setLongText(_ field: EventField, _ value: FieldValue, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let text = try keptString(field, value)
        // Escaped values may be short once unescaped, or a UUID, and are then inline as any such text;
        // an unescaped one of a UUID's length was tried by `setText` already.
        if text.utf8.count > CompactText.inlineCapacity, text.utf8.count != PackedUUID.textLength || !value.flag {
            texts.setLong(slot, text, reuse: longTexts)
        } else {
            let compact = CompactText(text)
            if compact.inlineParts == nil {
                texts.setLong(slot, text, reuse: longTexts)
            } else {
                texts[slot] = compact
            }
        }
    }

    @inline(__always)
    func optionalText(_ field: EventField, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return
        case .string: try setText(field, value, slot, in: &texts)
        default: throw wrongType(field, value, expected: "a string")
        }
    }

    func optionalBool(_ field: EventField, default defaultValue: Bool) throws(MalformedLine) -> Bool {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return defaultValue
        case .true: return true
        case .false: return false
        default: throw wrongType(field, value, expected: "a boolean")
        }
    }

    @inline(__always)
    func optionalNumber(_ field: EventField, nonNegative: Bool = false) throws(MalformedLine) -> Double? {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return nil
        case .number:
            let remembered = numbers[field.rawValue]
            let number = remembered.isNaN ? JSONNumber.double(bytes(value)) : remembered
            guard number.isFinite else {
                throw MalformedLine(reason: "field \"\(field.key)\" is a number too large to hold", column: value.column)
            }
            if nonNegative, number < 0 {
                throw MalformedLine(reason: "field \"\(field.key)\" must not be negative", column: value.column)
            }
            return number
        default: throw wrongType(field, value, expected: "a number")
        }
    }

    @inline(__always)
    func requiredEnum<Value>(
        _ field: EventField, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value {
        let value = try present(field)
        return try enumValue(field, value, what, match)
    }

    @inline(__always)
    func optionalEnum<Value>(
        _ field: EventField, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value? {
        let value = try checked(field)
        if value.kind == .absent || value.kind == .null { return nil }
        return try enumValue(field, value, what, match)
    }

    @inline(__always)
    func enumValue<Value>(
        _ field: EventField, _ value: FieldValue, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value {
        guard value.kind == .string else { throw wrongType(field, value, expected: "a string") }
        let matched: Value?
        if value.flag {
            // A `custom:` action keeps its name.
            var text = try unescapedText(field, value)
            matched = text.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return match(ByteSlice(start: base, count: 0)) }
                return match(ByteSlice(start: start, count: buffer.count))
            }
        } else {
            matched = match(bytes(value))
        }
        guard let matched else {
            throw MalformedLine(reason: "unknown \(what) \(Self.quoted(string(value)))", column: value.column)
        }
        return matched
    }

    /// `ts`: an RFC 3339 string or an integer number of milliseconds.
    func timestamp() throws(MalformedLine) -> Int64 {
        let value = try present(.ts)
        switch value.kind {
        case .number:
            let milliseconds: Int64?
            if value.flag {
                // The scan's value when it has one (at most 15 digits, so exact), else the digits again.
                let number = numbers[EventField.ts.rawValue]
                milliseconds = number.isNaN ? JSONNumber.int64(bytes(value)) : Int64(exactly: number)
            } else {
                // An integer written with a fraction or an exponent (`1763661826940.0`, as writers of
                // floating-point numbers put it) is the same JSON number; only a fractional one is not
                // an integer of milliseconds (SPEC §2 "Common fields").
                switch JSONNumber.integralValue(bytes(value)) {
                case .integer(let integer): milliseconds = integer
                case .tooLarge: milliseconds = nil
                case .fraction:
                    throw MalformedLine(
                        reason: "field \"ts\" must be an integer of milliseconds, not a fraction",
                        column: value.column)
                }
            }
            guard let milliseconds, TimestampParser.isWithinYears0To9999(milliseconds) else {
                throw MalformedLine(
                    reason: "field \"ts\" is out of range: milliseconds must fall in the years 0000–9999",
                    column: value.column)
            }
            return milliseconds
        case .string:
            let result: Result<Int64, TimestampParser.Failure>
            if value.flag {
                result = parseEscaped(value)
            } else {
                result = parseRemembering(bytes(value))
            }
            switch result {
            case .success(let milliseconds) where TimestampParser.isWithinYears0To9999(milliseconds):
                return milliseconds
            case .success:
                throw MalformedLine(
                    reason: "field \"ts\" is out of range: \(Self.quoted(string(value))) is outside the years 0000–9999 in UTC",
                    column: value.column)
            case .failure(let failure):
                throw MalformedLine(
                    reason: "field \"ts\" is not an RFC 3339 timestamp \(Self.quoted(string(value))): \(failure)",
                    column: value.column)
            }
        default:
            throw wrongType(.ts, value, expected: "a string or integer")
        }
    }

    /// A `ts` string with escapes, unescaped on the stack (never longer than its escaped form), then
    /// read as a plain one. The escaped `+` of .NET's writers is put back without the general
    /// unescaper, which reads every other form to the same bytes.
    @inline(never)
    func parseEscaped(_ value: FieldValue) -> Result<Int64, TimestampParser.Failure> {
        let start = Int(value.start)
        let end = Int(value.end)
        let length = end &- start
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { buffer in
            let output = buffer.baseAddress!
            let unescaped = JSONStringUnescaper.unescapeOnlyASign(base + start, count: length, into: output)
                ?? JSONStringUnescaper.unescape(base: base, start: start, end: end, into: output)
            return parseRemembering(ByteSlice(start: output, count: unescaped))
        }
    }

    /// `TimestampParser.parse`, or what the decoder's memory knows of it (the last `ts`'s minute).
    @inline(__always)
    func parseRemembering(_ text: ByteSlice) -> Result<Int64, TimestampParser.Failure> {
        memory.timestamp(text)
    }

    /// A value from the log quoted for a reason: escaped, and cut short so a reason stays one short line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 40 {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result + "\""
    }
}
