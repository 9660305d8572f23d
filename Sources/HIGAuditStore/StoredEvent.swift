import HIGAuditCore

/// An open session's waiting event in `StoredSession`'s form, written field by field, so that reading
/// it makes the event and nothing else (no tree of values, no keys looked up by name).
///
/// - `ts` as the distance from the session's newest `ts`;
/// - a byte of the text fields present and a byte of those equal to the previous event's (of the same
///   session), then the others as strings, in `TextField` order; the session's own text is "present"
///   only when it differs from the checkpoint's id (it never does in what the engine writes);
/// - the source: file and line as distances from the previous event's, then the record;
/// - the type as its number in `StoredEventType` (fixed: a stored number never changes meaning), then
///   the payload's fields, enumerations as their wire strings.
///
/// The numbers and orders here are the stored format: changing any of them is a new
/// `StoredSession.formatVersion`, read beside the old.
enum StoredEventType: UInt8, CaseIterable {
    case sessionStart = 0, sessionEnd, touch, pencilDoubleTap, haptic, outcome
    case tabSwitch, navPush, navPop, modalPresent, modalDismiss, contentMutation
    case loadingStart, loadingEnd, captureStart, captureStop
    case appReady, permissionRequest, ratingPrompt, widgetDisplay
}

/// The text fields of an event, in stored order (a bit each in the present and repeated bytes).
enum StoredTextField: Int, CaseIterable {
    case session = 0, device, app, appVersion, osVersion, screen, id

    func value(of event: Event) -> String? {
        switch self {
        case .session: event.session
        case .device: event.device
        case .app: event.app
        case .appVersion: event.appVersion
        case .osVersion: event.osVersion
        case .screen: event.screen
        case .id: event.id
        }
    }
}

/// Writes one session's waiting events, each against the one before.
struct StoredEventWriter {
    let session: String
    let newestTs: Int64
    private var previousTexts = [String?](repeating: nil, count: StoredTextField.allCases.count)
    private var previousSource = SourceLocation(file: 0, line: 0)

    init(session: String, newestTs: Int64) {
        self.session = session
        self.newestTs = newestTs
        previousTexts[StoredTextField.session.rawValue] = session
    }

    mutating func write(_ event: Event, to out: inout StoredBytesWriter) {
        out.signed(newestTs &- event.ts)
        var present: UInt8 = 0
        var repeated: UInt8 = 0
        var texts = [String?](repeating: nil, count: StoredTextField.allCases.count)
        for field in StoredTextField.allCases {
            let text = field.value(of: event)
            texts[field.rawValue] = text
            let bit: UInt8 = 1 << UInt8(field.rawValue)
            if field == .session {
                if text != session { present |= bit }
                continue
            }
            guard let text else { continue }
            present |= bit
            if previousTexts[field.rawValue] == text { repeated |= bit }
        }
        out.byte(present)
        out.byte(repeated)
        for field in StoredTextField.allCases where (present & ~repeated) & (1 << UInt8(field.rawValue)) != 0 {
            out.string(texts[field.rawValue]!)
        }
        for field in StoredTextField.allCases where field != .session && texts[field.rawValue] != nil {
            previousTexts[field.rawValue] = texts[field.rawValue]
        }
        out.signed(Int64(event.source.file) &- Int64(previousSource.file))
        out.signed(event.source.line &- previousSource.line)
        out.signed(Int64(event.source.record))
        previousSource = event.source
        Self.payload(event.payload, to: &out)
    }

    private static func payload(_ payload: EventPayload, to out: inout StoredBytesWriter) {
        func type(_ type: StoredEventType) { out.byte(type.rawValue) }
        func optionalString(_ value: String?) {
            out.bool(value != nil)
            if let value { out.string(value) }
        }
        func optionalDouble(_ value: Double?) {
            out.bool(value != nil)
            if let value { out.word(value.bitPattern) }
        }
        switch payload {
        case .sessionStart(let settings):
            type(.sessionStart)
            out.bool(settings.hapticsEnabled)
            out.string(settings.pencilPreferredAction.rawValue)
            out.bool(settings.pencilCustomActionEnabled)
            out.string(settings.touches.rawValue)
            out.bool(settings.synthetic)
        case .sessionEnd: type(.sessionEnd)
        case .appReady: type(.appReady)
        case .ratingPrompt: type(.ratingPrompt)
        case .touch(let touch):
            type(.touch)
            out.string(touch.phase.rawValue)
            out.string(touch.input.rawValue)
            optionalString(touch.target)
            optionalDouble(touch.x)
            optionalDouble(touch.y)
        case .pencilDoubleTap(let action):
            type(.pencilDoubleTap)
            out.string(action.wireValue)
        case .haptic(let kind, let durationMs):
            type(.haptic)
            out.string(kind.rawValue)
            optionalDouble(durationMs)
        case .outcome(let result, let task):
            type(.outcome)
            out.string(result.rawValue)
            optionalString(task)
        case .tabSwitch(let from, let to):
            type(.tabSwitch)
            out.string(from)
            out.string(to)
        case .navPush(let to):
            type(.navPush)
            out.string(to)
        case .navPop(let to):
            type(.navPop)
            out.string(to)
        case .modalPresent(let modal, let style):
            type(.modalPresent)
            out.string(modal)
            out.string(style.rawValue)
        case .modalDismiss(let modal):
            type(.modalDismiss)
            out.string(modal)
        case .contentMutation(let action, let object, let undoable):
            type(.contentMutation)
            out.string(action.rawValue)
            optionalString(object)
            out.bool(undoable)
        case .loadingStart(let id, let indicator):
            type(.loadingStart)
            out.string(id)
            out.string(indicator.rawValue)
        case .loadingEnd(let id):
            type(.loadingEnd)
            out.string(id)
        case .captureStart(let source):
            type(.captureStart)
            out.string(source.rawValue)
        case .captureStop(let source):
            type(.captureStop)
            out.string(source.rawValue)
        case .permissionRequest(let permission, let result):
            type(.permissionRequest)
            out.string(permission.rawValue)
            optionalString(result?.rawValue)
        case .widgetDisplay(let widget, let content, let loadMs):
            type(.widgetDisplay)
            out.string(widget)
            out.string(content.rawValue)
            optionalDouble(loadMs)
        }
    }
}

/// Reads what `StoredEventWriter` wrote, in the same order; damaged bytes throw.
struct StoredEventReader {
    let session: String
    let newestTs: Int64
    private var previousTexts = [String?](repeating: nil, count: StoredTextField.allCases.count)
    private var previousSource = SourceLocation(file: 0, line: 0)

    init(session: String, newestTs: Int64) {
        self.session = session
        self.newestTs = newestTs
    }

    mutating func read(from input: inout StoredBytesReader) throws -> Event {
        let ts = newestTs &- (try input.signed())
        let present = try input.byte()
        let repeated = try input.byte()
        let fields = StoredTextField.allCases.count
        guard present >> fields == 0, repeated & ~present == 0, repeated & 1 == 0 else {
            throw input.damaged("text bits that name no field")
        }
        var texts = [String?](repeating: nil, count: fields)
        texts[StoredTextField.session.rawValue] = session
        for field in StoredTextField.allCases {
            let bit: UInt8 = 1 << UInt8(field.rawValue)
            guard present & bit != 0 else { continue }
            if repeated & bit != 0 {
                guard let previous = previousTexts[field.rawValue] else {
                    throw input.damaged("a text repeated from no earlier event")
                }
                texts[field.rawValue] = previous
            } else {
                texts[field.rawValue] = try input.string()
            }
        }
        for field in StoredTextField.allCases where field != .session && texts[field.rawValue] != nil {
            previousTexts[field.rawValue] = texts[field.rawValue]
        }
        let file = Int64(previousSource.file) &+ (try input.signed())
        let line = previousSource.line &+ (try input.signed())
        let record = try input.signed()
        guard let file32 = Int32(exactly: file), let record32 = Int32(exactly: record) else {
            throw input.damaged("a source file or record out of range")
        }
        previousSource = SourceLocation(file: file32, line: line, record: record32)
        return Event(
            ts: ts, session: texts[0]!, payload: try Self.payload(from: &input),
            device: texts[1], app: texts[2], appVersion: texts[3], osVersion: texts[4], screen: texts[5], id: texts[6],
            source: previousSource)
    }

    private static func payload(from input: inout StoredBytesReader) throws -> EventPayload {
        let number = try input.byte()
        guard let type = StoredEventType(rawValue: number) else { throw input.damaged("an unknown event type \(number)") }
        func optionalString() throws -> String? { try input.bool() ? try input.string() : nil }
        func optionalDouble() throws -> Double? { try input.bool() ? Double(bitPattern: try input.word()) : nil }
        switch type {
        case .sessionStart:
            return .sessionStart(SessionSettings(
                hapticsEnabled: try input.bool(), pencilPreferredAction: try input.choice(PencilPreferredAction.self),
                pencilCustomActionEnabled: try input.bool(), touches: try input.choice(TouchCoverage.self),
                synthetic: try input.bool()))
        case .sessionEnd: return .sessionEnd
        case .appReady: return .appReady
        case .ratingPrompt: return .ratingPrompt
        case .touch:
            let phase = try input.choice(TouchPhase.self)
            let touchInput = try input.choice(TouchInput.self)
            return .touch(Touch(
                phase: phase, target: try optionalString(), input: touchInput, x: try optionalDouble(), y: try optionalDouble()))
        case .pencilDoubleTap:
            let wire = try input.string()
            guard let action = PencilTapAction(wireValue: wire) else { throw input.damaged("an unknown double-tap action") }
            return .pencilDoubleTap(action: action)
        case .haptic:
            return .haptic(kind: try input.choice(HapticKind.self), durationMs: try optionalDouble())
        case .outcome:
            return .outcome(result: try input.choice(OutcomeResult.self), task: try optionalString())
        case .tabSwitch: return .tabSwitch(from: try input.string(), to: try input.string())
        case .navPush: return .navPush(to: try input.string())
        case .navPop: return .navPop(to: try input.string())
        case .modalPresent: return .modalPresent(modal: try input.string(), style: try input.choice(ModalStyle.self))
        case .modalDismiss: return .modalDismiss(modal: try input.string())
        case .contentMutation:
            return .contentMutation(
                action: try input.choice(MutationAction.self), object: try optionalString(), undoable: try input.bool())
        case .loadingStart: return .loadingStart(id: try input.string(), indicator: try input.choice(LoadingIndicator.self))
        case .loadingEnd: return .loadingEnd(id: try input.string())
        case .captureStart: return .captureStart(source: try input.choice(CaptureSource.self))
        case .captureStop: return .captureStop(source: try input.choice(CaptureSource.self))
        case .permissionRequest:
            let permission = try input.choice(Permission.self)
            let result = try optionalString()
            guard let result else { return .permissionRequest(permission: permission, result: nil) }
            guard let value = PermissionResult(rawValue: result) else { throw input.damaged("an unknown permission result") }
            return .permissionRequest(permission: permission, result: value)
        case .widgetDisplay:
            return .widgetDisplay(
                widget: try input.string(), content: try input.choice(WidgetContent.self), loadMs: try optionalDouble())
        }
    }
}
