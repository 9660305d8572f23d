/// A value of one of an event's type-specific fields, as `show` prints it.
public enum EventFieldValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)

    /// The value as `name=value` text shows it: numbers without a needless `.0`.
    public var plainText: String {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }
}

extension Event {
    /// The fields that matter for the event's type (SPEC §2 "Event types"), by their wire names, in
    /// the SPEC's order: what `show` prints beside the type. Defaults the log left out are shown as the
    /// engine read them (a `touch` without `input` is a finger), except a finger `input`, which is left
    /// out as the common case.
    public var typeFields: [(name: String, value: EventFieldValue)] {
        switch payload {
        case .sessionStart(let settings):
            return [
                ("haptics_enabled", .flag(settings.hapticsEnabled)),
                ("pencil_preferred_action", .text(settings.pencilPreferredAction.rawValue)),
                ("pencil_custom_action_enabled", .flag(settings.pencilCustomActionEnabled)),
                ("touches", .text(settings.touches.rawValue)),
                ("synthetic", .flag(settings.synthetic)),
            ]
        case .sessionEnd, .appReady, .ratingPrompt:
            return []
        case .touch(let touch):
            var fields: [(name: String, value: EventFieldValue)] = [("phase", .text(touch.phase.rawValue))]
            if let target = touch.target { fields.append(("target", .text(target))) }
            if touch.input != .finger { fields.append(("input", .text(touch.input.rawValue))) }
            if let x = touch.x { fields.append(("x", .number(x))) }
            if let y = touch.y { fields.append(("y", .number(y))) }
            return fields
        case .pencilDoubleTap(let action):
            return [("action", .text(action.wireValue))]
        case .haptic(let kind, let durationMs):
            var fields: [(name: String, value: EventFieldValue)] = [("kind", .text(kind.rawValue))]
            if let durationMs { fields.append(("duration_ms", .number(durationMs))) }
            return fields
        case .outcome(let result, let task):
            var fields: [(name: String, value: EventFieldValue)] = [("result", .text(result.rawValue))]
            if let task { fields.append(("task", .text(task))) }
            return fields
        case .tabSwitch(let from, let to):
            return [("from", .text(from)), ("to", .text(to))]
        case .navPush(let to), .navPop(let to):
            return [("to", .text(to))]
        case .modalPresent(let modal, let style):
            return [("modal", .text(modal)), ("style", .text(style.rawValue))]
        case .modalDismiss(let modal):
            return [("modal", .text(modal))]
        case .contentMutation(let action, let object, let undoable):
            var fields: [(name: String, value: EventFieldValue)] = [("action", .text(action.rawValue))]
            if let object { fields.append(("object", .text(object))) }
            fields.append(("undoable", .flag(undoable)))
            return fields
        case .loadingStart(let id, let indicator):
            return [("id", .text(id)), ("indicator", .text(indicator.rawValue))]
        case .loadingEnd(let id):
            return [("id", .text(id))]
        case .captureStart(let source), .captureStop(let source):
            return [("source", .text(source.rawValue))]
        case .permissionRequest(let permission, let result):
            var fields: [(name: String, value: EventFieldValue)] = [("permission", .text(permission.rawValue))]
            if let result { fields.append(("result", .text(result.rawValue))) }
            return fields
        case .widgetDisplay(let widget, let content, let loadMs):
            var fields: [(name: String, value: EventFieldValue)] = [("widget", .text(widget)), ("content", .text(content.rawValue))]
            if let loadMs { fields.append(("load_ms", .number(loadMs))) }
            return fields
        }
    }

    /// `typeFields` as one line of text: `name=value` pairs separated by spaces.
    public var typeFieldsText: String {
        typeFields.map { "\($0.name)=\($0.value.plainText)" }.joined(separator: " ")
    }
}
