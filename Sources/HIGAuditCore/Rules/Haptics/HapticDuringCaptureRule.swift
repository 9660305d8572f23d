/// `haptic-during-capture` (SPEC §3, further rule): a haptic while the camera or microphone records.
///
/// A capture is open from a `capture.start` until a `capture.stop` of the same source; starts of one
/// source nest (two starts need two stops), and a stop with nothing open is ignored.
public struct HapticDuringCaptureRule: SessionRule {
    public static let identifier = "haptic-during-capture"
    public static let interests = EventKindSet(.haptic, .captureStart, .captureStop)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Haptic during capture",
        summary: "A haptic played while a camera or microphone capture is running.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .playingHaptics,
            guideline: "Make sure haptics don't disturb experiences that involve the camera, gyroscope or microphone.",
            origin: SeedOrigin(
                file: "001_a5135006b5b70e41.txt",
                quote: "Assurez-vous que l’haptique ne perturbe pas les expériences utilisateur impliquant la caméra, le gyroscope ou le microphone."
            )
        ),
        parameters: [],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"capture.start","source":"camera"}"#,
                #"↓{"ts":2000,"session":"s","type":"haptic","kind":"impact.light"}"#,
                #"{"ts":3000,"session":"s","type":"capture.stop","source":"microphone"}"#,
                #"↓{"ts":4000,"session":"s","type":"haptic","kind":"selection"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"capture.start","source":"microphone"}"#,
                #"{"ts":2000,"session":"s","type":"capture.stop","source":"microphone"}"#,
                #"{"ts":2000,"session":"s","type":"haptic","kind":"notification.success"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        var openCamera = 0
        var openMicrophone = 0

        public init() {}
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case .captureStart(.camera): state.openCamera += 1
        case .captureStart(.microphone): state.openMicrophone += 1
        case .captureStop(.camera): state.openCamera = max(state.openCamera - 1, 0)
        case .captureStop(.microphone): state.openMicrophone = max(state.openMicrophone - 1, 0)
        case .haptic(let kind, _):
            // Most haptics play with no capture running: those are answered without building a text.
            guard state.openCamera > 0 || state.openMicrophone > 0 else { return }
            let running = switch (state.openCamera > 0, state.openMicrophone > 0) {
            case (true, true): "camera and microphone"
            case (true, false): "camera"
            default: "microphone"
            }
            session.report(
                rule: Self.identifier, severity: .warning, source: event.source,
                startTs: event.ts, endTs: event.ts,
                detail: DetailText("\(kind.rawValue) haptic while \(running) capture is running").string
            )
        default:
            break
        }
    }
}
