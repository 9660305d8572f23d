/// Where an importer (SPEC §7) writes the known fields of an event that was not read from a line of
/// ours: straight into the decoder's table, as a scan of a line notes the members it meets, so that
/// the fields are not listed first and copied in after.
///
/// Fields are written in the order a scan of the line `import` writes would meet them: a field
/// written twice keeps its first value and is reported as a duplicate key at its second key's column.
struct FieldTableWriter {
    private let fields: UnsafeMutablePointer<FieldValue>
    private let numbers: UnsafeMutablePointer<Double>
    /// The fields written so far: the table's `dirtyFields` after the event.
    private(set) var assigned: FieldMask = 0

    /// A writer into tables whose fields may still hold the last event's values: a field is this
    /// event's once written (`assigned`), and `mapFields` makes the others absent after.
    init(fields: UnsafeMutablePointer<FieldValue>, numbers: UnsafeMutablePointer<Double>) {
        self.fields = fields
        self.numbers = numbers
    }

    /// Writes `field`: `value` locates it in the buffer the mapping reads; `number` is, for a number
    /// the importer already holds, its value (what a scan puts in the decoder's numbers table), or NaN
    /// to have the decoder read it from the value's bytes; `keyColumn` is the byte column of its key.
    @inline(__always)
    mutating func assign(_ field: EventField, _ value: FieldValue, number: Double = .nan, keyColumn: Int32 = 0) {
        if assigned & field.bit == 0 {
            fields[field.rawValue] = value
            numbers[field.rawValue] = number
            assigned |= field.bit
        } else {
            fields[field.rawValue].noteDuplicate(keyColumn: Int(keyColumn))
        }
    }
}

extension EventDecoder {
    /// Judges an event whose fields an importer located with the same mapping a line of ours gets
    /// after its scan (`LineReader.interpret`): every check, message and default of SPEC §2 is the
    /// decoder's own, so an imported event is valid exactly when the line `import` writes from it is,
    /// and without that line being written and scanned again.
    ///
    /// `assign` writes the event's fields (`FieldTableWriter`) and returns the type the importer
    /// mapped the event to and the buffer the fields' locations are in; the `type` field must still be
    /// among the fields written. Learned line shapes are neither used nor changed.
    mutating func mapFields(
        source: SourceLocation, accept: (consuming Event) -> Void,
        assign: (inout FieldTableWriter) -> (kind: EventKind, buffer: UnsafeRawBufferPointer)
    ) -> LineVerdict {
        if !isKnownUniquelyReferenced(&table) { table = FieldTable(holdsShapes: learnsLineShapes) }
        let fields = table.fields
        let numbers = table.numbers
        var writer = FieldTableWriter(fields: fields, numbers: numbers)
        let (kind, buffer) = assign(&writer)
        // The last event's fields this one did not write are absent again (the others were
        // overwritten): cleared after rather than before, each field is stored once an event.
        var stale = table.dirtyFields.pointee & ~writer.assigned
        while stale != 0 {
            fields[stale.trailingZeroBitCount] = .absent
            stale &= stale &- 1
        }
        table.dirtyFields.pointee = writer.assigned
        guard let raw = buffer.baseAddress else { return .blank }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        // The memory of earlier values belongs to the accelerated path: a decoder on the reference path
        // keeps none (its `RecentStrings` has no slots), so it reads every value plainly here too.
        guard learnsLineShapes else {
            table.longTexts.pointee = LongTextsReuse()
            let reader = LineReader(
                base: base, count: buffer.count, fields: fields, numbers: numbers, memory: PlainReading(),
                longTexts: table.longTexts)
            return Self.interpret(reader, kind: kind, source: source, accept: accept)
        }
        let reader = LineReader(
            base: base, count: buffer.count, fields: fields, numbers: numbers,
            memory: RecentValues(recent: table.recent, minute: table.minute), longTexts: table.longTexts)
        return Self.interpret(reader, kind: kind, source: source, accept: accept)
    }

    private static func interpret<Memory: LineMemory>(
        _ reader: LineReader<Memory>, kind: EventKind, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        do throws(MalformedLine) {
            return try reader.interpret(source: source, kind: kind, accept: accept)
        } catch {
            return .malformed(error)
        }
    }
}
