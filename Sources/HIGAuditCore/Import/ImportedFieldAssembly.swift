/// The fields of one imported event as the decoder's mapping takes them (`EventDecoder.mapFields`),
/// each written into the decoder's table as it is located, and the buffer they are located in: a copy
/// of the export line, so that every value found in it is a byte range of one buffer as in a line of
/// ours, followed by the few values the importer makes itself (a type, `#n` after a session, a tap's
/// target, the `touches` of a start), written there as the line `import` writes would hold them.
/// Nothing is re-scanned: the importer's tape already validated the line.
///
/// Reused from line to line; the line is copied once however many records (OTLP) it holds.
final class ImportedFieldAssembly {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// The export line's length: values at or past it are the importer's own.
    private(set) var lineLength = 0
    /// The export line, when it was taken in place (`borrowLine`) rather than copied to `bytes`.
    private var borrowed: UnsafeRawPointer?
    /// The stamp of the line copied to `bytes` (`startLine(_:stamp:)`), 0 for none or unstamped: a
    /// line taken in place since leaves the copy as it was.
    private var copiedStamp = 0
    /// Where the record's fields go: the decoder's table (`EventDecoder.mapFields`), from `startRecord`.
    private var table: FieldTableWriter?
    #if DEBUG
    /// Whether the table is lent out (`writingTable`): a write through the assembly meanwhile would be
    /// overwritten when the table comes back, and is refused.
    private var lendsTable = false
    #endif

    init() {
        capacity = 4096
        bytes = .allocate(capacity: capacity)
    }

    deinit {
        bytes.deallocate()
    }

    /// Writes `field` as located (`FieldTableWriter.assign`).
    @inline(__always)
    func assign(_ field: EventField, _ value: FieldValue, number: Double = .nan, keyColumn: Int32 = 0) {
        #if DEBUG
        assert(!lendsTable, "a field written through the assembly while its table is lent out (writingTable) would be lost")
        #endif
        table!.assign(field, value, number: number, keyColumn: keyColumn)
    }

    /// Runs `body` on the table the record's fields are written into, taken out of the assembly for
    /// the while, for a run of fields written as located (`FieldTableWriter.assign`): through the
    /// assembly, each write read the table's places and what it had written again (a write through a
    /// pointer may change any memory), while a table of its own stays in registers. `body` must write
    /// nothing through the assembly (the table put back would overwrite it): a debug build stops one
    /// that does.
    @inline(__always)
    func writingTable(_ body: (inout FieldTableWriter) -> Void) {
        var writer = table!
        #if DEBUG
        lendsTable = true
        defer { lendsTable = false }
        #endif
        body(&writer)
        table = writer
    }

    /// Copies the export line to the start of the buffer.
    func startLine(_ line: UnsafeRawBufferPointer) {
        copiedStamp = 0
        borrowed = nil
        count = 0
        lineLength = 0
        reserve(line.count)
        if let base = line.baseAddress { bytes.update(from: base.assumingMemoryBound(to: UInt8.self), count: line.count) }
        lineLength = line.count
        count = lineLength
    }

    /// `startLine`, for a line stamped `stamp` (not 0) by its reader: a line of many records
    /// (`EventImporter.translateRecords`) is copied for its first record and kept for the others.
    func startLine(_ line: UnsafeRawBufferPointer, stamp: Int) {
        guard stamp != 0, stamp == copiedStamp else {
            startLine(line)
            copiedStamp = stamp
            return
        }
        borrowed = nil
        lineLength = line.count
        count = lineLength
    }

    /// Takes the export line where it is, not copied, for a record all of whose fields lie in it or
    /// are numbers given by their value: no value may then be made (`reserve` refuses).
    func borrowLine(_ line: UnsafeRawBufferPointer) {
        borrowed = UnsafeRawPointer(line.baseAddress)
        lineLength = line.count
        count = line.count
    }

    /// Forgets the values made for the last record (the line stays) and writes the next record's
    /// fields into `table`.
    func startRecord(into table: FieldTableWriter) {
        count = lineLength
        self.table = table
    }

    /// The table the record's fields were written into, with what was written.
    func finishRecord() -> FieldTableWriter {
        defer { table = nil }
        return table!
    }

    private func reserve(_ extra: Int) {
        assert(borrowed == nil, "a value made after a line taken in place")
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        capacity = grown
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: borrowed ?? UnsafeRawPointer(bytes), count: count) }

    // MARK: Fields

    /// A value as it stands in the export line, of the JSON type the tape found. `number` is a number's
    /// value as `JSONNumber.scan` read it from those bytes (`JSONTape.knownNumber`), or NaN to have the
    /// decoder read it: the value the decoder would read from them either way.
    func set(_ field: EventField, _ entry: JSONTape.Entry, number: Double = .nan, keyColumn: Int32 = 0) {
        let flag = entry.kind == .string || entry.kind == .number ? entry.flag : false
        assign(field, FieldValue(kind: FieldValue.Kind(entry), flag: flag, start: entry.start, end: entry.end),
            number: entry.kind == .number ? number : .nan, keyColumn: keyColumn)
    }

    /// A number the importer holds (a converted OTLP integer, a tap's coordinate): given to the decoder
    /// as its value, located at `entry` in the line (its reports' column), or after the line when nil.
    @inline(__always)
    func setNumber(_ field: EventField, _ value: Double, integer: Bool, at entry: JSONTape.Entry?, keyColumn: Int32 = 0) {
        let start = entry?.start ?? Int32(count)
        let end = entry?.end ?? Int32(count)
        assign(field, FieldValue(kind: .number, flag: integer, start: start, end: end), number: value, keyColumn: keyColumn)
    }

    /// An integer the importer made (a timestamp in milliseconds, an OTLP `intValue`): its value when a
    /// `Double` holds it exactly, else its digits, as `import` writes them.
    @inline(__always)
    func setInteger(_ field: EventField, _ value: Int64, at entry: JSONTape.Entry?, keyColumn: Int32 = 0) {
        if value.magnitude <= 1 << 53 {
            setNumber(field, Double(value), integer: true, at: entry, keyColumn: keyColumn)
        } else {
            setDigits(field, value, at: entry, keyColumn: keyColumn)
        }
    }

    @inline(never)
    private func setDigits(_ field: EventField, _ value: Int64, at entry: JSONTape.Entry?, keyColumn: Int32) {
        let start = count
        reserve(20)
        var text = String(value)
        text.withUTF8 { append($0) }
        assign(field, FieldValue(kind: .number, flag: true, start: Int32(start), end: Int32(count)), keyColumn: keyColumn)
    }

    func setBool(_ field: EventField, _ value: Bool) {
        assign(field, FieldValue(kind: value ? .true : .false, flag: false, start: Int32(count), end: Int32(count)))
    }

    func setString(_ field: EventField, _ literal: StaticString) {
        let start = count
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        assign(field, FieldValue(kind: .string, flag: false, start: Int32(start), end: Int32(count)))
    }

    /// A text the importer made, escaped as `ImportedLineWriter.appendEscaped` writes it, so that the
    /// decoder reads back the same text and refuses the same U+0000.
    func setString(_ field: EventField, _ text: String) {
        let start = count
        var escaped = false
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count * 6)
            for byte in utf8 {
                switch byte {
                case 0x22: appendUnchecked("\\\""); escaped = true
                case 0x5C: appendUnchecked("\\\\"); escaped = true
                case 0x0A: appendUnchecked("\\n"); escaped = true
                case 0x0D: appendUnchecked("\\r"); escaped = true
                case 0x09: appendUnchecked("\\t"); escaped = true
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    appendUnchecked("\\u00")
                    bytes[count] = hex.utf8Start[Int(byte >> 4)]
                    bytes[count + 1] = hex.utf8Start[Int(byte & 0xF)]
                    count += 2
                    escaped = true
                default:
                    bytes[count] = byte
                    count += 1
                }
            }
        }
        assign(field, FieldValue(kind: .string, flag: escaped, start: Int32(start), end: Int32(count)))
    }

    /// The string at `entry` (escapes kept) followed by `suffix` (plain ASCII): a session's `<id>#<n>`.
    func setString(_ field: EventField, _ entry: JSONTape.Entry, suffix: String) {
        let start = count
        reserve(Int(entry.end - entry.start))
        // The line is at the start of the buffer: the value is copied from there.
        (bytes + count).update(from: bytes + Int(entry.start), count: Int(entry.end - entry.start))
        count += Int(entry.end - entry.start)
        var suffix = suffix
        suffix.withUTF8 { append($0) }
        assign(field, FieldValue(kind: .string, flag: entry.flag, start: Int32(start), end: Int32(count)))
    }

    private func append(_ raw: UnsafeBufferPointer<UInt8>) {
        reserve(raw.count)
        if let base = raw.baseAddress { (bytes + count).update(from: base, count: raw.count) }
        count += raw.count
    }

    /// Appends a short literal into room already reserved.
    private func appendUnchecked(_ literal: StaticString) {
        (bytes + count).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
    }
}

extension FieldValue.Kind {
    /// The kind the decoder takes for a tape entry's value (a boolean's value is its flag).
    @inline(__always)
    init(_ entry: JSONTape.Entry) {
        switch entry.kind {
        case .object: self = .object
        case .array: self = .array
        case .string: self = .string
        case .number: self = .number
        case .bool: self = entry.flag ? .true : .false
        case .null: self = .null
        }
    }
}
