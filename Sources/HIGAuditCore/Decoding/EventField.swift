/// A set of `EventField`s, bit `rawValue` each: wide enough for every field (`EventField.count`).
typealias FieldMask = UInt64

/// The keys of SPEC §2 that the decoder reads, common and type-specific alike.
///
/// The decoder records where each one's value sits while it validates the line, before it knows the
/// event's `type` (keys may come in any order), then reads the ones the type needs. Keys are matched by
/// length and bytes, never by building a `String`.
enum EventField: Int, CaseIterable {
    /// The text fields an event keeps (`EventTexts`) come first, in `EventTexts.Slot`'s order: a
    /// slot's field is the field of the same raw value (`EventTexts.Slot.field`).
    case session, device, app, appVersion, osVersion, screen, id
    case ts, type
    case hapticsEnabled, pencilPreferredAction, pencilCustomActionEnabled
    case phase, target, input, x, y
    case action, kind, durationMs, result, task
    case from, to, modal, style, object, undoable, indicator, source
    case permission, widget, content, loadMs
    case touches, synthetic

    static let count = 36

    /// The key as it appears in the log.
    var key: StaticString {
        switch self {
        case .ts: "ts"
        case .session: "session"
        case .type: "type"
        case .device: "device"
        case .app: "app"
        case .appVersion: "app_version"
        case .osVersion: "os_version"
        case .screen: "screen"
        case .id: "id"
        case .hapticsEnabled: "haptics_enabled"
        case .pencilPreferredAction: "pencil_preferred_action"
        case .pencilCustomActionEnabled: "pencil_custom_action_enabled"
        case .phase: "phase"
        case .target: "target"
        case .input: "input"
        case .x: "x"
        case .y: "y"
        case .action: "action"
        case .kind: "kind"
        case .durationMs: "duration_ms"
        case .result: "result"
        case .task: "task"
        case .from: "from"
        case .to: "to"
        case .modal: "modal"
        case .style: "style"
        case .object: "object"
        case .undoable: "undoable"
        case .indicator: "indicator"
        case .source: "source"
        case .permission: "permission"
        case .widget: "widget"
        case .content: "content"
        case .loadMs: "load_ms"
        case .touches: "touches"
        case .synthetic: "synthetic"
        }
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
    @inline(__always)
    static func matching(_ key: ByteSlice) -> EventField? {
        switch key.count {
        case 1:
            switch key.start[0] {
            case 0x78: return .x
            case 0x79: return .y
            default: return nil
            }
        case 2:
            if key == "ts" { return .ts }
            if key == "id" { return .id }
            if key == "to" { return .to }
        case 3:
            if key == "app" { return .app }
        case 4:
            if key == "type" { return .type }
            if key == "kind" { return .kind }
            if key == "task" { return .task }
            if key == "from" { return .from }
        case 5:
            if key == "phase" { return .phase }
            if key == "input" { return .input }
            if key == "modal" { return .modal }
            if key == "style" { return .style }
        case 6:
            switch key.start[0] {
            case 0x64: if key == "device" { return .device }
            case 0x74: if key == "target" { return .target }
            case 0x61: if key == "action" { return .action }
            case 0x72: if key == "result" { return .result }
            case 0x6F: if key == "object" { return .object }
            case 0x73:
                if key == "screen" { return .screen }
                if key == "source" { return .source }
            case 0x77: if key == "widget" { return .widget }
            default: return nil
            }
        case 7:
            if key == "session" { return .session }
            if key == "content" { return .content }
            if key == "load_ms" { return .loadMs }
            if key == "touches" { return .touches }
        case 8:
            if key == "undoable" { return .undoable }
        case 9:
            if key == "indicator" { return .indicator }
            if key == "synthetic" { return .synthetic }
        case 10:
            if key == "os_version" { return .osVersion }
            if key == "permission" { return .permission }
        case 11:
            if key == "app_version" { return .appVersion }
            if key == "duration_ms" { return .durationMs }
        case 15:
            if key == "haptics_enabled" { return .hapticsEnabled }
        case 23:
            if key == "pencil_preferred_action" { return .pencilPreferredAction }
        case 28:
            if key == "pencil_custom_action_enabled" { return .pencilCustomActionEnabled }
        default:
            return nil
        }
        return nil
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
    /// Offset by one so that `.absent` is all zero bytes: the decoder clears its 36 slots for every
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
