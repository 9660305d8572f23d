/// `pencil-preference-ignored` (SPEC §3, required): a double-tap that did not do what the user chose.
///
/// A `custom:` action while the session's `pencil_custom_action_enabled` is false, or a system action
/// other than the session's `pencil_preferred_action` (the app doing nothing, `ignore`, never violates).
/// Settings come from the session's first `session.start` before the double-tap; without one, the
/// defaults apply (`switch_eraser`, custom actions off).
public struct PencilPreferenceIgnoredRule: SessionRule {
    public static let identifier = "pencil-preference-ignored"
    public static let interests = EventKindSet(.pencilDoubleTap, .sessionStart)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Pencil preference ignored",
        summary: "An Apple Pencil double-tap that ignored the system-wide setting or ran a custom action the user did not turn on.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .applePencilAndScribble,
            guideline: "Respect the system-wide double-tap setting; offer custom behaviour only when people turn it on.",
            origin: SeedOrigin(
                file: "004_4db11df21ef2440e.txt",
                quote: "обеспечьте консистентный опыт, соблюдая общесистемные настройки пользователя для двойного касания"
            )
        ),
        parameters: [],
        triggeringExamples: [
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"pencil.double_tap","action":"show_color_palette"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","pencil_preferred_action":"switch_previous"}"#,
                #"↓{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
                #"↓{"ts":2000,"session":"s","type":"pencil.double_tap","action":"custom:lasso"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
                #"{"ts":2000,"session":"s","type":"pencil.double_tap","action":"ignore"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","pencil_preferred_action":"show_color_palette","pencil_custom_action_enabled":true}"#,
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"show_color_palette"}"#,
                #"{"ts":2000,"session":"s","type":"pencil.double_tap","action":"custom:lasso"}"#,
            ]),
        ],
        isRequired: true
    )

    public struct State: RuleState {
        /// Double-taps seen before the session's first `session.start`.
        var early = HeldUntilSessionStart<HeldTap>()
        public init() {}
    }

    struct HeldTap: Codable, Sendable, Equatable {
        var action: PencilTapAction
        var origin: HeldEventOrigin
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case .sessionStart(let settings) where session.sessionStartTs == nil:
            for tap in state.early.release() { judge(tap, by: settings, in: &session) }
        case .pencilDoubleTap(let action):
            let tap = HeldTap(action: action, origin: HeldEventOrigin(ts: event.ts, source: event.source, screen: session.screen))
            if session.sessionStartTs == nil {
                state.early.hold(tap)
            } else {
                judge(tap, by: session.settings, in: &session)
            }
        default:
            break
        }
    }

    /// A session that never had a `session.start` has the defaults (SPEC §3).
    public func finish(state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        for tap in state.early.release() { judge(tap, by: .defaults, in: &session) }
    }

    private func judge(_ tap: HeldTap, by settings: SessionSettings, in session: inout SessionContext) {
        let detail: String
        switch tap.action {
        case .custom(let name):
            guard !settings.pencilCustomActionEnabled else { return }
            detail = DetailText("custom double-tap action \(name) while custom actions are off").string
        case .system(.ignore):
            return
        case .system(let done):
            guard done != settings.pencilPreferredAction else { return }
            detail = DetailText("double-tap did \(done.rawValue); the system setting is \(settings.pencilPreferredAction.rawValue)").string
        }
        session.report(
            rule: Self.identifier, severity: .warning, source: tap.origin.source, screen: tap.origin.screen,
            startTs: tap.origin.ts, endTs: tap.origin.ts, detail: detail
        )
    }
}
