/// A set of `EventField`s, bit `rawValue` each: wide enough for every field (`EventField.count`; the
/// schema's check, `EventSchema.problems`, says when it no longer is).
typealias FieldMask = UInt64

/// The decoder's view of the keys `EventSchema` declares (`EventField` is declared there).
///
/// The decoder records where each one's value sits while it validates the line, before it knows the
/// event's `type` (keys may come in any order), then reads the ones the type needs. Keys are matched by
/// length and bytes, never by building a `String`.
extension EventField {
    /// How many keys there are: one slot each in the decoder's field table. One past the last case, a
    /// constant the offsets computed from it fold into: `allCases.count` was not folded everywhere
    /// (callgrind showed `swift_initStaticObject` per line, and `LineShapes` calls no longer inlined).
    /// A key added after `synthetic` must move this; the schema's check (`EventSchema.problems`) says so.
    static var count: Int {
        @inline(__always) get { EventField.synthetic.rawValue &+ 1 }
    }

    /// The fields an event keeps in its `EventTexts` whatever its type, with their slots
    /// (`EventTexts.Slot.isCommon`). A line shape hands the decoder the ones its lines share and leaves
    /// their field-table entries stale (`LineShapes`): nothing but the common texts' reading may read
    /// these fields from the table, no payload among them.
    static let commonTexts: [(field: EventField, slot: EventTexts.Slot)] =
        EventTexts.Slot.allCases.filter(\.isCommon).map { ($0.field, $0) }

    /// Bit `rawValue` set for each field of `commonTexts`: the slots before `id`, whose fields are the
    /// fields of the same raw values (`EventFieldListTests` checks it against `commonTexts`). Computed, not
    /// stored: a constant the decoder's general path uses on every line, without a lazy global's check.
    static var commonTextBits: FieldMask {
        @inline(__always) get { (1 &<< FieldMask(EventTexts.Slot.id.rawValue)) &- 1 }
    }

    /// This field's bit in the masks of fields (`1 << rawValue`).
    @inline(__always)
    var bit: FieldMask { 1 &<< FieldMask(rawValue) }

    /// The field whose key is exactly these bytes (already unescaped), or nil for a key we ignore.
    /// For keys written with escapes, which are rare: the member loop finds the others with `KeyMatcher`.
    static func matching(_ key: ByteSlice) -> EventField? {
        allCases.first { key == $0.key }
    }
}

/// Where one known field's value sits in the line and what JSON type it has.
struct FieldValue {
    enum Kind: UInt8 {
        case absent, null, `false`, `true`, number, string, object, array
    }

    var kind: Kind
    /// For a string: whether it contains escapes. For a number: whether it is an integer.
    var flag: Bool
    /// For a string the bytes between the quotes; otherwise the whole value.
    var start: Int32
    var end: Int32
    /// One more than the byte column of the key of a second occurrence of this field; 0 for none.
    /// Offset by one so that `.absent` is all zero bytes: the decoder clears its slots for every
    /// line, and zeroing is one short `memset`, where -1 in a middle field took 90 separate stores.
    private(set) var duplicateMark: Int32 = 0

    init(kind: Kind, flag: Bool, start: Int32, end: Int32) {
        self.kind = kind
        self.flag = flag
        self.start = start
        self.end = end
    }

    static let absent = FieldValue(kind: .absent, flag: false, start: 0, end: 0)

    /// Byte column of the key of the field's second occurrence in the line, if it has one.
    var duplicateColumn: Int? { duplicateMark == 0 ? nil : Int(duplicateMark) - 1 }

    /// Notes a repeated key; the first repetition is the one reported.
    @inline(__always)
    mutating func noteDuplicate(keyColumn: Int) {
        if duplicateMark == 0 { duplicateMark = Int32(truncatingIfNeeded: keyColumn &+ 1) }
    }

    /// Where the value begins in the line, for error reports (a string's opening quote).
    var column: Int { kind == .string ? Int(start) - 1 : Int(start) }

    /// How the JSON type reads in a sentence: "must be a string, not *an array*".
    var kindDescription: String {
        switch kind {
        case .absent: "absent"
        case .null: "null"
        case .false, .true: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .object: "an object"
        case .array: "an array"
        }
    }
}

/// A run of bytes in memory, compared with literals without building a `String`.
struct ByteSlice {
    let start: UnsafePointer<UInt8>
    let count: Int

    @inline(__always)
    static func == (slice: ByteSlice, literal: StaticString) -> Bool {
        guard slice.count == literal.utf8CodeUnitCount else { return false }
        return ByteComparison.equal(slice.start, literal.utf8Start, count: slice.count)
    }

    /// Whether the bytes begin with `prefix`.
    func hasPrefix(_ prefix: StaticString) -> Bool {
        guard count >= prefix.utf8CodeUnitCount else { return false }
        return ByteSlice(start: start, count: prefix.utf8CodeUnitCount) == prefix
    }
}
