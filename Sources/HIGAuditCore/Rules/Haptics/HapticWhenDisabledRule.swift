/// `haptic-when-disabled` (SPEC §3, further rule): an impact or custom haptic although the session's
/// `session.start` turned the app's haptics off. System-meaning haptics (notification, selection) are
/// not counted. The setting is that of the session's first `session.start`, also for haptics that sort
/// before it; a session without one has haptics on.
public struct HapticWhenDisabledRule: SessionRule {
    public static let identifier = "haptic-when-disabled"
    public static let interests = EventKindSet(.haptic, .sessionStart)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Haptic when disabled",
        summary: "An impact or custom haptic in a session whose haptics setting is off.",
        severity: .error,
        citation: GuidelineCitation(
            page: .playingHaptics,
            guideline: "Make haptics optional, and honour the setting that turns them off.",
            origin: SeedOrigin(
                file: "001_a5135006b5b70e41.txt",
                quote: "Rendre l’haptique facultative. Laissez les gens désactiver ou mettre en sourdine l’haptique s’ils le souhaitent"
            )
        ),
        parameters: [],
        triggeringExamples: [
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","haptics_enabled":false}"#,
                #"↓{"ts":1000,"session":"s","type":"haptic","kind":"impact.rigid"}"#,
                #"↓{"ts":2000,"session":"s","type":"haptic","kind":"custom","duration_ms":200}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","haptics_enabled":false}"#,
                #"{"ts":1000,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":2000,"session":"s","type":"haptic","kind":"notification.error"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start"}"#,
                #"{"ts":1000,"session":"s","type":"haptic","kind":"impact.heavy"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        /// Impact and custom haptics seen before the session's first `session.start`.
        var early = HeldUntilSessionStart<HeldHaptic>()
        public init() {}
    }

    struct HeldHaptic: Codable, Sendable, Equatable {
        var kind: HapticKind
        var origin: HeldEventOrigin
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case .sessionStart(let settings) where session.sessionStartTs == nil:
            let early = state.early.release()
            guard !settings.hapticsEnabled else { return }
            for haptic in early { report(haptic, in: &session) }
        case .haptic(let kind, _):
            switch kind {
            case .custom, .impactLight, .impactMedium, .impactHeavy, .impactRigid, .impactSoft:
                let haptic = HeldHaptic(kind: kind, origin: HeldEventOrigin(ts: event.ts, source: event.source, screen: session.screen))
                if session.sessionStartTs == nil {
                    state.early.hold(haptic)
                } else if !session.settings.hapticsEnabled {
                    report(haptic, in: &session)
                }
            case .notificationSuccess, .notificationWarning, .notificationError, .selection:
                break
            }
        default:
            break
        }
    }

    private func report(_ haptic: HeldHaptic, in session: inout SessionContext) {
        session.report(
            rule: Self.identifier, severity: .error, source: haptic.origin.source, screen: haptic.origin.screen,
            startTs: haptic.origin.ts, endTs: haptic.origin.ts,
            detail: DetailText("\(haptic.kind.rawValue) haptic while haptics are turned off").string
        )
    }
}
