import Foundation

/// An independent, test-side reading of SPEC §2 (until the project's decoder lands): what one line is.
enum ClassifiedLine {
    case blank
    case malformed(String)
    case unknownType(String)
    case event(ts: Int64, session: String, type: String, fields: [String: Any])
}

enum SpecLineClassifier {
    static let enumerations: [String: [String: [String]]] = [
        "touch": ["phase": ["began", "moved", "ended", "cancelled"], "input": ["finger", "pencil"]],
        "haptic": ["kind": ["notification.success", "notification.warning", "notification.error", "impact.light",
                            "impact.medium", "impact.heavy", "impact.rigid", "impact.soft", "selection", "custom"]],
        "outcome": ["result": ["success", "warning", "failure"]],
        "modal.present": ["style": ["full_screen", "page_sheet", "form_sheet", "current_context", "popover", "alert", "action_sheet"]],
        "content.mutation": ["action": ["insert", "update", "delete", "clear"]],
        "loading.start": ["indicator": ["none", "spinner", "progress", "placeholder"]],
        "capture.start": ["source": ["camera", "microphone"]],
        "capture.stop": ["source": ["camera", "microphone"]],
        "session.start": [
            "pencil_preferred_action": ["switch_eraser", "switch_previous", "show_color_palette", "ignore"],
            "touches": ["all", "sampled", "none"],
        ],
        "permission.request": [
            "permission": ["location", "camera", "microphone", "photos", "contacts", "calendar", "reminders", "notifications",
                           "tracking", "bluetooth", "health", "motion"],
            "result": ["granted", "denied", "already_decided"],
        ],
        "widget.display": ["content": ["fresh", "cached", "placeholder"]],
    ]
    /// Required fields per type (strings unless listed in `numbers` or `bools`).
    static let required: [String: [String]] = [
        "session.start": [], "session.end": [], "touch": ["phase"], "pencil.double_tap": ["action"],
        "haptic": ["kind"], "outcome": ["result"], "nav.tab_switch": ["from", "to"], "nav.push": ["to"],
        "nav.pop": ["to"], "modal.present": ["modal", "style"], "modal.dismiss": ["modal"],
        "content.mutation": ["action"], "loading.start": ["id", "indicator"], "loading.end": ["id"],
        "capture.start": ["source"], "capture.stop": ["source"], "app.ready": [],
        "permission.request": ["permission"], "rating.prompt": [], "widget.display": ["widget", "content"],
    ]
    static let numbers: Set<String> = ["x", "y", "duration_ms", "load_ms"]
    static let bools: Set<String> = ["haptics_enabled", "pencil_custom_action_enabled", "undoable", "synthetic"]
    static let strings: Set<String> = [
        "session", "type", "device", "app", "app_version", "os_version", "screen", "id", "target", "task",
        "from", "to", "modal", "object", "phase", "input", "kind", "result", "style", "action", "indicator",
        "source", "pencil_preferred_action", "permission", "widget", "content", "touches",
    ]

    static func classify(_ line: String) -> ClassifiedLine {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return .blank }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)),
              let members = object as? [String: Any] else { return .malformed("not a JSON object") }
        // SPEC §2: `null` for an optional field is the field absent (and for a required one, missing).
        let fields = members.filter { !($0.value is NSNull) }
        // Foundation may accept a trailing comma; RFC 8259 does not.
        if line.replacingOccurrences(of: " ", with: "").hasSuffix(",}") { return .malformed("trailing comma") }
        guard let ts = TimestampParser.milliseconds(fields["ts"]) else { return .malformed("ts") }
        guard let session = fields["session"] as? String, !session.isEmpty else { return .malformed("session") }
        guard let type = fields["type"] as? String else { return .malformed("type") }
        guard let requiredFields = required[type] else { return .unknownType(type) }
        for key in requiredFields where fields[key] == nil { return .malformed("missing \(key)") }
        for (key, value) in fields where key != "ts" {
            // Foundation on Linux bridges 0 and 1 to Bool, so JSON true/false are told apart in the text.
            // Encoders may put whitespace around the colon.
            let literalBool = line.range(of: "\"\(key)\"[ \t]*:[ \t]*(true|false)", options: .regularExpression) != nil
            if numbers.contains(key) {
                guard !(value is String), value is NSNumber, !literalBool else { return .malformed("\(key) not a number") }
            } else if bools.contains(key) {
                guard literalBool else { return .malformed("\(key) not a bool") }
            } else if strings.contains(key) {
                guard value is String else { return .malformed("\(key) not a string") }
            }
        }
        for (key, allowed) in enumerations[type] ?? [:] {
            if let value = fields[key] as? String, !allowed.contains(value) { return .malformed("\(key) value") }
        }
        if type == "pencil.double_tap", let action = fields["action"] as? String,
           !["switch_eraser", "switch_previous", "show_color_palette", "ignore"].contains(action), !action.hasPrefix("custom:") {
            return .malformed("action value")
        }
        return .event(ts: ts, session: session, type: type, fields: fields)
    }
}
