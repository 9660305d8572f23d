/// `haptic-when-disabled` (SPEC §3, further rule): an impact or custom haptic although the session's
/// `session.start` turned the app's haptics off. System-meaning haptics (notification, selection) are
/// not counted. The setting is that of the session's first `session.start` before the haptic.
public struct HapticWhenDisabledRule: SessionRule {
    public static let identifier = "haptic-when-disabled"
    public static let interests = EventKindSet(.haptic)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Haptic when disabled",
        summary: "An impact or custom haptic in a session whose haptics setting is off.",
        severity: .error,
        citation: GuidelineCitation(
            seedFile: "001_a5135006b5b70e41.txt",
            quote: "Rendre l’haptique facultative. Laissez les gens désactiver ou mettre en sourdine l’haptique s’ils le souhaitent",
            guideline: "Make haptics optional, and honour the setting that turns them off."
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
        public init() {}
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext) {
        guard case .haptic(let kind, _) = event.payload, !session.settings.hapticsEnabled else { return }
        switch kind {
        case .custom, .impactLight, .impactMedium, .impactHeavy, .impactRigid, .impactSoft:
            session.report(
                rule: Self.identifier, severity: .error, source: event.source,
                startTs: event.ts, endTs: event.ts, detail: "\(kind.rawValue) haptic while haptics are turned off"
            )
        case .notificationSuccess, .notificationWarning, .notificationError, .selection:
            break
        }
    }
}
