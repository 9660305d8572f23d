import HIGAuditCore

/// Byte-level JSON helpers for writing lines into a reusable buffer (no Foundation encoder: the
/// benchmarks generate hundreds of megabytes).
enum NDJSONBytes {
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendMagnitude(value.magnitude, to: &out)
        } else {
            appendMagnitude(UInt64(value), to: &out)
        }
    }

    private static func appendMagnitude(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// A JSON number: integers without a fraction, tenths as `12.5`, anything else in Swift's
    /// shortest round-trip form (valid JSON for finite values).
    static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return out.append(contentsOf: "0".utf8) }
        if value == value.rounded(), abs(value) < 1e15 {
            return appendInteger(Int64(value), to: &out)
        }
        let tenths = (value * 10).rounded()
        if abs(value * 10 - tenths) < 1e-9, abs(tenths) < 1e15 {
            let t = Int64(tenths)
            if t < 0 { out.append(UInt8(ascii: "-")) }
            appendInteger(abs(t) / 10, to: &out)
            out.append(UInt8(ascii: "."))
            out.append(UInt8(ascii: "0") + UInt8(abs(t) % 10))
            return
        }
        out.append(contentsOf: value.description.utf8)
    }

    /// A JSON string with the escapes RFC 8259 requires.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `,"key":` — keys are ASCII literals known not to need escaping.
    @inline(__always)
    static func appendKey(_ key: StaticString, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    static func appendField(_ key: StaticString, _ value: String, to out: inout [UInt8]) {
        appendKey(key, to: &out)
        appendString(value, to: &out)
    }

    static func appendField(_ key: StaticString, _ value: Bool, to out: inout [UInt8]) {
        appendKey(key, to: &out)
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    static func appendField(_ key: StaticString, _ value: Double, to out: inout [UInt8]) {
        appendKey(key, to: &out)
        appendNumber(value, to: &out)
    }
}

/// Writes one event as one NDJSON line in the SPEC §2 shape (without the line end).
///
/// Field order: `ts`, `session`, `type`, `id`, `device`, `app`, `app_version`, `os_version`, `screen`,
/// then the type's own fields. Every optional field with a SPEC default is written explicitly, but for
/// `session.start`'s `touches` and `synthetic`, written only when they differ from it.
enum NDJSONLineEncoder {
    static func append(_ event: Event, timestamp: TimestampStyle, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"ts\":".utf8)
        TimestampWriter.append(event.ts, style: timestamp, to: &out)
        NDJSONBytes.appendField("session", event.session, to: &out)
        NDJSONBytes.appendField("type", event.kind.wireName, to: &out)
        if let id = event.id { NDJSONBytes.appendField("id", id, to: &out) }
        if let device = event.device { NDJSONBytes.appendField("device", device, to: &out) }
        if let app = event.app { NDJSONBytes.appendField("app", app, to: &out) }
        if let version = event.appVersion { NDJSONBytes.appendField("app_version", version, to: &out) }
        if let os = event.osVersion { NDJSONBytes.appendField("os_version", os, to: &out) }
        if let screen = event.screen { NDJSONBytes.appendField("screen", screen, to: &out) }
        appendPayload(event.payload, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func appendPayload(_ payload: EventPayload, to out: inout [UInt8]) {
        switch payload {
        case .sessionStart(let settings):
            NDJSONBytes.appendField("haptics_enabled", settings.hapticsEnabled, to: &out)
            NDJSONBytes.appendField("pencil_preferred_action", settings.pencilPreferredAction.rawValue, to: &out)
            NDJSONBytes.appendField("pencil_custom_action_enabled", settings.pencilCustomActionEnabled, to: &out)
            // Only when not the default: samples of the same seed stay the bytes they were before
            // touch coverage existed (SampleLogs, benchmarks' reference figures).
            if settings.touches != .all { NDJSONBytes.appendField("touches", settings.touches.rawValue, to: &out) }
            if settings.synthetic { NDJSONBytes.appendField("synthetic", true, to: &out) }
        case .sessionEnd:
            break
        case .touch(let touch):
            NDJSONBytes.appendField("phase", touch.phase.rawValue, to: &out)
            if let target = touch.target { NDJSONBytes.appendField("target", target, to: &out) }
            NDJSONBytes.appendField("input", touch.input.rawValue, to: &out)
            if let x = touch.x { NDJSONBytes.appendField("x", x, to: &out) }
            if let y = touch.y { NDJSONBytes.appendField("y", y, to: &out) }
        case .pencilDoubleTap(let action):
            NDJSONBytes.appendField("action", action.wireValue, to: &out)
        case .haptic(let kind, let durationMs):
            NDJSONBytes.appendField("kind", kind.rawValue, to: &out)
            if let durationMs { NDJSONBytes.appendField("duration_ms", durationMs, to: &out) }
        case .outcome(let result, let task):
            NDJSONBytes.appendField("result", result.rawValue, to: &out)
            if let task { NDJSONBytes.appendField("task", task, to: &out) }
        case .tabSwitch(let from, let to):
            NDJSONBytes.appendField("from", from, to: &out)
            NDJSONBytes.appendField("to", to, to: &out)
        case .navPush(let to), .navPop(let to):
            NDJSONBytes.appendField("to", to, to: &out)
        case .modalPresent(let modal, let style):
            NDJSONBytes.appendField("modal", modal, to: &out)
            NDJSONBytes.appendField("style", style.rawValue, to: &out)
        case .modalDismiss(let modal):
            NDJSONBytes.appendField("modal", modal, to: &out)
        case .contentMutation(let action, let object, let undoable):
            NDJSONBytes.appendField("action", action.rawValue, to: &out)
            if let object { NDJSONBytes.appendField("object", object, to: &out) }
            NDJSONBytes.appendField("undoable", undoable, to: &out)
        case .loadingStart(let id, let indicator):
            NDJSONBytes.appendField("id", id, to: &out)
            NDJSONBytes.appendField("indicator", indicator.rawValue, to: &out)
        case .loadingEnd(let id):
            NDJSONBytes.appendField("id", id, to: &out)
        case .captureStart(let source), .captureStop(let source):
            NDJSONBytes.appendField("source", source.rawValue, to: &out)
        case .appReady, .ratingPrompt:
            break
        case .permissionRequest(let permission, let result):
            NDJSONBytes.appendField("permission", permission.rawValue, to: &out)
            if let result { NDJSONBytes.appendField("result", result.rawValue, to: &out) }
        case .widgetDisplay(let widget, let content, let loadMs):
            NDJSONBytes.appendField("widget", widget, to: &out)
            NDJSONBytes.appendField("content", content.rawValue, to: &out)
            if let loadMs { NDJSONBytes.appendField("load_ms", loadMs, to: &out) }
        }
    }
}
