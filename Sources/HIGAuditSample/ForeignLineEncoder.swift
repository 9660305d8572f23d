import HIGAuditCore

/// The format `sample` writes its events in (`sample --format`): this contract's NDJSON, or one of the
/// exports SPEC §7 imports, each event re-encoded under the `hig.<type>` convention.
public enum SampleFormat: String, Sendable, Equatable, CaseIterable {
    case ndjson
    /// PostHog's event export: one event object a line.
    case posthog
    /// Datadog RUM events as the events API returns them: one event object a line.
    case datadogRUM = "datadog-rum"
    /// OpenTelemetry logs in OTLP/JSON: one `ExportLogsServiceRequest` a line (the file exporter's).
    case otlp
}

/// Writes one event as one line of a foreign format (SPEC §7 "Envelope"): the common fields where the
/// format keeps them, the event named `hig.<type>`, and the type's fields as the format's "other
/// fields". Every `session.start` says `touches` (`all` unless the event says otherwise), so that an
/// importer takes the sample's coverage from it rather than from the format. `app` has no place in
/// the envelope and is left out.
///
/// Bytes are appended straight into the caller's buffer, as `NDJSONLineEncoder` does: the benchmarks
/// make exports of hundreds of megabytes.
enum ForeignLineEncoder {
    static func append(_ event: Event, format: SampleFormat, to out: inout [UInt8]) {
        switch format {
        case .ndjson: NDJSONLineEncoder.append(event, timestamp: .standard, to: &out)
        case .posthog: appendPostHog(event, to: &out)
        case .datadogRUM: appendDatadogRUM(event, to: &out)
        case .otlp: appendOTLP(event, to: &out)
        }
    }

    /// Hands the event's own fields (SPEC §2 "Event types") to `sink` in the SPEC's order, defaults
    /// written, for `loading.*` the operation's `id` among them, and a `session.start`'s `touches`
    /// always. Straight from the payload, as `NDJSONLineEncoder` writes it: no list of members is built.
    static func forEachTypeField(of payload: EventPayload, _ sink: (StaticString, EncodedMember.Value) -> Void) {
        switch payload {
        case .sessionStart(let settings):
            sink("haptics_enabled", .flag(settings.hapticsEnabled))
            sink("pencil_preferred_action", .text(settings.pencilPreferredAction.rawValue))
            sink("pencil_custom_action_enabled", .flag(settings.pencilCustomActionEnabled))
            sink("touches", .text(settings.touches.rawValue))
            if settings.synthetic { sink("synthetic", .flag(true)) }
        case .sessionEnd, .appReady, .ratingPrompt:
            break
        case .touch(let touch):
            sink("phase", .text(touch.phase.rawValue))
            if let target = touch.target { sink("target", .text(target)) }
            sink("input", .text(touch.input.rawValue))
            if let x = touch.x { sink("x", .number(x)) }
            if let y = touch.y { sink("y", .number(y)) }
        case .pencilDoubleTap(let action):
            sink("action", .text(action.wireValue))
        case .haptic(let kind, let durationMs):
            sink("kind", .text(kind.rawValue))
            if let durationMs { sink("duration_ms", .number(durationMs)) }
        case .outcome(let result, let task):
            sink("result", .text(result.rawValue))
            if let task { sink("task", .text(task)) }
        case .tabSwitch(let from, let to):
            sink("from", .text(from))
            sink("to", .text(to))
        case .navPush(let to), .navPop(let to):
            sink("to", .text(to))
        case .modalPresent(let modal, let style):
            sink("modal", .text(modal))
            sink("style", .text(style.rawValue))
        case .modalDismiss(let modal):
            sink("modal", .text(modal))
        case .contentMutation(let action, let object, let undoable):
            sink("action", .text(action.rawValue))
            if let object { sink("object", .text(object)) }
            sink("undoable", .flag(undoable))
        case .loadingStart(let id, let indicator):
            sink("id", .text(id))
            sink("indicator", .text(indicator.rawValue))
        case .loadingEnd(let id):
            sink("id", .text(id))
        case .captureStart(let source), .captureStop(let source):
            sink("source", .text(source.rawValue))
        case .permissionRequest(let permission, let result):
            sink("permission", .text(permission.rawValue))
            if let result { sink("result", .text(result.rawValue)) }
        case .widgetDisplay(let widget, let content, let loadMs):
            sink("widget", .text(widget))
            sink("content", .text(content.rawValue))
            if let loadMs { sink("load_ms", .number(loadMs)) }
        }
    }

    static func eventName(_ event: Event) -> String { "hig." + event.kind.wireName }

    // MARK: PostHog

    private static func appendPostHog(_ event: Event, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"event":"#.utf8)
        NDJSONBytes.appendString(eventName(event), to: &out)
        out.append(contentsOf: #","timestamp":"#.utf8)
        TimestampWriter.append(event.ts, style: .standard, to: &out)
        if let id = event.id { NDJSONBytes.appendField("uuid", id, to: &out) }
        out.append(contentsOf: #","properties":{"$session_id":"#.utf8)
        NDJSONBytes.appendString(event.session, to: &out)
        if let device = event.device { NDJSONBytes.appendField("$device_id", device, to: &out) }
        if let version = event.appVersion { NDJSONBytes.appendField("$app_version", version, to: &out) }
        if let os = event.osVersion { NDJSONBytes.appendField("$os_version", os, to: &out) }
        if let screen = event.screen { NDJSONBytes.appendField("$screen_name", screen, to: &out) }
        forEachTypeField(of: event.payload) { key, value in appendMember(key, value, to: &out) }
        out.append(contentsOf: "}}".utf8)
    }

    // MARK: Datadog RUM

    private static func appendDatadogRUM(_ event: Event, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":"action","date":"#.utf8)
        NDJSONBytes.appendInteger(event.ts, to: &out)
        out.append(contentsOf: #","session":{"id":"#.utf8)
        NDJSONBytes.appendString(event.session, to: &out)
        out.append(UInt8(ascii: "}"))
        if let device = event.device {
            out.append(contentsOf: #","usr":{"anonymous_id":"#.utf8)
            NDJSONBytes.appendString(device, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let version = event.appVersion { NDJSONBytes.appendField("version", version, to: &out) }
        if let os = event.osVersion {
            out.append(contentsOf: #","os":{"version":"#.utf8)
            NDJSONBytes.appendString(os, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let screen = event.screen {
            out.append(contentsOf: #","view":{"name":"#.utf8)
            NDJSONBytes.appendString(screen, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #","action":{"type":"custom","target":{"name":"#.utf8)
        NDJSONBytes.appendString(eventName(event), to: &out)
        out.append(UInt8(ascii: "}"))
        if let id = event.id { NDJSONBytes.appendField("id", id, to: &out) }
        out.append(contentsOf: #"},"context":{"#.utf8)
        var first = true
        forEachTypeField(of: event.payload) { key, value in
            if first {
                first = false
                out.append(UInt8(ascii: "\""))
                key.withUTF8Buffer { out.append(contentsOf: $0) }
                out.append(contentsOf: "\":".utf8)
                appendValue(value, to: &out)
            } else {
                appendMember(key, value, to: &out)
            }
        }
        out.append(contentsOf: "}}".utf8)
    }

    // MARK: OTLP

    private static func appendOTLP(_ event: Event, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"resourceLogs":[{"resource":{"attributes":["#.utf8)
        var first = true
        if let device = event.device { appendAttribute("device.id", .text(device), first: &first, to: &out) }
        if let version = event.appVersion { appendAttribute("service.version", .text(version), first: &first, to: &out) }
        if let os = event.osVersion { appendAttribute("os.version", .text(os), first: &first, to: &out) }
        out.append(contentsOf: #"]},"scopeLogs":[{"scope":{"name":"hig-audit-sample"},"logRecords":[{"timeUnixNano":""#.utf8)
        NDJSONBytes.appendInteger(event.ts, to: &out)
        out.append(contentsOf: #"000000","attributes":["#.utf8)
        first = true
        appendAttribute("event.name", .text(eventName(event)), first: &first, to: &out)
        appendAttribute("session.id", .text(event.session), first: &first, to: &out)
        if let screen = event.screen { appendAttribute("screen.name", .text(screen), first: &first, to: &out) }
        if let id = event.id { appendAttribute("log.record.uid", .text(id), first: &first, to: &out) }
        forEachTypeField(of: event.payload) { key, value in appendAttribute(key, value, first: &first, to: &out) }
        out.append(contentsOf: "]}]}]}]}".utf8)
    }

    /// `{"key":K,"value":{…}}`, an OTLP `KeyValue`: integers as `intValue` strings (as OTLP/JSON writes
    /// 64-bit integers), other numbers as `doubleValue`.
    private static func appendAttribute(_ key: StaticString, _ value: EncodedMember.Value, first: inout Bool, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(contentsOf: #"{"key":""#.utf8)
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: #"","value":{"#.utf8)
        switch value {
        case .text(let text):
            out.append(contentsOf: #""stringValue":"#.utf8)
            NDJSONBytes.appendString(text, to: &out)
        case .flag(let flag):
            out.append(contentsOf: flag ? #""boolValue":true"#.utf8 : #""boolValue":false"#.utf8)
        case .number(let number) where number == number.rounded() && abs(number) < 1e15:
            out.append(contentsOf: #""intValue":""#.utf8)
            NDJSONBytes.appendInteger(Int64(number), to: &out)
            out.append(UInt8(ascii: "\""))
        case .number(let number):
            out.append(contentsOf: #""doubleValue":"#.utf8)
            NDJSONBytes.appendNumber(number, to: &out)
        case .timestamp(let ms):
            out.append(contentsOf: #""intValue":""#.utf8)
            NDJSONBytes.appendInteger(ms, to: &out)
            out.append(UInt8(ascii: "\""))
        case .null, .raw:
            break
        }
        out.append(contentsOf: "}}".utf8)
    }

    /// `,"key":value`.
    private static func appendMember(_ key: StaticString, _ value: EncodedMember.Value, to out: inout [UInt8]) {
        NDJSONBytes.appendKey(key, to: &out)
        appendValue(value, to: &out)
    }

    private static func appendValue(_ value: EncodedMember.Value, to out: inout [UInt8]) {
        switch value {
        case .text(let text): NDJSONBytes.appendString(text, to: &out)
        case .flag(let flag): out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number): NDJSONBytes.appendNumber(number, to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        case .timestamp(let ms): TimestampWriter.append(ms, style: .standard, to: &out)
        case .raw(let bytes): out.append(contentsOf: bytes)
        }
    }
}
