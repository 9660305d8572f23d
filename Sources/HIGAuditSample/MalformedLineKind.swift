/// The broken lines real uploads contain, each unambiguously malformed under SPEC §2.
enum MalformedLineKind: String, CaseIterable, Sendable {
    case truncated = "truncated"
    case notAnObject = "not-an-object"
    case singleQuotes = "single-quotes"
    case missingTimestamp = "missing-ts"
    case unknownEnumValue = "unknown-enum-value"
    case wrongFieldType = "wrong-field-type"
    case emptySession = "empty-session"
    case unparsableTimestamp = "unparsable-ts"
    case nonFiniteNumber = "nan"
    case trailingComma = "trailing-comma"
    case comment = "comment"

    /// The line's bytes (no line end), about the given session and time.
    func line(session: String, ms: Int64) -> [UInt8] {
        var ts: [UInt8] = []
        TimestampWriter.append(ms, style: .standard, to: &ts)
        let t = String(decoding: ts, as: UTF8.self)
        let text: String
        switch self {
        case .truncated: text = #"{"ts":\#(t),"session":"\#(session)","type":"touch","phase":"mo"#
        case .notAnObject: text = #"["touch","began",\#(ms)]"#
        case .singleQuotes: text = #"{'ts': \#(ms), 'session': '\#(session)', 'type': 'session.end'}"#
        case .missingTimestamp: text = #"{"session":"\#(session)","type":"haptic","kind":"selection"}"#
        case .unknownEnumValue: text = #"{"ts":\#(t),"session":"\#(session)","type":"touch","phase":"hovering"}"#
        case .wrongFieldType:
            text = #"{"ts":\#(t),"session":"\#(session)","type":"haptic","kind":"selection","duration_ms":"long"}"#
        case .emptySession: text = #"{"ts":\#(t),"session":"","type":"haptic","kind":"selection"}"#
        case .unparsableTimestamp: text = #"{"ts":"yesterday evening","session":"\#(session)","type":"session.end"}"#
        case .nonFiniteNumber:
            text = #"{"ts":\#(ms),"session":"\#(session)","type":"haptic","kind":"custom","duration_ms":NaN}"#
        case .trailingComma: text = #"{"ts":\#(t),"session":"\#(session)","type":"session.end",}"#
        case .comment: text = "// upload retry 3 of 5"
        }
        return Array(text.utf8)
    }
}

/// Event types a newer app build logs that SPEC §2 does not know (forward compatibility).
enum UnknownEventType: String, CaseIterable, Sendable {
    case memoryWarning = "app.memory_warning"
    case scenePhase = "scene.phase"
    case pencilSqueeze = "pencil.squeeze"
    case pencilHover = "pencil.hover"

    func line(session: String, device: String, ms: Int64, id: String, timestamp: TimestampStyle) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"ts\":".utf8)
        TimestampWriter.append(ms, style: timestamp, to: &out)
        NDJSONBytes.appendField("session", session, to: &out)
        NDJSONBytes.appendField("type", rawValue, to: &out)
        NDJSONBytes.appendField("id", id, to: &out)
        NDJSONBytes.appendField("device", device, to: &out)
        switch self {
        case .memoryWarning: NDJSONBytes.appendField("level", "critical", to: &out)
        case .scenePhase: NDJSONBytes.appendField("phase", "background", to: &out)
        case .pencilSqueeze: NDJSONBytes.appendField("action", "show_tool_palette", to: &out)
        case .pencilHover:
            NDJSONBytes.appendField("x", 412.5, to: &out)
            NDJSONBytes.appendField("y", 233.0, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
