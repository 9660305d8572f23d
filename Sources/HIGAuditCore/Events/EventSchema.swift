// The one declaration of the log's event types (SPEC §2): each type's wire name and its fields (key,
// value, required or optional or defaulted). Everything else that lists types or keys is derived from
// here: `EventKind`'s wire names and their lookup from a line's bytes (`EventKind+Wire.swift`), the
// decoder's field table and key matcher (`EventField.count`, `KeyMatcher`), the fields `show` prints
// (`EventFields.swift`), and the tables of `docs/log-format.md` (checked by `LogFormatSchemaTests`).
// Adding a type: its case and entry here, its `EventPayload` case and the decoder's mapping to it, and
// the rule that reads it (ARCHITECTURE.md "Adding").

/// The event types of SPEC §2. Rules declare the kinds they want with `EventKindSet`.
public enum EventKind: UInt8, CaseIterable, Sendable, Hashable {
    case sessionStart, sessionEnd, touch, pencilDoubleTap, haptic, outcome
    case tabSwitch, navPush, navPop, modalPresent, modalDismiss, contentMutation
    case loadingStart, loadingEnd, captureStart, captureStop
    case appReady, permissionRequest, ratingPrompt, widgetDisplay

    /// This type's wire name and fields, in the SPEC's order (the order `show` prints them in).
    var schema: EventTypeSchema {
        switch self {
        case .sessionStart:
            EventTypeSchema("session.start", [
                FieldSchema(.hapticsEnabled, .bool, .defaulted("true")),
                FieldSchema(.pencilPreferredAction, .oneOf(PencilPreferredAction.self), .defaulted("switch_eraser")),
                FieldSchema(.pencilCustomActionEnabled, .bool, .defaulted("false")),
                FieldSchema(.touches, .oneOf(TouchCoverage.self), .defaulted("all")),
                FieldSchema(.synthetic, .bool, .defaulted("false")),
            ])
        case .sessionEnd: EventTypeSchema("session.end", [])
        case .touch:
            EventTypeSchema("touch", [
                FieldSchema(.phase, .oneOf(TouchPhase.self), .required),
                FieldSchema(.target, .string, .optional),
                FieldSchema(.input, .oneOf(TouchInput.self), .defaulted("finger"), showsDefault: false),
                FieldSchema(.x, .number, .optional),
                FieldSchema(.y, .number, .optional),
            ])
        case .pencilDoubleTap:
            EventTypeSchema("pencil.double_tap", [
                FieldSchema(.action, .oneOfOrCustom(PencilPreferredAction.self), .required),
            ])
        case .haptic:
            EventTypeSchema("haptic", [
                FieldSchema(.kind, .oneOf(HapticKind.self), .required),
                FieldSchema(.durationMs, .nonNegativeNumber, .optional),
            ])
        case .outcome:
            EventTypeSchema("outcome", [
                FieldSchema(.result, .oneOf(OutcomeResult.self), .required),
                FieldSchema(.task, .string, .optional),
            ])
        case .tabSwitch:
            EventTypeSchema("nav.tab_switch", [
                FieldSchema(.from, .string, .required), FieldSchema(.to, .string, .required),
            ])
        case .navPush: EventTypeSchema("nav.push", [FieldSchema(.to, .string, .required)])
        case .navPop: EventTypeSchema("nav.pop", [FieldSchema(.to, .string, .required)])
        case .modalPresent:
            EventTypeSchema("modal.present", [
                FieldSchema(.modal, .string, .required), FieldSchema(.style, .oneOf(ModalStyle.self), .required),
            ])
        case .modalDismiss: EventTypeSchema("modal.dismiss", [FieldSchema(.modal, .string, .required)])
        case .contentMutation:
            EventTypeSchema("content.mutation", [
                FieldSchema(.action, .oneOf(MutationAction.self), .required),
                FieldSchema(.object, .string, .optional),
                FieldSchema(.undoable, .bool, .defaulted("true")),
            ])
        case .loadingStart:
            EventTypeSchema("loading.start", [
                FieldSchema(.id, .string, .required),
                FieldSchema(.indicator, .oneOf(LoadingIndicator.self), .required),
            ])
        case .loadingEnd: EventTypeSchema("loading.end", [FieldSchema(.id, .string, .required)])
        case .captureStart:
            EventTypeSchema("capture.start", [FieldSchema(.source, .oneOf(CaptureSource.self), .required)])
        case .captureStop:
            EventTypeSchema("capture.stop", [FieldSchema(.source, .oneOf(CaptureSource.self), .required)])
        case .appReady: EventTypeSchema("app.ready", [])
        case .permissionRequest:
            EventTypeSchema("permission.request", [
                FieldSchema(.permission, .oneOf(Permission.self), .required),
                FieldSchema(.result, .oneOf(PermissionResult.self), .optional),
            ])
        case .ratingPrompt: EventTypeSchema("rating.prompt", [])
        case .widgetDisplay:
            EventTypeSchema("widget.display", [
                FieldSchema(.widget, .string, .required),
                FieldSchema(.content, .oneOf(WidgetContent.self), .required),
                FieldSchema(.loadMs, .nonNegativeNumber, .optional),
            ])
        }
    }
}

/// The keys of SPEC §2 that the decoder reads, common and type-specific alike: every key `EventSchema`
/// names, each once (`EventSchema.check` refuses a key no entry uses).
///
/// The text fields an event keeps (`EventTexts`) come first, in `EventTexts.Slot`'s order: a slot's
/// field is the field of the same raw value (`EventTexts.Slot.field`). A new key goes at the end.
enum EventField: Int, CaseIterable {
    case session, device, app, appVersion, osVersion, screen, id
    case ts, type
    case hapticsEnabled, pencilPreferredAction, pencilCustomActionEnabled
    case phase, target, input, x, y
    case action, kind, durationMs, result, task
    case from, to, modal, style, object, undoable, indicator, source
    case permission, widget, content, loadMs
    case touches, synthetic

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
}

enum EventSchema {
    /// The fields every event has, in the order of `docs/log-format.md`'s table.
    static let commonFields: [FieldSchema] = [
        FieldSchema(.ts, .timestamp, .required),
        FieldSchema(.session, .nonEmptyString, .required),
        FieldSchema(.type, .string, .required),
        FieldSchema(.device, .string, .optional),
        FieldSchema(.appVersion, .string, .optional),
        FieldSchema(.app, .string, .optional),
        FieldSchema(.osVersion, .string, .optional),
        FieldSchema(.screen, .string, .optional),
        FieldSchema(.id, .string, .optional),
    ]

    /// Every type's entry, indexed by `EventKind.rawValue`; checked (`check`) when first read.
    static let types: [EventTypeSchema] = {
        let types = EventKind.allCases.map(\.schema)
        if let problem = problems(types: types, common: commonFields).first {
            preconditionFailure("EventSchema: \(problem) (Sources/HIGAuditCore/Events/EventSchema.swift)")
        }
        return types
    }()

    /// Every way the entries break what the decoder assumes of them, as sentences; empty when none
    /// does. `types` reads it on first use and stops the program on any, and `EventSchemaTests` asserts
    /// it is empty, so that a broken entry fails the first test run rather than misreading lines.
    static func problems(types: [EventTypeSchema], common: [FieldSchema]) -> [String] {
        var problems: [String] = []
        var wireNames: [String: Int] = [:]
        for (index, type) in types.enumerated() {
            let name = type.wireName.description
            if let other = wireNames.updateValue(index, forKey: name) {
                problems.append("types \(other) and \(index) share the wire name \"\(name)\"")
            }
            if name.utf8.isEmpty || name.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }) {
                problems.append("the wire name \"\(name)\" must be non-empty printable ASCII without quotes or backslashes")
            }
            let keys = type.fields.map(\.field)
            if Set(keys).count != keys.count { problems.append("\"\(name)\" names a field twice") }
            for field in type.fields where common.contains(where: { $0.field == field.field }) && field.field != .id {
                problems.append("\"\(name)\" redeclares the common field \"\(field.field.key)\"")
            }
        }
        let used = Set(common.map(\.field) + types.flatMap { $0.fields.map(\.field) })
        for field in EventField.allCases where !used.contains(field) {
            problems.append("the key \"\(field.key)\" is declared but no entry reads it")
        }
        for field in EventField.allCases {
            let key = Array(UnsafeBufferPointer(start: field.key.utf8Start, count: field.key.utf8CodeUnitCount))
            // The key matcher compares a compact head, `"key":`, in one 32-byte step (`KeyMatcher`).
            if key.isEmpty || key.count > KeyMatcher.longestKey {
                problems.append("the key \"\(field.key)\" must have 1 to \(KeyMatcher.longestKey) bytes")
            }
            if key.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }) {
                problems.append("the key \"\(field.key)\" must be printable ASCII without quotes or backslashes")
            }
        }
        if EventField.count != EventField.allCases.count {
            problems.append("EventField.count (Sources/HIGAuditCore/Decoding/EventField.swift) must name the last key's case")
        }
        // A line's known fields are one bit each in a `FieldMask`.
        if EventField.allCases.count > FieldMask.bitWidth {
            problems.append("\(EventField.allCases.count) keys do not fit a FieldMask of \(FieldMask.bitWidth) bits")
        }
        if let problem = EventKindSet.capacityProblem { problems.append(problem) }
        return problems
    }

    /// The field's entry in the type's schema, or among the common fields.
    static func entry(_ field: EventField, of kind: EventKind) -> FieldSchema? {
        types[Int(kind.rawValue)].fields.first { $0.field == field } ?? commonFields.first { $0.field == field }
    }
}

/// One event type in `EventSchema`.
struct EventTypeSchema {
    /// The `type` string in the log.
    let wireName: StaticString
    /// Its own fields, in the SPEC's order; the common fields (`EventSchema.commonFields`) come with
    /// every type.
    let fields: [FieldSchema]

    init(_ wireName: StaticString, _ fields: [FieldSchema]) {
        self.wireName = wireName
        self.fields = fields
    }
}

/// One field of an event type (or of every event) in `EventSchema`.
struct FieldSchema: Equatable {
    enum Presence: Equatable {
        /// A line of the type without it (or with `null`) is malformed.
        case required
        /// Absent or `null` means absent.
        case optional
        /// Absent or `null` means this value, as written in the log.
        case defaulted(String)
    }

    let field: EventField
    let value: FieldValueType
    let presence: Presence
    /// Whether `show` prints the field when it has its default (`false` for a touch's `finger` input:
    /// the common case, left out so that the rest stands out).
    let showsDefault: Bool

    init(_ field: EventField, _ value: FieldValueType, _ presence: Presence, showsDefault: Bool = true) {
        self.field = field
        self.value = value
        self.presence = presence
        self.showsDefault = showsDefault
    }
}

/// What a field's value must be in the log (SPEC §2).
enum FieldValueType: Equatable {
    /// `ts`: an RFC 3339 string or an integer of milliseconds.
    case timestamp
    case string
    case nonEmptyString
    case bool
    /// A finite number.
    case number
    /// A finite number, not negative.
    case nonNegativeNumber
    /// One of these strings.
    case oneOf([String])
    /// One of these strings, or `custom:<name>` with a non-empty name.
    case oneOfOrCustom([String])

    static func oneOf<Values: CaseIterable & RawRepresentable<String>>(_: Values.Type) -> FieldValueType {
        .oneOf(Values.allCases.map(\.rawValue))
    }

    static func oneOfOrCustom<Values: CaseIterable & RawRepresentable<String>>(_: Values.Type) -> FieldValueType {
        .oneOfOrCustom(Values.allCases.map(\.rawValue))
    }
}
