/// `tab-state-lost` (SPEC §3, further rule): coming back to a tab shows a different view than was left.
///
/// The active tab is the `to` of the latest `nav.tab_switch` (none before the first). For every event
/// with a `screen` while a tab is active, that screen is remembered for the tab (the switch's own screen
/// belongs to the tab it switched to). A switch with `from ≠ to` whose `screen` differs from the one
/// remembered for its `to` tab violates; a switch without `screen`, or to a tab with nothing remembered,
/// cannot be judged and does not.
///
/// The screens shown between two switches are taken in at the second. The violations are those of
/// taking them in one by one; only where a session spells one screen in several canonically
/// equivalent forms (NFC and NFD) may a violation's `detail` name a later spelling of it than the
/// per-event update did.
public struct TabStateLostRule: SessionRule {
    public static let identifier = "tab-state-lost"
    /// Only tab switches: the screens seen between two switches are read from the session context
    /// at the second (`SessionContext.screenSightings`), so that the rule is not handed every event.
    public static let interests = EventKindSet(.tabSwitch)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Tab state lost",
        summary: "Returning to a tab shows a different screen from the one the user left there.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .tabBars,
            guideline: "When people switch tabs and come back, they find the view they left.",
            origin: SeedOrigin(
                file: "000_65c60053ce5cc84b.txt",
                quote: "Quand un utilisateur change d’onglet et revient au précédent, il doit retrouver la même vue."
            )
        ),
        parameters: [],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Library","screen":"library"}"#,
                #"{"ts":2000,"session":"s","type":"nav.push","to":"album","screen":"album"}"#,
                #"{"ts":3000,"session":"s","type":"nav.tab_switch","from":"tab:Library","to":"tab:Inbox","screen":"inbox"}"#,
                #"↓{"ts":4000,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Library","screen":"library"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Library","screen":"library"}"#,
                #"{"ts":2000,"session":"s","type":"nav.push","to":"album","screen":"album"}"#,
                #"{"ts":3000,"session":"s","type":"nav.tab_switch","from":"tab:Library","to":"tab:Inbox","screen":"inbox"}"#,
                #"{"ts":4000,"session":"s","type":"nav.tab_switch","from":"tab:Inbox","to":"tab:Library","screen":"album"}"#,
                #"{"ts":5000,"session":"s","type":"nav.tab_switch","from":"tab:Library","to":"tab:Library","screen":"library"}"#,
                #"{"ts":6000,"session":"s","type":"nav.tab_switch","from":"tab:Library","to":"tab:Settings","screen":"settings"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        var activeTab: String?
        /// The latest screen seen while the active tab was active, as of the latest switch: the screens
        /// of the events after it are taken in at the next switch.
        var activeScreen: String?
        /// The latest screen seen while each tab other than the active one was active.
        var screens = TabScreens()
        /// `SessionContext.screenSightings` after the latest switch.
        var sightingsAtSwitch = 0

        public init() {}
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard case let .tabSwitch(from, to) = event.payload else { return }
        // What the active tab showed before this switch: the last screen of the events since the
        // latest one, if any showed a screen.
        let hasScreen = event.texts.has(.screen)
        Self.takeIn(
            session.screen(beforeObserved: event), shownBy: session.screenSightings &- (hasScreen ? 1 : 0), into: &state)
        let remembered: String?
        if to == state.activeTab {
            remembered = state.activeScreen
        } else {
            if let leaving = state.activeTab, let screen = state.activeScreen { state.screens.set(screen, for: leaving) }
            remembered = state.screens.removeScreen(of: to)
            state.activeTab = to
            state.activeScreen = remembered
        }
        if from != to, let screen = event.screen, let remembered, remembered != screen {
            session.report(
                rule: Self.identifier, severity: .warning, source: event.source,
                startTs: event.ts, endTs: event.ts,
                detail: DetailText("back on \(to) showing \(screen), but it was left showing \(remembered)").string
            )
        }
        // The switch's own screen belongs to the tab it switched to.
        if hasScreen { Self.takeIn(session.screen, shownBy: session.screenSightings, into: &state) }
        state.sightingsAtSwitch = session.screenSightings
    }

    /// `screen`, the last shown by the events counted up to `sightings`, becomes the active tab's
    /// screen if any of them came after the latest switch. Replaced only when it differs (as `String`s
    /// compare), as the per-event update did: a screen spelt in another canonically equivalent form
    /// keeps the spelling remembered.
    private static func takeIn(_ screen: String, shownBy sightings: Int, into state: inout State) {
        if state.activeTab != nil, sightings > state.sightingsAtSwitch, screen != state.activeScreen {
            state.activeScreen = screen
        }
    }
}

extension TabStateLostRule {
    /// Takes the screens shown since the latest switch in now, so that the checkpoint's `activeScreen`
    /// is what taking in every screen as it came gives: a reader that does not know the sighting counts
    /// (one that ignores the keys it does not know) continues as it would have.
    public static func settle(_ state: inout State, in session: SessionContext) {
        takeIn(session.screen, shownBy: session.screenSightings, into: &state)
        state.sightingsAtSwitch = session.screenSightings
    }
}

/// Checkpoints written before `sightingsAtSwitch` lack it: their `activeScreen` was kept up to date
/// on every event, and their session context counts sightings from zero again. `screens` is stored as
/// the `[String: String]` it once was, under the same keys in the same order, so that checkpoints read
/// and write as before.
extension TabStateLostRule.State {
    private enum CodingKeys: String, CodingKey {
        case activeTab, activeScreen, screens, sightingsAtSwitch
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activeTab = try container.decodeIfPresent(String.self, forKey: .activeTab)
        activeScreen = try container.decodeIfPresent(String.self, forKey: .activeScreen)
        screens = TabScreens(try container.decode([String: String].self, forKey: .screens))
        sightingsAtSwitch = try container.decodeIfPresent(Int.self, forKey: .sightingsAtSwitch) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(activeTab, forKey: .activeTab)
        try container.encodeIfPresent(activeScreen, forKey: .activeScreen)
        try container.encode(screens.dictionary, forKey: .screens)
        try container.encode(sightingsAtSwitch, forKey: .sightingsAtSwitch)
    }
}
