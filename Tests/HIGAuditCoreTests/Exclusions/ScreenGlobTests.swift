import Testing
import HIGAuditCore

@Suite struct ScreenGlobTests {
    @Test(arguments: [
        ("Canvas", "Canvas", true),
        ("Canvas", "Canvas/Draw", false),
        ("Canvas", "canvas", false),
        ("Canvas*", "Canvas", true),
        ("Canvas*", "Canvas/Draw/Brush", true),
        ("Canvas/*", "Canvas", false),
        ("Canvas/*", "Canvas/", true),
        ("*/Draw", "Canvas/Sub/Draw", true),
        ("*/Draw", "Canvas/Drawing", false),
        ("*", "", true),
        ("*", "anything/at/all", true),
        ("", "", true),
        ("", "x", false),
        ("?", "", false),
        ("?", "é", true),
        ("?", "e\u{301}", false),
        ("??", "e\u{301}", true),
        ("Set?ings", "Settings", true),
        ("Set?ings", "Setings", false),
        ("a*b*c", "aXbYbZc", true),
        ("a*b*c", "aXbYbZ", false),
        ("**a", "bbba", true),
        ("[ab]", "[ab]", true),
        ("\\*", "\\x", true),
        ("\\*", "*", false),
    ])
    func matchesTheWholeScreen(pattern: String, screen: String, expected: Bool) {
        #expect(ScreenGlob(pattern).matches(screen) == expected, "\(pattern) vs \(screen)")
    }

    @Test func manyStarsAgainstALongMissStayFast() {
        let pattern = ScreenGlob(String(repeating: "*a", count: 30) + "b")
        #expect(!pattern.matches(String(repeating: "a", count: 2_000)))
    }
}

@Suite struct CalendarDayTests {
    @Test func parsesOnlyRealDaysWrittenInFull() {
        #expect(CalendarDay("2026-02-28")?.description == "2026-02-28")
        #expect(CalendarDay("2024-02-29") != nil)
        for bad in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-1-5", "26-01-05", "2026-01-05T00:00", "2026/01/05", "", "+026-01-05"] {
            #expect(CalendarDay(bad) == nil, "\(bad)")
        }
    }

    @Test func utcDayOfATime() {
        #expect(CalendarDay(utcMilliseconds: 0).description == "1970-01-01")
        #expect(CalendarDay(utcMilliseconds: 1_772_323_199_999).description == "2026-02-28")
        #expect(CalendarDay(utcMilliseconds: 1_772_323_200_000).description == "2026-03-01")
        #expect(CalendarDay(utcMilliseconds: -1).description == "1969-12-31")
    }
}

@Suite struct ExclusionTests {
    @Test func matchesWhenTheRuleAndEveryGivenListMatch() {
        let entry = Exclusion(
            rules: ["haptic-overuse"], screens: [ScreenGlob("Canvas/*")], appVersions: ["5.2"], reason: "drawing")
        #expect(entry.matches(rule: "haptic-overuse", screen: "Canvas/Draw", appVersion: "5.2.1"))
        #expect(!entry.matches(rule: "modal-depth", screen: "Canvas/Draw", appVersion: "5.2"))
        #expect(!entry.matches(rule: "haptic-overuse", screen: "Home", appVersion: "5.2"))
        #expect(!entry.matches(rule: "haptic-overuse", screen: "Canvas/Draw", appVersion: "5.20"))
        let everyRule = Exclusion(rules: nil, reason: "all")
        #expect(everyRule.matches(rule: "anything", screen: "", appVersion: ""))
    }

    @Test func appliesUpToAndIncludingItsUntilDay() {
        let entry = Exclusion(rules: nil, reason: "r", until: CalendarDay("2026-03-31"), location: "c.yml:4")
        #expect(entry.applies(on: CalendarDay("2026-03-31")!))
        #expect(!entry.applies(on: CalendarDay("2026-04-01")!))
        let suppression = Suppression([entry], today: CalendarDay("2026-04-01")!)
        #expect(suppression.hasEntries)
        #expect(!suppression.suppresses(rule: "modal-depth", screen: "x", appVersion: "1"))
        #expect(suppression.expiryNotes == [
            "the exclusion at c.yml:4 expired after 2026-03-31 (its until); it no longer suppresses anything",
        ])
    }
}
