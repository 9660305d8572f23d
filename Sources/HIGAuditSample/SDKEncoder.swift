import HIGAuditCore

/// Which writers the devices' lines come from (`sample --encoders`).
public enum EncoderMix: String, Sendable, Equatable, CaseIterable {
    /// Every device writes as `SDKEncoder.higAudit` does: the bundled `SampleLogs` and every earlier
    /// output, byte for byte.
    case uniform
    /// Device `i` writes as `SDKEncoder.allCases[i % count]`, so that every encoder has devices once
    /// there are as many devices as encoders.
    case mixed

    /// The encoder of the device with this index.
    func encoder(forDevice index: Int) -> SDKEncoder {
        switch self {
        case .uniform: .higAudit
        case .mixed: SDKEncoder.allCases[index % SDKEncoder.allCases.count]
        }
    }
}

/// How one real SDK's JSON writer lays out a line: the same event, other bytes. Each case names the
/// habits of a writer found in iOS and cross-platform telemetry SDKs, all valid under SPEC §2 and
/// RFC 8259, so a decoder that is fast only on one writer's habits shows it in the benchmarks.
///
/// Every habit keeps the event: numbers keep their decimal value (so their nearest `Double`), strings
/// their characters, timestamps their millisecond, absent optional fields may be `null`, fields equal
/// to their SPEC default may be left out, and keys the tool does not read may be added.
public enum SDKEncoder: String, Sendable, CaseIterable {
    /// hig-audit's own SDK: SPEC §2's key order, no spaces, RFC 3339 UTC with milliseconds.
    case higAudit = "hig-audit"
    /// Python's `json.dumps` with its defaults: `", "` and `": "`, non-ASCII as `\u00e9`, floats with
    /// `.0`, `None` as `null`, `datetime.isoformat()` (microseconds, `+00:00`, no fraction on a whole second).
    case python
    /// `JSON.stringify` in a React Native SDK: the SDK's own key order, integer epoch milliseconds,
    /// an `sdk` object of its own.
    case javascript
    /// Go's `encoding/json` over a map: keys sorted, `<`, `>` and `&` escaped, `time.RFC3339Nano` in
    /// the device's zone (fraction trimmed of trailing zeros).
    case go
    /// .NET's `System.Text.Json` default encoder: HTML-sensitive characters (`+` of an offset, `'`,
    /// `"`) and non-ASCII as `\u002B`, the SDK's own property order, `DateTimeOffset` with the
    /// device's offset, a `seq` number of its own, CRLF line ends.
    case dotnet
    /// Foundation's `JSONEncoder` without `.sortedKeys`: keys in a new order on every line (hashing),
    /// `/` escaped as `\/`, nanosecond fractions.
    case foundation
    /// A C logger: spaces around every `:` and `,` and inside the braces, numbers in exponent form
    /// (`1.235e+02`), fields equal to their SPEC default left out, a trailing space, CRLF.
    case cLogger = "c-logger"

    /// Whether the encoder ends lines with `\r\n`.
    var writesCRLF: Bool { self == .dotnet || self == .cLogger }
}

/// Per device: the encoder, its habits' state, and the random draws that only shape bytes (never the
/// events or the noise, which draw from their own streams).
struct DeviceLineEncoder {
    let encoder: SDKEncoder
    /// The device's UTC offset in minutes, for the encoders that write local time.
    private let offsetMinutes: Int
    private var random: SampleRandom
    private var sequence: Int64 = 0

    init(encoder: SDKEncoder, seed: UInt64, device: Int) {
        self.encoder = encoder
        random = SampleRandom(seed: seed ^ 0x656E_636F_6465_7200, stream: UInt64(truncatingIfNeeded: device))
        // .NET devices have a positive offset, so that its `+` is escaped.
        let offsets = encoder == .dotnet ? [60, 330, 545, 120] : [60, -300, 330, -480, 545, -210, 0]
        offsetMinutes = offsets[device % offsets.count]
    }

    /// Appends `event` as the encoder writes it. `timestamp` is the style the noise chose: kept unless
    /// it is the standard one, which each encoder writes its own way.
    mutating func append(_ event: Event, timestamp: TimestampStyle, to out: inout [UInt8]) {
        if encoder == .higAudit { return NDJSONLineEncoder.append(event, timestamp: timestamp, to: &out) }
        sequence += 1
        var members = EncodedMember.members(of: event, includingDefaults: encoder != .cLogger, nullForAbsent: encoder == .python || encoder == .dotnet)
        switch encoder {
        case .javascript:
            members.append(EncodedMember("sdk", .raw(Array(#"{"name":"rn-telemetry","version":"2.4.0"}"#.utf8))))
        case .dotnet:
            members.append(EncodedMember("seq", .number(Double(sequence))))
        default:
            break
        }
        order(&members, for: event)
        let style = timestamp == .standard ? ownTimestampStyle(event.ts) : timestamp
        let (colon, comma, open, close): (String, String, String, String) = switch encoder {
        case .python: (": ", ", ", "{", "}")
        case .cLogger: (" : ", " , ", "{ ", " }")
        default: (":", ",", "{", "}")
        }
        out.append(contentsOf: open.utf8)
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(contentsOf: comma.utf8) }
            appendString(member.key.description, to: &out)
            out.append(contentsOf: colon.utf8)
            switch member.value {
            case .text(let text): appendString(text, to: &out)
            case .flag(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .null: out.append(contentsOf: "null".utf8)
            case .number(let number): appendNumber(number, to: &out)
            case .raw(let bytes): out.append(contentsOf: bytes)
            case .timestamp(let ms): appendTimestamp(ms, style: style, to: &out)
            }
        }
        out.append(contentsOf: close.utf8)
        if encoder == .cLogger { out.append(UInt8(ascii: " ")) }
    }

    /// The encoder's key order (`members` comes in SPEC §2's order).
    private mutating func order(_ members: inout [EncodedMember], for event: Event) {
        func rank(_ keys: [String]) {
            let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
            // Stable: keys not listed keep their order after the listed ones.
            members = members.enumerated().sorted {
                (position[$0.element.key.description] ?? keys.count, $0.offset)
                    < (position[$1.element.key.description] ?? keys.count, $1.offset)
            }.map(\.element)
        }
        switch encoder {
        case .higAudit, .cLogger:
            break
        case .python:
            rank(["type", "ts", "session", "device", "app", "app_version", "os_version", "screen", "id"])
        case .javascript:
            // The payload first, then the context the SDK adds to every event.
            rank(["phase", "target", "input", "x", "y", "type", "ts", "id", "session", "screen", "device"])
        case .go:
            members.sort { $0.key.description.utf8.lexicographicallyPrecedes($1.key.description.utf8) }
        case .dotnet:
            rank(["id", "seq", "ts", "type", "session", "device", "app", "app_version", "os_version", "screen"])
        case .foundation:
            for index in stride(from: members.count - 1, to: 0, by: -1) {
                members.swapAt(index, random.below(index + 1))
            }
        }
    }

    /// How the encoder writes a `ts` when the noise left it standard. Every style keeps the millisecond.
    private mutating func ownTimestampStyle(_ ms: Int64) -> TimestampStyle {
        switch encoder {
        case .higAudit, .cLogger: return .standard
        case .python: return ms % 1_000 == 0 ? .rfc3339(fractionDigits: 0, offsetMinutes: 0, subMillis: 0)
            : .rfc3339(fractionDigits: 6, offsetMinutes: 0, subMillis: 0)
        case .javascript: return .epochMilliseconds
        case .go:
            let millis = Int(((ms % 1_000) + 1_000) % 1_000)
            let digits = millis == 0 ? 0 : (millis % 100 == 0 ? 1 : (millis % 10 == 0 ? 2 : 3))
            return .rfc3339(fractionDigits: digits, offsetMinutes: offsetMinutes, subMillis: 0)
        case .dotnet: return .rfc3339(fractionDigits: 3, offsetMinutes: offsetMinutes, subMillis: 0)
        case .foundation: return .rfc3339(fractionDigits: 9, offsetMinutes: 0, subMillis: random.below(1_000_000))
        }
    }

    private func appendTimestamp(_ ms: Int64, style: TimestampStyle, to out: inout [UInt8]) {
        var written: [UInt8] = []
        TimestampWriter.append(ms, style: style, to: &written)
        if encoder == .python, written.count > 2, written[written.count - 2] == UInt8(ascii: "Z") {
            // `isoformat()` of an aware UTC datetime.
            written.removeLast(2)
            written.append(contentsOf: "+00:00\"".utf8)
        }
        guard written.first == UInt8(ascii: "\"") else { return out.append(contentsOf: written) }
        appendString(String(decoding: written.dropFirst().dropLast(), as: UTF8.self), to: &out)
    }

    /// A JSON string with the escapes this encoder writes beyond the ones RFC 8259 requires.
    func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in value.unicodeScalars {
            let code = scalar.value
            switch (encoder, code) {
            case (_, 0x22) where encoder == .dotnet: appendEscape(code, to: &out)
            case (_, 0x22): out.append(contentsOf: #"\""#.utf8)
            case (_, 0x5C): out.append(contentsOf: #"\\"#.utf8)
            case (.python, 0x0A): out.append(contentsOf: #"\n"#.utf8)
            case (.python, 0x09): out.append(contentsOf: #"\t"#.utf8)
            case (_, 0..<0x20): appendEscape(code, to: &out)
            case (.foundation, 0x2F): out.append(contentsOf: #"\/"#.utf8)
            case (.go, 0x3C), (.go, 0x3E), (.go, 0x26), (.go, 0x2028), (.go, 0x2029): appendEscape(code, to: &out)
            case (.dotnet, 0x3C), (.dotnet, 0x3E), (.dotnet, 0x26), (.dotnet, 0x27), (.dotnet, 0x2B), (.dotnet, 0x60):
                appendEscape(code, to: &out)
            case (.python, 0x80...), (.dotnet, 0x80...): appendEscape(code, to: &out)
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX`, a surrogate pair above U+FFFF; .NET writes upper-case hex digits, the others lower.
    private func appendEscape(_ code: UInt32, to out: inout [UInt8]) {
        let units: [UInt32] = code > 0xFFFF
            ? [0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)] : [code]
        let digits = Array((encoder == .dotnet ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        for unit in units {
            out.append(contentsOf: #"\u"#.utf8)
            for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((unit >> UInt32(shift)) & 0xF)]) }
        }
    }

    /// A number as the encoder writes it; every form has the value's shortest decimal digits, so it
    /// reads back as the same `Double`.
    func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return out.append(contentsOf: "0".utf8) }
        let (negative, digits, exponent) = Self.decimal(value)
        switch encoder {
        case .python where value == value.rounded() && abs(value) < 1e16:
            // `repr` of a float: `120.0`.
            NDJSONBytes.appendInteger(Int64(value), to: &out)
            out.append(contentsOf: ".0".utf8)
        case .cLogger:
            // `1.235e+02`: one digit before the point, a signed exponent of at least two digits.
            if negative { out.append(UInt8(ascii: "-")) }
            out.append(digits[0])
            if digits.count > 1 {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits.dropFirst())
            }
            let power = exponent + digits.count - 1
            out.append(contentsOf: (power < 0 ? "e-" : "e+").utf8)
            if abs(power) < 10 { out.append(UInt8(ascii: "0")) }
            out.append(contentsOf: String(abs(power)).utf8)
        default:
            NDJSONBytes.appendNumber(value, to: &out)
        }
    }

    /// The shortest decimal digits of `value` (no leading or trailing zeros, at least one digit) and
    /// the power of ten of the last one: `value == ±digits × 10^exponent`.
    static func decimal(_ value: Double) -> (negative: Bool, digits: [UInt8], exponent: Int) {
        guard value != 0 else { return (false, [UInt8(ascii: "0")], 0) }
        let text = Array(abs(value).description.utf8)
        var mantissa = text
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = Array(text[..<e])
            exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
        }
        if let point = mantissa.firstIndex(of: UInt8(ascii: ".")) {
            exponent -= mantissa.count - point - 1
            mantissa.remove(at: point)
        }
        while mantissa.count > 1, mantissa.first == UInt8(ascii: "0") { mantissa.removeFirst() }
        while mantissa.count > 1, mantissa.last == UInt8(ascii: "0") {
            mantissa.removeLast()
            exponent += 1
        }
        return (value < 0, mantissa, exponent)
    }
}

/// One member of a line before an encoder orders and writes it.
struct EncodedMember {
    enum Value {
        case text(String)
        case flag(Bool)
        case number(Double)
        case null
        case timestamp(Int64)
        /// Bytes of a value the tool does not read (an SDK's own object).
        case raw([UInt8])
    }

    let key: StaticString
    let value: Value

    init(_ key: StaticString, _ value: Value) {
        self.key = key
        self.value = value
    }

    /// The members of `event` in SPEC §2's order (as `NDJSONLineEncoder` writes them). Without
    /// `includingDefaults`, fields equal to their SPEC default are left out; with `nullForAbsent`,
    /// absent optional fields are written as `null`.
    static func members(of event: Event, includingDefaults: Bool, nullForAbsent: Bool) -> [EncodedMember] {
        var members = [EncodedMember("ts", .timestamp(event.ts)), EncodedMember("session", .text(event.session)),
                       EncodedMember("type", .text(event.kind.wireName))]
        func optional(_ key: StaticString, _ text: String?) {
            if let text { members.append(EncodedMember(key, .text(text))) } else if nullForAbsent { members.append(EncodedMember(key, .null)) }
        }
        func optional(_ key: StaticString, _ number: Double?) {
            if let number { members.append(EncodedMember(key, .number(number))) } else if nullForAbsent { members.append(EncodedMember(key, .null)) }
        }
        func defaulted(_ key: StaticString, _ value: Value, isDefault: Bool) {
            if includingDefaults || !isDefault { members.append(EncodedMember(key, value)) }
        }
        let isLoading = event.kind == .loadingStart || event.kind == .loadingEnd
        if !isLoading { optional("id", event.id) }
        optional("device", event.device)
        optional("app", event.app)
        optional("app_version", event.appVersion)
        optional("os_version", event.osVersion)
        optional("screen", event.screen)
        switch event.payload {
        case .sessionStart(let settings):
            defaulted("haptics_enabled", .flag(settings.hapticsEnabled), isDefault: settings.hapticsEnabled)
            defaulted(
                "pencil_preferred_action", .text(settings.pencilPreferredAction.rawValue),
                isDefault: settings.pencilPreferredAction == .switchEraser)
            defaulted(
                "pencil_custom_action_enabled", .flag(settings.pencilCustomActionEnabled),
                isDefault: !settings.pencilCustomActionEnabled)
            // As `NDJSONLineEncoder`: only when not the default, so that samples keep their bytes.
            if settings.touches != .all { members.append(EncodedMember("touches", .text(settings.touches.rawValue))) }
            if settings.synthetic { members.append(EncodedMember("synthetic", .flag(true))) }
        case .sessionEnd, .appReady, .ratingPrompt:
            break
        case .touch(let touch):
            members.append(EncodedMember("phase", .text(touch.phase.rawValue)))
            optional("target", touch.target)
            defaulted("input", .text(touch.input.rawValue), isDefault: touch.input == .finger)
            optional("x", touch.x)
            optional("y", touch.y)
        case .pencilDoubleTap(let action):
            members.append(EncodedMember("action", .text(action.wireValue)))
        case .haptic(let kind, let durationMs):
            members.append(EncodedMember("kind", .text(kind.rawValue)))
            optional("duration_ms", durationMs)
        case .outcome(let result, let task):
            members.append(EncodedMember("result", .text(result.rawValue)))
            optional("task", task)
        case .tabSwitch(let from, let to):
            members.append(EncodedMember("from", .text(from)))
            members.append(EncodedMember("to", .text(to)))
        case .navPush(let to), .navPop(let to):
            members.append(EncodedMember("to", .text(to)))
        case .modalPresent(let modal, let style):
            members.append(EncodedMember("modal", .text(modal)))
            members.append(EncodedMember("style", .text(style.rawValue)))
        case .modalDismiss(let modal):
            members.append(EncodedMember("modal", .text(modal)))
        case .contentMutation(let action, let object, let undoable):
            members.append(EncodedMember("action", .text(action.rawValue)))
            optional("object", object)
            defaulted("undoable", .flag(undoable), isDefault: undoable)
        case .loadingStart(let id, let indicator):
            members.append(EncodedMember("id", .text(id)))
            members.append(EncodedMember("indicator", .text(indicator.rawValue)))
        case .loadingEnd(let id):
            members.append(EncodedMember("id", .text(id)))
        case .captureStart(let source), .captureStop(let source):
            members.append(EncodedMember("source", .text(source.rawValue)))
        case .permissionRequest(let permission, let result):
            members.append(EncodedMember("permission", .text(permission.rawValue)))
            optional("result", result?.rawValue)
        case .widgetDisplay(let widget, let content, let loadMs):
            members.append(EncodedMember("widget", .text(widget)))
            members.append(EncodedMember("content", .text(content.rawValue)))
            optional("load_ms", loadMs)
        }
        return members
    }
}
