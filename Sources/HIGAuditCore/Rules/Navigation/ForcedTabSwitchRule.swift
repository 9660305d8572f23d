/// `forced-tab-switch` (SPEC §3, required): the app changed tabs without the user asking.
///
/// A `nav.tab_switch` with `from ≠ to` needs a justification: an unused tab-bar touch (`touch`, phase
/// `ended`, target `tab_bar` or `tab:…`) at most `user_window_ms` before it (inclusive), the earliest
/// such touch being used up; or, failing that, being at most `restore_grace_ms` after the session's
/// first `session.start` (state restoration at launch). A switch takes a touch whenever one qualifies,
/// even inside the grace period. `from = to` (re-tapping the active tab) takes no touch and never violates.
///
/// The violation's `screen` is where the person was when the app switched, the latest screen before the
/// switch (SPEC §3 "Every violation record"), so that "which screens force tab switches" is answered by
/// the screens that do it, not by the tabs they land on.
public struct ForcedTabSwitchRule: SessionRule {
    public static let userWindowMs = RuleParameter(
        name: "user_window_ms", defaultValue: 1000, minimum: 0,
        summary: "How long before a tab switch a tab-bar touch still justifies it, in milliseconds (inclusive)."
    )
    public static let restoreGraceMs = RuleParameter(
        name: "restore_grace_ms", defaultValue: 2000, minimum: 0,
        summary: "How long after session.start a switch counts as state restoration, in milliseconds (inclusive)."
    )

    public static let identifier = "forced-tab-switch"
    /// Only a touch that ends can be a tab-bar touch.
    public static let interests = EventKindSet(.tabSwitch).union(.touches(.ended))

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Forced tab switch",
        summary: "A tab change that no tab-bar touch just before it asked for, outside launch-time state restoration.",
        severity: .error,
        citation: GuidelineCitation(
            page: .tabBars,
            guideline: "The app must never force a tab change: people move between tabs themselves.",
            origin: SeedOrigin(
                file: "000_65c60053ce5cc84b.txt",
                quote: "L’application ne doit jamais forcer un changement d’onglet\u{00A0}; c’est l’utilisateur qui fait passer l’application d’un onglet à l’autre."
            )
        ),
        parameters: [userWindowMs, restoreGraceMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start"}"#,
                #"↓{"ts":60000,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            RuleExample([
                #"{"ts":60000,"session":"s","type":"touch","phase":"ended","target":"tab:Inbox"}"#,
                #"↓{"ts":61001,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            RuleExample([
                #"{"ts":60000,"session":"s","type":"touch","phase":"ended","target":"tab_bar"}"#,
                #"{"ts":60100,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
                #"↓{"ts":60200,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Home"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start"}"#,
                #"↓{"ts":2001,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            // An importer's synthetic start is no launch: no restore grace after it.
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","synthetic":true}"#,
                #"↓{"ts":500,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":60000,"session":"s","type":"touch","phase":"ended","target":"tab:Inbox"}"#,
                #"{"ts":61000,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start"}"#,
                #"{"ts":2000,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            RuleExample([
                #"{"ts":60000,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Home"}"#,
            ]),
            // Without every touch in the log, a missing tab-bar touch proves nothing: not judged.
            RuleExample([
                #"{"ts":0,"session":"s","type":"session.start","touches":"sampled"}"#,
                #"{"ts":60000,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
            ]),
            RuleExample([
                #"{"ts":60000,"session":"s","type":"touch","phase":"ended","target":"tab:Inbox"}"#,
                #"{"ts":60000,"session":"s","type":"touch","phase":"ended","target":"tab:Home"}"#,
                #"{"ts":60100,"session":"s","type":"nav.tab_switch","from":"tab:Home","to":"tab:Inbox"}"#,
                #"{"ts":60200,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Home"}"#,
            ]),
        ],
        isRequired: true,
        needsEveryTouch: true
    )

    public struct State: RuleState {
        /// `ts` of tab-bar touches not yet used by a switch and still recent enough to be, oldest first.
        var unusedTouches: [Int64] = []

        public init() {}
    }

    let userWindowMs: Int64
    let restoreGraceMs: Int64

    public init(configuration: AuditConfiguration) {
        userWindowMs = Self.value(of: Self.userWindowMs, in: configuration)
        restoreGraceMs = Self.value(of: Self.restoreGraceMs, in: configuration)
    }

    static func isTabBarTouch(_ touch: Touch) -> Bool {
        guard touch.phase == .ended, let target = touch.target else { return false }
        // Both names begin with the one-byte character "t", and so does every text equal to one or
        // beginning with "tab:" as `String`s compare: most targets are answered by their first byte.
        guard target.utf8.first == UInt8(ascii: "t") else { return false }
        return target == "tab_bar" || target.hasPrefix("tab:")
    }

    /// A switch is judged with the values where its violation would be recorded, the screen before it
    /// (SPEC §6); tab-bar touches are kept for the longest `user_window_ms` anywhere. A switch where the
    /// rule is off still uses its touch, as it would were the rule on: silencing one screen changes no
    /// verdict elsewhere.
    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        // Events arrive in ts order, so a touch older than `now − window` can justify no later switch.
        let oldestUseful = event.ts.minus(screens.widest.userWindowMs)
        switch event.payload {
        case .touch(let touch) where Self.isTabBarTouch(touch):
            dropTouches(before: oldestUseful, from: &state)
            state.unusedTouches.append(event.ts)
        case let .tabSwitch(from, to) where from != to:
            dropTouches(before: oldestUseful, from: &state)
            let screen = session.screen(beforeObserved: event)
            let values = screens.at(screen)
            let earliestJustifying = event.ts.minus(values.userWindowMs)
            if let index = state.unusedTouches.firstIndex(where: { $0 >= earliestJustifying }) {
                state.unusedTouches.remove(at: index)
                return
            }
            if let start = session.launchTs, event.ts.minus(start) <= values.restoreGraceMs { return }
            session.report(
                rule: Self.identifier, severity: .error, source: event.source,
                screen: screen, startTs: event.ts, endTs: event.ts,
                detail: DetailText("switched from \(from) to \(to) with no tab-bar touch in the \(values.userWindowMs) ms before").string
            )
        default:
            break
        }
    }

    private func dropTouches(before ts: Int64, from state: inout State) {
        guard let first = state.unusedTouches.first, first < ts else { return }
        let keep = state.unusedTouches.firstIndex { $0 >= ts } ?? state.unusedTouches.count
        state.unusedTouches.removeFirst(keep)
    }
}
