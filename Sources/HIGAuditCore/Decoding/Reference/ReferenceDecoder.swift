/// The plain strict decoder, the reference every other way of decoding a line answers to: one
/// `ReferenceScan` of the line, then the shared event mapping (`LineReader.interpret`) with nothing
/// remembered (`PlainReading`). No learned shapes, no key-prefix recognition, no remembered strings or
/// minutes: the verdict and event of a line depend on its bytes alone, read the obvious way.
///
/// `EventDecoder` uses it for every line its accelerated path declines, and for every line in a build
/// with `-DHIG_REFERENCE_DECODER` (the test suite's second run in CI); `FastPathVerification` and the
/// differential tests compare the accelerated path's results with it.
struct ReferenceDecoder {
    private var storage = ReferenceStorage()

    init() {}

    /// The verdict on one line (`line` excludes its terminator); an event goes to `accept`.
    mutating func decode(
        _ line: UnsafeRawBufferPointer, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        guard let raw = line.baseAddress, line.count > 0 else { return .blank }
        guard line.count <= EventDecoder.maxLineLength else { return EventDecoder.overlong(line.count) }
        if !isKnownUniquelyReferenced(&storage) { storage = ReferenceStorage() }
        return Self.decode(
            raw.assumingMemoryBound(to: UInt8.self), count: line.count, fields: storage.fields,
            numbers: storage.numbers, longTexts: storage.longTexts, source: source, accept: accept)
    }

    /// `decode` on storage the caller owns (`EventDecoder`'s, for a line its accelerated path declined):
    /// every field is made absent first, whatever the slots held, and no long text of an earlier
    /// event is offered for sharing (`LongTextsReuse`).
    static func decode(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>, longTexts: UnsafeMutablePointer<LongTextsReuse>,
        source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        fields.update(repeating: .absent, count: EventField.count)
        longTexts.pointee = LongTextsReuse()
        do throws(MalformedLine) {
            guard try ReferenceScan(base: base, count: count, fields: fields, numbers: numbers).scan() else {
                return .blank
            }
            let reader = LineReader(
                base: base, count: count, fields: fields, numbers: numbers, memory: PlainReading(),
                longTexts: longTexts)
            return try reader.interpret(source: source, accept: accept)
        } catch {
            return .malformed(error)
        }
    }
}

/// The reference decoder's field slots (copy-on-write keeps copies of a decoder apart, hence
/// `@unchecked Sendable`).
private final class ReferenceStorage: @unchecked Sendable {
    let fields = UnsafeMutablePointer<FieldValue>.allocate(capacity: EventField.count)
    let numbers = UnsafeMutablePointer<Double>.allocate(capacity: EventField.count)
    /// Where the mapping keeps the long texts of the event being built (`EventTexts.setLong`).
    let longTexts = UnsafeMutablePointer<LongTextsReuse>.allocate(capacity: 1)

    init() {
        fields.initialize(repeating: .absent, count: EventField.count)
        numbers.initialize(repeating: .nan, count: EventField.count)
        longTexts.initialize(to: LongTextsReuse())
    }

    deinit {
        fields.deallocate()
        numbers.deallocate()
        longTexts.deinitialize(count: 1)
        longTexts.deallocate()
    }
}
