/// The decoder's storage, owned by one `EventDecoder` (copy-on-write keeps copies of a decoder apart,
/// hence `@unchecked Sendable`): one slot per `EventField`, shared by both paths, and the accelerated
/// path's memory of earlier lines (shapes, recent strings, recent minutes), which a decoder on the
/// reference path keeps empty.
final class FieldTable: @unchecked Sendable {
    let fields: UnsafeMutablePointer<FieldValue>
    /// Per field, the value of a number the scan read (see `FieldValue.Kind.number`).
    let numbers: UnsafeMutablePointer<Double>
    let recent: RecentStrings
    let keys: KeyMatcher
    let shapes: LineShapes
    let longTexts = UnsafeMutablePointer<LongTextsReuse>.allocate(capacity: 1)
    let minute = UnsafeMutablePointer<RecentMinute>.allocate(capacity: RecentMinute.count)
    /// Bit `field.rawValue` set for each field that may hold a value from the last line (see `decode`);
    /// behind a pointer, as `minute`, so that updating it costs no exclusivity check.
    let dirtyFields = UnsafeMutablePointer<FieldMask>.allocate(capacity: 1)
    static let allFields: FieldMask = (1 << EventField.count) - 1

    /// Without `holdsShapes` (a decoder on the reference path) the shapes and recent strings get no room
    /// and the key matcher recognises no heads: that decoder reads only `fields`, `numbers` and
    /// `longTexts` (`ReferenceDecoder.decode`).
    init(holdsShapes: Bool) {
        recent = RecentStrings(slots: holdsShapes ? EventField.count : 0)
        shapes = LineShapes(holdsShapes: holdsShapes)
        keys = KeyMatcher(recognisesHeads: holdsShapes)
        dirtyFields.initialize(to: 0)
        fields = .allocate(capacity: EventField.count)
        fields.initialize(repeating: .absent, count: EventField.count)
        numbers = .allocate(capacity: EventField.count)
        numbers.initialize(repeating: 0, count: EventField.count)
        minute.initialize(repeating: RecentMinute(), count: RecentMinute.count)
        longTexts.initialize(to: LongTextsReuse())
    }

    deinit {
        fields.deallocate()
        numbers.deallocate()
        recent.deallocate()
        keys.deallocate()
        shapes.deallocate()
        minute.deallocate()
        longTexts.deinitialize(count: 1)
        longTexts.deallocate()
        dirtyFields.deallocate()
    }
}