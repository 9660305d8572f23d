/// One known field of an event that was not read from a line of ours: an importer (SPEC §7) found it
/// in another tool's export and located its value in the buffer it hands `EventDecoder.mapFields`.
struct FieldAssignment {
    var field: EventField
    /// Where the value sits in that buffer, as the scan of a line would note it.
    var value: FieldValue
    /// For a number the importer already holds, its value (what the scan puts in the decoder's numbers
    /// table); `.nan` to have the decoder read it from the value's bytes.
    var number: Double = .nan
    /// The byte column of the field's key, for the report of a key given twice.
    var keyColumn: Int32 = 0
}

extension EventDecoder {
    /// Judges an event whose fields an importer located (`FieldAssignment`s into `buffer`) with the
    /// same mapping a line of ours gets after its scan (`LineReader.interpret`): every check, message
    /// and default of SPEC §2 is the decoder's own, so an imported event is valid exactly when the
    /// line `import` writes from it is, and without that line being written and scanned again.
    ///
    /// The assignments are applied in order, as a scan meets members: a field assigned twice keeps
    /// its first value and is reported as a duplicate key at its second key's column. `kind` is the
    /// type the importer mapped the event to; the `type` field must still be among the assignments.
    /// Learned line shapes are neither used nor changed.
    mutating func mapFields(
        _ assignments: UnsafeBufferPointer<FieldAssignment>, in buffer: UnsafeRawBufferPointer, kind: EventKind,
        source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        guard let raw = buffer.baseAddress else { return .blank }
        if !isKnownUniquelyReferenced(&table) { table = FieldTable(holdsShapes: learnsLineShapes) }
        let fields = table.fields
        let numbers = table.numbers
        var stale = table.dirtyFields.pointee
        while stale != 0 {
            fields[stale.trailingZeroBitCount] = .absent
            stale &= stale &- 1
        }
        var assigned: FieldMask = 0
        for assignment in assignments {
            let slot = fields + assignment.field.rawValue
            if slot.pointee.kind == .absent {
                slot.pointee = assignment.value
                numbers[assignment.field.rawValue] = assignment.number
                assigned |= assignment.field.bit
            } else {
                slot.pointee.noteDuplicate(keyColumn: Int(assignment.keyColumn))
            }
        }
        table.dirtyFields.pointee = assigned
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
