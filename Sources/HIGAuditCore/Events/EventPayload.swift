/// The type-specific part of an event, one case per `type` of SPEC §2 "Event types".
public enum EventPayload: Sendable, Equatable, Codable {
    case sessionStart(SessionSettings)
    case sessionEnd
    case touch(Touch)
    case pencilDoubleTap(action: PencilTapAction)
    case haptic(kind: HapticKind, durationMs: Double?)
    case outcome(result: OutcomeResult, task: String?)
    case tabSwitch(from: String, to: String)
    case navPush(to: String)
    case navPop(to: String)
    case modalPresent(modal: String, style: ModalStyle)
    case modalDismiss(modal: String)
    case contentMutation(action: MutationAction, object: String?, undoable: Bool)
    case loadingStart(id: String, indicator: LoadingIndicator)
    case loadingEnd(id: String)
    case captureStart(source: CaptureSource)
    case captureStop(source: CaptureSource)
    case appReady
    case permissionRequest(permission: Permission, result: PermissionResult?)
    case ratingPrompt
    case widgetDisplay(widget: String, content: WidgetContent, loadMs: Double?)

    public var kind: EventKind {
        switch self {
        case .sessionStart: .sessionStart
        case .sessionEnd: .sessionEnd
        case .touch: .touch
        case .pencilDoubleTap: .pencilDoubleTap
        case .haptic: .haptic
        case .outcome: .outcome
        case .tabSwitch: .tabSwitch
        case .navPush: .navPush
        case .navPop: .navPop
        case .modalPresent: .modalPresent
        case .modalDismiss: .modalDismiss
        case .contentMutation: .contentMutation
        case .loadingStart: .loadingStart
        case .loadingEnd: .loadingEnd
        case .captureStart: .captureStart
        case .captureStop: .captureStop
        case .appReady: .appReady
        case .permissionRequest: .permissionRequest
        case .ratingPrompt: .ratingPrompt
        case .widgetDisplay: .widgetDisplay
        }
    }
}

/// The settings a `session.start` carries, with the SPEC's defaults.
public struct SessionSettings: Sendable, Equatable {
    /// The app's own haptics setting.
    public var hapticsEnabled: Bool
    /// The system-wide Apple Pencil double-tap setting.
    public var pencilPreferredAction: PencilPreferredAction
    public var pencilCustomActionEnabled: Bool
    /// Which of the session's touches the log holds (SPEC §7 "Touch coverage"): rules that rest on the
    /// absence of a touch judge only sessions that have them all.
    public var touches: TouchCoverage
    /// Written by an importer for a session whose source had no launch event: it marks where the
    /// session's data begins, not a launch, so the launch-timed rules ignore it.
    public var synthetic: Bool

    public init(
        hapticsEnabled: Bool = true,
        pencilPreferredAction: PencilPreferredAction = .switchEraser,
        pencilCustomActionEnabled: Bool = false,
        touches: TouchCoverage = .all,
        synthetic: Bool = false
    ) {
        self.hapticsEnabled = hapticsEnabled
        self.pencilPreferredAction = pencilPreferredAction
        self.pencilCustomActionEnabled = pencilCustomActionEnabled
        self.touches = touches
        self.synthetic = synthetic
    }

    /// What a session without `session.start` has (SPEC §3 `pencil-preference-ignored`).
    public static let defaults = SessionSettings()
}

/// The stored properties are declared widest first: Swift lays them out in this order, and the one-byte
/// fields between the optionals would pad a touch (and with it every `Event`, the largest case of
/// whose payload it is) by 14 bytes.
public struct Touch: Sendable, Equatable, Codable {
    /// Id of the element hit, e.g. `tab:Library`, `button:delete`, `nav.back`.
    public var target: String?
    public var x: Double?
    public var y: Double?
    public var phase: TouchPhase
    public var input: TouchInput

    public init(phase: TouchPhase, target: String? = nil, input: TouchInput = .finger, x: Double? = nil, y: Double? = nil) {
        self.phase = phase
        self.target = target
        self.input = input
        self.x = x
        self.y = y
    }
}
