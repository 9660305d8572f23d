import Testing
@testable import HIGAuditCore

@Suite struct ForcedTabSwitchRuleTests {
    /// The tab bar is `tab_bar` or a `tab:` target, compared as `String`s are (the first-byte test
    /// in front of that comparison turns no tab-bar touch away).
    @Test func tabBarTargetsAreTheTabBarAndTabColonNames() {
        func isTabBar(_ target: String?, _ phase: TouchPhase = .ended) -> Bool {
            ForcedTabSwitchRule.isTabBarTouch(Touch(phase: phase, target: target))
        }
        #expect(isTabBar("tab_bar") && isTabBar("tab:Home") && isTabBar("tab:") && isTabBar("tab:Café"))
        #expect(!isTabBar("tab_bar", .began) && !isTabBar(nil) && !isTabBar("") && !isTabBar("t"))
        #expect(!isTabBar("Tab:Home") && !isTabBar("tabs") && !isTabBar(" tab:Home") && !isTabBar("canvas"))
        // A combining mark after the colon makes another character: no `tab:` prefix as `String`s compare.
        #expect(!isTabBar("tab:\u{301}Home"))
    }

    let rule = only("forced-tab-switch")

    /// SPEC §3: the screen of a forced switch is where the person was, the latest screen before it,
    /// whether or not the switch itself names the screen it lands on; empty when none came before.
    @Test func theScreenIsTheOneBeforeTheSwitch() {
        let result = run([
            tabSwitch(50_000, "tab:A", "tab:B", screen: "b.root"),
            at(50_100, .navPush(to: "b.detail"), screen: "b.detail"),
            tabSwitch(50_200, "tab:B", "tab:A", screen: "a.root"),
            tabSwitch(50_300, "tab:A", "tab:C"),
            at(50_400, .navPush(to: "c.detail"), screen: "c.detail"),
            tabSwitch(50_500, "tab:C", "tab:A", screen: "c.detail"),
        ], rule)
        #expect(result.violations.map(\.screen) == ["", "b.detail", "a.root", "c.detail"])
    }

    @Test(arguments: [(Int64(1000), 0), (Int64(1001), 1)])
    func userWindowIsInclusive(delay: Int64, violations: Int) {
        let result = run([touch(50_000, .ended, target: "tab:B"), tabSwitch(50_000 + delay, "tab:A", "tab:B")], rule)
        #expect(result.violations.count == violations)
    }

    @Test func onlyEndedTouchesOnTheTabBarQualify() {
        let result = run([
            touch(50_000, .began, target: "tab:B"),
            touch(50_000, .ended, target: "button:tab"),
            tabSwitch(50_100, "tab:A", "tab:B"),
            touch(50_200, .ended, target: "tab_bar"),
            tabSwitch(50_300, "tab:B", "tab:A"),
        ], rule)
        #expect(result.violationLines == [3])
        #expect(result.violations.first?.severity == .error)
    }

    /// SPEC §3: a target `tab_bar` exactly, or one that starts with `tab:`, short and long targets alike;
    /// near misses (case, separator, a prefix or suffix) are not tab-bar touches.
    @Test(arguments: [
        ("tab_bar", true), ("tab:", true), ("tab:Library", true), ("tab:Library.Recently.Added.Albums", true),
        ("tab_bar2", false), ("tab", false), ("Tab:Library", false), ("tab;Library", false), ("xtab:Library", false),
        ("toolbar.tab:Library.Recently", false), ("tab_bar.long.suffix.beyond16", false),
    ])
    func tabBarTargetsAreMatchedByTheirBytes(target: String, qualifies: Bool) {
        let result = run([touch(50_000, .ended, target: target), tabSwitch(50_100, "tab:A", "tab:B")], rule)
        #expect(result.violations.count == (qualifies ? 0 : 1), "\(target)")
    }

    @Test func aTouchJustifiesOneSwitchOnly() {
        let result = run([
            touch(50_000, .ended, target: "tab:B"), tabSwitch(50_100, "tab:A", "tab:B"), tabSwitch(50_200, "tab:B", "tab:C"),
        ], rule)
        #expect(result.violationLines == [3])
    }

    @Test func theEarliestUnusedTouchIsUsed() {
        // If the switch at 51 000 took the touch at 50 900, the one at 50 000 would be too old for 51 900.
        let result = run([
            touch(50_000, .ended, target: "tab:B"), touch(50_900, .ended, target: "tab:C"),
            tabSwitch(51_000, "tab:A", "tab:B"), tabSwitch(51_900, "tab:B", "tab:C"),
        ], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func touchAfterTheSwitchAtTheSameTimestampDoesNotCount() {
        let result = run([tabSwitch(50_000, "tab:A", "tab:B"), touch(50_000, .ended, target: "tab:B")], rule)
        #expect(result.violationLines == [1])
    }

    @Test(arguments: [(Int64(2000), 0), (Int64(2001), 1)])
    func restoreGraceWithoutATouch(delay: Int64, violations: Int) {
        let result = run([at(10_000, .sessionStart(.defaults)), tabSwitch(10_000 + delay, "tab:A", "tab:B")], rule)
        #expect(result.violations.count == violations)
    }

    @Test func switchInsideTheGraceStillTakesAQualifyingTouch() {
        let result = run([
            at(10_000, .sessionStart(.defaults)),
            touch(11_500, .ended, target: "tab:B"),
            tabSwitch(11_600, "tab:A", "tab:B"),   // in the grace, but takes the touch
            tabSwitch(12_400, "tab:B", "tab:C"),   // after the grace; the touch is used
        ], rule)
        #expect(result.violationLines == [4])
    }

    @Test func sameTabSwitchTakesNoTouchAndNeverViolates() {
        let result = run([
            touch(50_000, .ended, target: "tab:A"),
            tabSwitch(50_100, "tab:A", "tab:A"),
            tabSwitch(50_200, "tab:A", "tab:B"),
            tabSwitch(90_000, "tab:B", "tab:B"),
        ], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func userWindowFromTheConfiguration() {
        let result = run(
            [touch(50_000, .ended, target: "tab:B"), tabSwitch(50_200, "tab:A", "tab:B")],
            only("forced-tab-switch", ["user_window_ms": 100])
        )
        #expect(result.violationLines == [2])
    }
}

@Suite struct TabStateLostRuleTests {
    let rule = only("tab-state-lost")

    @Test func returningToATabMustShowTheScreenLeftThere() {
        let result = run([
            tabSwitch(1000, "tab:A", "tab:B", screen: "b.root"),
            at(1100, .navPush(to: "b.detail"), screen: "b.detail"),
            tabSwitch(1200, "tab:B", "tab:A", screen: "a.root"),
            tabSwitch(1300, "tab:A", "tab:B", screen: "b.root"),      // lost b.detail
            tabSwitch(1400, "tab:B", "tab:A", screen: "a.root"),      // kept
            tabSwitch(1500, "tab:A", "tab:C", screen: "c.root"),      // nothing remembered
            tabSwitch(1600, "tab:C", "tab:C", screen: "c.other"),     // same tab
            tabSwitch(1700, "tab:C", "tab:B"),                        // no screen: cannot judge
        ], rule)
        #expect(result.violationLines == [4])
    }

    /// The rule sees only tab switches and reads the screens shown in between from the session
    /// context. This reference sees every event in `ts` order, as the rule once did, and must find
    /// the same violations: random sessions of switches (to the active tab, `from` = `to`, without a
    /// screen) among events with and without screens, some at equal `ts`.
    @Test(arguments: 0..<40)
    func agreesWithTheRuleSeeingEveryEvent(seed: Int) {
        let events = Self.randomSession(
            seed: seed, tabs: ["tab:A", "tab:B", "tab:C"],
            screens: ["a.root", "a.detail", "b.root", "b.detail", "c.root", nil, nil])
        let result = run(events, rule)
        #expect(result.violationLines == Self.everyEventReference(events), "seed \(seed)")
    }

    /// As above with more tabs than `TabScreens` keeps in its list, so that sessions go on after
    /// their remembered screens moved into its dictionary; some tabs are spelt in NFC and NFD.
    @Test(arguments: 0..<12)
    func agreesWithTheRuleSeeingEveryEventOverManyTabs(seed: Int) {
        let tabs = (0..<(TabScreens.listLimit + 8)).map { "tab:\($0)" } + ["tab:caf\u{E9}", "tab:cafe\u{301}"]
        let events = Self.randomSession(
            seed: seed, tabs: tabs, screens: ["root", "detail", "caf\u{E9}", "cafe\u{301}", "other", nil],
            length: 400...900)
        let result = run(events, rule)
        #expect(!result.violations.isEmpty)
        #expect(result.violationLines == Self.everyEventReference(events), "seed \(seed)")
    }

    /// A random session of switches (to the active tab, `from` = `to`, without a screen) among events
    /// with and without screens, some at equal `ts`.
    static func randomSession(
        seed: Int, tabs: [String], screens: [String?], length: ClosedRange<UInt64> = 20...169
    ) -> [Event] {
        var random = SplitMix64(seed: UInt64(seed) &+ 900)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var events: [Event] = []
        var ts: Int64 = 1000
        let span = length.upperBound - length.lowerBound + 1
        for _ in 0..<Int(random.next() % span + length.lowerBound) {
            ts += Int64(random.next() % 3) * 100
            switch random.next() % 5 {
            case 0, 1: events.append(tabSwitch(ts, pick(tabs), pick(tabs), screen: pick(screens)))
            case 2: events.append(at(ts, .navPush(to: "x"), screen: pick(screens)))
            case 3: events.append(at(ts, .touch(Touch(phase: .ended, target: "button")), screen: pick(screens)))
            default: events.append(at(ts, .haptic(kind: .selection, durationMs: nil), screen: pick(screens)))
            }
        }
        return events
    }

    /// Lines (1-based) of the violations the rule's former definition finds, updating the active
    /// tab's screen on every event.
    static func everyEventReference(_ events: [Event]) -> [Int64] {
        var activeTab: String?
        var activeScreen: String?
        var screens: [String: String] = [:]
        var lines: [Int64] = []
        // The engine's order: `ts`, then input order.
        let ordered = events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }
        for (offset, event) in ordered {
            if case let .tabSwitch(from, to) = event.payload {
                let remembered: String?
                if to == activeTab {
                    remembered = activeScreen
                } else {
                    if let leaving = activeTab, let screen = activeScreen { screens[leaving] = screen }
                    remembered = screens.removeValue(forKey: to)
                    activeTab = to
                    activeScreen = remembered
                }
                if from != to, let screen = event.screen, let remembered, remembered != screen {
                    lines.append(Int64(offset + 1))
                }
            }
            if activeTab != nil, let screen = event.screen { activeScreen = screen }
        }
        return lines
    }

    /// A screen shown again in another canonically equivalent spelling (NFD after NFC) is the same
    /// screen: the detail names the spelling first remembered, as the per-event update kept it.
    @Test func aRespeltScreenKeepsTheSpellingRemembered() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let result = run([
            tabSwitch(1000, "tab:A", "tab:B", screen: composed),
            at(1100, .navPush(to: "x"), screen: decomposed),
            tabSwitch(1200, "tab:B", "tab:A", screen: "a"),
            tabSwitch(1300, "tab:A", "tab:B", screen: "b"),
        ], rule)
        #expect(result.violationLines == [4])
        #expect(result.violations.first.map { Array($0.detail.utf8.suffix(composed.utf8.count)) } == Array(composed.utf8))
    }

    @Test func screensBeforeTheFirstSwitchBelongToNoTab() {
        let result = run([
            at(1000, .navPush(to: "x"), screen: "x"),
            tabSwitch(1100, "tab:A", "tab:B", screen: "b"),
            tabSwitch(1200, "tab:B", "tab:A", screen: "a"),
        ], rule)
        #expect(result.violations.isEmpty)
    }
}
