import Foundation
import Testing
@testable import HIGAuditCore

/// How overrides decide (SPEC §6) where a rule's events lie on several screens: each event that can be
/// a violation's source is judged with the values at the screen its violation would record.
@Suite struct OverrideSemanticsTests {
    static func on(_ screen: String, _ event: Event) -> Event {
        var placed = event
        placed.screen = screen
        return placed
    }

    static func entry(_ screens: [String], _ rule: String, enabled: Bool? = nil, _ parameters: [String: Int64] = [:]) -> ScreenOverride {
        ScreenOverride(screens: screens.map(ScreenGlob.init), rules: [rule: RuleSettings(enabled: enabled, parameters: parameters)])
    }

    static func configuration(_ rule: String, _ parameters: [String: Int64] = [:], _ overrides: ScreenOverride...) -> AuditConfiguration {
        var configuration = only(rule, parameters)
        configuration.overrides = overrides
        return configuration
    }

    /// SPEC §6's own example: a drawing canvas plays haptics on purpose, so a larger `burst_count` on
    /// `Canvas/*` silences the bursts there, and only there.
    @Test func raisingBurstCountOnCanvasSilencesBurstsThereOnly() {
        let canvas = (0..<6).map { Self.on("Canvas/Board", haptic(1000 + Int64($0) * 100)) }
        let home = (0..<6).map { Self.on("Home", haptic(10_000 + Int64($0) * 100)) }
        let plain = run(canvas + home, only("haptic-overuse"))
        #expect(plain.violations.map(\.screen) == ["Canvas/Board", "Home"])
        let raised = run(canvas + home, Self.configuration("haptic-overuse", [:], Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 20])))
        #expect(raised.violations.map(\.screen) == ["Home"])
        #expect(raised.violations.first == plain.violations.last)
    }

    /// Haptic `i` is judged with its own screen's `burst_count`; a run's start and count are those of
    /// its first violating haptic, whatever the screens of the haptics that extend it.
    @Test func aBurstAcrossScreensIsJudgedHapticByHaptic() {
        let events = [
            Self.on("Home", haptic(0)), Self.on("Home", haptic(100)), Self.on("Home", haptic(200)),
            Self.on("Canvas/Board", haptic(300)), Self.on("Canvas/Board", haptic(400)), Self.on("Home", haptic(500)),
        ]
        let result = run(events, Self.configuration("haptic-overuse", [:], Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 3])))
        // Haptic 4 (Canvas, N = 3) is the first to violate: the run starts at haptic 2 and counts
        // 6 − 4 + 3 = 5 haptics; haptic 6 (Home, N = 5) violates by its own count and extends it.
        #expect(result.violations.count == 1)
        let burst = result.violations[0]
        #expect(burst.source.line == 4)
        #expect(burst.screen == "Canvas/Board")
        #expect((burst.startTs, burst.endTs, burst.count) == (100, 500, 5))
        #expect(burst.detail == "5 haptics in 400 ms (3 or more within 2000 ms is a burst)")
        // Without the entry the first violating haptic is the fifth.
        let plain = run(events, only("haptic-overuse")).violations
        #expect(plain.map { [$0.source.line, $0.startTs, Int64($0.count)] } == [[5, 0, 6]])
    }

    /// A haptic whose screen asks for more haptics than came before it does not violate, and so ends
    /// the run before it; the next haptic starts a run of its own.
    @Test func aHapticOnAStricterScreenEndsTheRun() {
        let events = (0..<6).map { index in Self.on(index == 3 ? "Canvas/Board" : "Home", haptic(Int64(index) * 100)) }
        let result = run(events, Self.configuration(
            "haptic-overuse", ["burst_count": 3], Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 10])))
        #expect(result.violations.map { [$0.source.line, $0.startTs, $0.endTs, Int64($0.count)] } == [[3, 0, 200, 3], [5, 200, 500, 4]])
    }

    /// `enabled: false` on a screen: a haptic there is not a violating one, so a burst on the screens
    /// around it is reported from the next haptic on, and the silenced screen records nothing.
    @Test func aHapticWhereTheRuleIsOffEndsTheRun() {
        let events = (0..<6).map { index in Self.on(index == 3 ? "Canvas/Board" : "Home", haptic(Int64(index) * 100)) }
        let result = run(events, Self.configuration(
            "haptic-overuse", ["burst_count": 3], Self.entry(["Canvas/*"], "haptic-overuse", enabled: false)))
        #expect(result.violations.map { [$0.source.line, $0.startTs, $0.endTs, Int64($0.count)] } == [[3, 0, 200, 3], [5, 200, 500, 4]])
        #expect(result.violations.allSatisfy { $0.screen == "Home" })
    }

    /// For each setting the last matching entry that sets it wins; an entry that sets one parameter
    /// leaves the others as the earlier entries (or the ordinary config) set them.
    @Test func theLastMatchingEntryThatSetsASettingWins() {
        var configuration = only("haptic-overuse", ["burst_window_ms": 3000])
        configuration.overrides = [
            Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 3, "burst_window_ms": 500]),
            Self.entry(["*/Board"], "haptic-overuse", ["burst_count": 8]),
            Self.entry(["Nowhere"], "haptic-overuse", ["burst_count": 2]),
        ]
        let settings = configuration.resolved(atScreen: "Canvas/Board").rules["haptic-overuse"]
        #expect(settings?.parameters == ["burst_count": 8, "burst_window_ms": 500])
        #expect(configuration.resolved(atScreen: "Canvas/Sketch").rules["haptic-overuse"]?.parameters == ["burst_count": 3, "burst_window_ms": 500])
        #expect(configuration.resolved(atScreen: "Home").rules["haptic-overuse"]?.parameters == ["burst_window_ms": 3000])

        // Through the engine: 8 haptics 50 ms apart are a burst of 8 on Canvas/Board (from the
        // eighth), and of 3 on Canvas/Sketch (from the third), each within 500 ms.
        let board = (0..<8).map { Self.on("Canvas/Board", haptic(Int64($0) * 50)) }
        let sketch = (0..<8).map { Self.on("Canvas/Sketch", haptic(100_000 + Int64($0) * 50)) }
        let result = run(board + sketch, configuration)
        #expect(result.violations.map { [$0.source.line, Int64($0.count)] } == [[8, 8], [11, 8]])
        #expect(result.violations.map(\.detail) == [
            "8 haptics in 350 ms (8 or more within 500 ms is a burst)", "8 haptics in 350 ms (3 or more within 500 ms is a burst)",
        ])
    }

    /// A `forced-tab-switch` records the screen before the switch, so that is where its values come
    /// from: an override for the tab it lands on changes nothing.
    @Test func aTabSwitchIsJudgedWithTheScreenBeforeIt() {
        let events = [
            Self.on("Library", touch(60_000, .ended, target: "tab:Inbox")),
            Self.on("Inbox", tabSwitch(61_500, "tab:Library", "tab:Inbox")),
        ]
        let widened = ["user_window_ms": Int64(2000)]
        #expect(run(events, only("forced-tab-switch")).violations.map(\.screen) == ["Library"])
        #expect(run(events, Self.configuration("forced-tab-switch", [:], Self.entry(["Library"], "forced-tab-switch", widened))).violations.isEmpty)
        #expect(run(events, Self.configuration("forced-tab-switch", [:], Self.entry(["Inbox"], "forced-tab-switch", widened))).violations.count == 1)
        #expect(run(events, Self.configuration("forced-tab-switch", [:], Self.entry(["Library"], "forced-tab-switch", enabled: false))).violations.isEmpty)
        #expect(run(events, Self.configuration("forced-tab-switch", [:], Self.entry(["Inbox"], "forced-tab-switch", enabled: false))).violations.count == 1)
    }

    /// A touch kept for a wider window elsewhere is not used by a switch whose own window it is out of,
    /// and stays for the switch whose window it is in.
    @Test func tabBarTouchesAreKeptForTheWidestWindow() {
        let events = [
            Self.on("Home", touch(60_000, .ended, target: "tab:Inbox")),
            Self.on("Canvas/Board", tabSwitch(61_500, "tab:Home", "tab:Inbox")),
            Self.on("Home", tabSwitch(62_000, "tab:Inbox", "tab:Home")),
        ]
        let configuration = Self.configuration(
            "forced-tab-switch", [:], Self.entry(["Canvas/*"], "forced-tab-switch", ["user_window_ms": 5000]))
        // The first switch (from Home, 1000 ms) finds no touch; the second (from Canvas, 5000 ms) uses it.
        #expect(run(events, configuration).violations.map(\.source.line) == [2])
        #expect(run(events, only("forced-tab-switch")).violations.map(\.source.line) == [2, 3])
    }

    /// A switch where the rule is off still uses its touch, as it would were the rule on: silencing one
    /// screen changes no verdict on another.
    @Test func aSilencedSwitchStillUsesItsTouch() {
        let events = [
            Self.on("Home", touch(60_000, .ended, target: "tab:Inbox")),
            Self.on("Canvas/Board", tabSwitch(60_500, "tab:Home", "tab:Inbox")),
            Self.on("Home", tabSwitch(61_000, "tab:Inbox", "tab:Home")),
        ]
        #expect(run(events, only("forced-tab-switch")).violations.map(\.source.line) == [3])
        let silenced = Self.configuration("forced-tab-switch", [:], Self.entry(["Home"], "forced-tab-switch", enabled: false))
        #expect(run(events, silenced).violations.map(\.source.line) == [3])
        let silencedHere = Self.configuration("forced-tab-switch", [:], Self.entry(["Canvas/*"], "forced-tab-switch", enabled: false))
        #expect(run(events, silencedHere).violations.isEmpty)
    }

    /// A haptic is judged with the window at its own screen, also when the outcome that contradicts it
    /// comes later on another screen, or came earlier than the window at the outcome's screen reaches.
    @Test func aMismatchIsJudgedWithTheHapticsScreen() {
        let errorFirst = [
            Self.on("Canvas/Board", haptic(1000, .notificationError)),
            Self.on("Home", at(1800, .outcome(result: .success, task: nil))),
        ]
        let failureFirst = [
            Self.on("Home", at(1000, .outcome(result: .failure, task: nil))),
            Self.on("Canvas/Board", haptic(1800, .notificationSuccess)),
        ]
        let onCanvas = Self.configuration("haptic-mismatch", [:], Self.entry(["Canvas/*"], "haptic-mismatch", ["window_ms": 1000]))
        let onHome = Self.configuration("haptic-mismatch", [:], Self.entry(["Home"], "haptic-mismatch", ["window_ms": 1000]))
        for events in [errorFirst, failureFirst] {
            #expect(run(events, onCanvas).violations.map(\.screen) == ["Canvas/Board"])
            #expect(run(events, onHome).violations.isEmpty)
            #expect(run(events, only("haptic-mismatch")).violations.isEmpty)
        }
    }

    /// A load is judged with the `max_ms` where it started, not where it ended.
    @Test func aLoadIsJudgedWithTheScreenItStartedOn() {
        let events = [
            Self.on("Canvas/Board", at(0, .loadingStart(id: "feed", indicator: .none))),
            Self.on("Home", at(3000, .loadingEnd(id: "feed"))),
        ]
        let patient = ["max_ms": Int64(5000)]
        #expect(run(events, Self.configuration("loading-without-indicator", [:], Self.entry(["Canvas/*"], "loading-without-indicator", patient))).violations.isEmpty)
        let endScreen = run(events, Self.configuration("loading-without-indicator", [:], Self.entry(["Home"], "loading-without-indicator", patient)))
        #expect(endScreen.violations.map(\.screen) == ["Canvas/Board"])
        #expect(endScreen.violations.first?.detail == "loading feed took 3000 ms with no indicator (more than 1000 ms)")
    }

    /// A rule turned off in `rules:` and on by an entry runs, and reports only on the entry's screens;
    /// its summary row is there.
    @Test func aRuleOffEverywhereButOnOneScreenReportsThereOnly() {
        var configuration = AuditConfiguration()
        configuration.rules["modal-over-popover"] = RuleSettings(enabled: false)
        configuration.overrides = [Self.entry(["Canvas/*"], "modal-over-popover", enabled: true)]
        let events = [
            Self.on("Canvas/Board", present(1000, "filters", .popover)), Self.on("Canvas/Board", present(2000, "edit", .formSheet)),
            Self.on("Home", present(3000, "filters2", .popover)), Self.on("Home", present(4000, "edit2", .formSheet)),
        ]
        #expect(run(events, configuration).violations.filter { $0.rule == "modal-over-popover" }.map(\.source.line) == [2])
        let engine = SessionEngine(configuration: configuration, onReport: { _ in })
        #expect(engine.enabledRules.map(\.identifier).contains("modal-over-popover"))
        #expect(configuration.runs(ModalOverPopoverRule.description))
    }

    /// Held events (before the session's `session.start`) keep the screen they were seen on.
    @Test func heldEventsAreSilencedByTheirOwnScreen() {
        let events = [
            Self.on("Canvas/Board", haptic(500, .impactHeavy)),
            Self.on("Home", at(1000, .sessionStart(SessionSettings(hapticsEnabled: false)))),
            Self.on("Home", haptic(1500, .impactHeavy)),
        ]
        let result = run(events, Self.configuration("haptic-when-disabled", [:], Self.entry(["Canvas/*"], "haptic-when-disabled", enabled: false)))
        #expect(result.violations.map(\.source.line) == [3])
    }

    /// The values are configuration, not state: a session checkpointed between runs (the nightly job)
    /// and continued gives what one run gives, with bursts, pending haptics and open loads crossing
    /// the cut.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func checkpointedSessionsContinueWithTheirOverrides(cut: Int) {
        let events = CheckpointTests.numbered([
            Self.on("Home", haptic(0)), Self.on("Home", haptic(100)),
            Self.on("Canvas/Board", at(150, .loadingStart(id: "feed", indicator: .none))),
            Self.on("Canvas/Board", haptic(300, .notificationError)), Self.on("Canvas/Board", haptic(400)),
            Self.on("Home", at(1100, .outcome(result: .success, task: nil))),
            Self.on("Home", haptic(1200)), Self.on("Home", at(3000, .loadingEnd(id: "feed"))),
            Self.on("Home", at(4000, .sessionEnd)),
        ])
        var configuration = AuditConfiguration(maxLatenessMs: 0)
        configuration.overrides = [
            ScreenOverride(screens: [ScreenGlob("Canvas/*")], rules: [
                "haptic-overuse": RuleSettings(parameters: ["burst_count": 3]),
                "haptic-mismatch": RuleSettings(parameters: ["window_ms": 1000]),
                "loading-without-indicator": RuleSettings(parameters: ["max_ms": 2000]),
            ]),
        ]
        let whole = run(events, configuration).reports
        #expect(Set(whole.flatMap(\.violations).map(\.rule)) == ["haptic-overuse", "haptic-mismatch", "loading-without-indicator"])
        #expect(CheckpointTests.runInBatches(events, cuts: [cut], configuration) == whole)
    }

    /// The largest `burst_count` anywhere sets how many haptics a session keeps; when the next night's
    /// config changes it, a session continued from the checkpoint judges its new haptics as one run
    /// with the new config would (its ring put back in order, and cut or grown), and a run found on
    /// the first night keeps the first night's description.
    @Test(arguments: [(Int64(8), Int64(3)), (3, 5), (5, 5)])
    func aSessionContinuedUnderAnotherBurstCountKeepsItsHapticsInOrder(before: Int64, after: Int64) throws {
        let events = CheckpointTests.numbered([0, 100, 200, 5000, 5100, 5200, 5300, 5400].map { haptic($0) })
        var first = AuditConfiguration(maxLatenessMs: 0)
        first.overrides = [Self.entry(["*"], "haptic-overuse", ["burst_count": before])]
        var second = AuditConfiguration(maxLatenessMs: 0)
        second.overrides = [Self.entry(["*"], "haptic-overuse", ["burst_count": after])]
        let firstNight = SessionEngine(configuration: first, onReport: { _ in Issue.record("closed on the first night") })
        for event in events.prefix(3) { firstNight.ingest(event) }
        let checkpoint = try JSONDecoder().decode(EngineCheckpoint.self, from: JSONEncoder().encode(firstNight.checkpoint()))
        var reports: [SessionReport] = []
        let secondNight = SessionEngine(configuration: second, checkpoint: checkpoint) { reports.append($0) }
        for event in events.dropFirst(3) { secondNight.ingest(event) }
        secondNight.finish()
        let expected = run(events, first).violations.filter { $0.source.line <= 3 }
            + run(events, second).violations.filter { $0.source.line > 3 }
        #expect(reports.flatMap(\.violations) == expected)
        #expect(!expected.isEmpty)
    }

    /// Without `overrides:` the canonical text of a configuration (which tells shard stores apart) is
    /// as it was; with them it differs, entry by entry.
    @Test func overridesChangeTheCanonicalTextOnlyWhenThere() {
        let plain = AuditConfiguration()
        #expect(!plain.canonicalText.contains("override"))
        var first = plain
        first.overrides = [Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 8])]
        var second = plain
        second.overrides = [Self.entry(["Canvas/*"], "haptic-overuse", ["burst_count": 9])]
        #expect(first.canonicalText.hasPrefix(plain.canonicalText + ";override:"))
        #expect(first.canonicalText != second.canonicalText)
    }

    /// More distinct screens than the table remembers: the results are those of matching every time.
    @Test func manyDistinctScreensGiveTheSameResults() {
        let count = ScreenRuleTable.screenLimit + 50
        var events: [Event] = []
        for index in 0..<count {
            let screen = index % 2 == 0 ? "Canvas/\(index)" : "Home/\(index)"
            events.append(Self.on(screen, haptic(Int64(index) * 10, duration: 1600)))
        }
        let result = run(events, Self.configuration("haptic-overuse", [:], Self.entry(["Canvas/*"], "haptic-overuse", ["max_duration_ms": 2000])))
        #expect(result.violations.filter { $0.detail.contains("played for") }.map(\.screen) == (0..<count).filter { $0 % 2 == 1 }.map { "Home/\($0)" })
    }
}
