import Testing
@testable import HIGAuditCore

@Suite struct SessionEngineTests {
    let popoverRule = only("modal-over-popover")

    @Test func reordersOutOfOrderEventsWithinTheBound() {
        // The sheet arrives first but is 1 s later: sorted, it is presented over the popover.
        let result = run([present(2000, "sheet", .pageSheet), present(1000, "filters", .popover)], popoverRule)
        #expect(result.dispositions == [.accepted, .accepted])
        #expect(result.violationLines == [1])
    }

    @Test(arguments: [(true, [Int64(2)]), (false, [])])
    func equalTimestampsKeepInputOrder(popoverFirst: Bool, expected: [Int64]) {
        let events = [present(1000, "filters", .popover), present(1000, "sheet", .pageSheet)]
        let result = run(popoverFirst ? events : events.reversed(), popoverRule)
        #expect(result.violationLines == expected)
    }

    @Test func eventStrictlyOlderThanNewestMinusLatenessIsLate() {
        let result = run([
            haptic(20_000), haptic(10_000), haptic(9_999),
        ], AuditConfiguration(maxLatenessMs: 10_000))
        #expect(result.dispositions == [
            .accepted, .accepted, .late(.tooOld(sessionNewestTs: 20_000, maxLatenessMs: 10_000)),
        ])
        #expect(result.statistics.lateEvents == 1)
        #expect(result.statistics.events == 2)
        #expect(result.late.map(\.line) == [3])
        #expect(result.report("s")?.acceptedEvents == 2)
    }

    /// Session ids are told apart by their bytes, as event ids are: two spellings of one string
    /// (precomposed `é`, and `e` with a combining accent) are two sessions, whatever their length,
    /// and they close in the same order on every run.
    @Test(arguments: ["caf", "caf-0123456789abcdef"])
    func sessionIdsAreComparedByTheirBytes(stem: String) {
        let precomposed = stem.replacingOccurrences(of: "caf", with: "caf\u{E9}")
        let decomposed = stem.replacingOccurrences(of: "caf", with: "cafe\u{301}")
        #expect(precomposed == decomposed && !precomposed.utf8.elementsEqual(decomposed.utf8))
        let result = run([haptic(1000, session: precomposed), haptic(2000, session: decomposed), haptic(3000, session: precomposed)])
        #expect(result.dispositions == [.accepted, .accepted, .accepted])
        #expect(result.statistics.sessions == 2)
        #expect(result.reports.map { Array($0.session.utf8) } == [Array(decomposed.utf8), Array(precomposed.utf8)])
    }

    @Test func latenessIsPerSession() {
        // Another session's clock being far ahead does not make this one's events late.
        let result = run([
            haptic(1_000_000, session: "fast"), haptic(1000, session: "slow"), haptic(500, session: "slow"),
        ])
        #expect(result.dispositions == [.accepted, .accepted, .accepted])
    }

    @Test func repeatedIdInTheSameSessionIsADuplicate() {
        let result = run([
            at(1000, .sessionStart(.defaults), id: "e1"),
            at(1001, .sessionStart(.defaults), id: "e1"),
            at(1000, .sessionStart(.defaults), session: "other", id: "e1"),
            at(5000, .sessionEnd, id: "e2"),
        ])
        #expect(result.dispositions == [.accepted, .duplicate, .accepted, .accepted])
        #expect(result.statistics.duplicateEvents == 1)
        #expect(result.statistics.events == 3)
        #expect(result.statistics.sessions == 2)
    }

    @Test func duplicateIsDecidedBeforeLate() {
        let result = run([at(20_000, .sessionEnd, id: "x"), at(1000, .sessionEnd, id: "x")])
        #expect(result.dispositions == [.accepted, .duplicate])
    }

    /// Sessions "a" and "b" have no `device`: both are device "", one clock.
    @Test func sessionEndClosesOnceTheDeviceClockIsMaxLatenessPastIt() {
        let result = run([
            at(1000, .sessionEnd, session: "a"),
            haptic(10_999, session: "b"),
            haptic(5000, session: "a"),   // clock 10 999, then 5000 < 1000 + 10 000: still open
            haptic(11_000, session: "b"),
            haptic(6000, session: "a"),   // closed when the clock reached 11 000 ≥ 11 000
        ])
        #expect(result.dispositions == [.accepted, .accepted, .accepted, .accepted, .late(.sessionClosed)])
        #expect(result.report("a")?.acceptedEvents == 2)
        #expect(result.report("a")?.lastTs == 5000)
    }

    @Test func gapClosesWhenTheDeviceClockIsMoreThanTheGapPast() {
        let configuration = AuditConfiguration(sessionGapMs: 1_800_000)
        let result = run([
            haptic(100, session: "a"),
            haptic(1_800_100, session: "b"),
            haptic(101, session: "a"),        // 1 800 100 is not more than 100 + 1 800 000
            haptic(1_800_102, session: "b"),  // 1 800 102 > 101 + 1 800 000: "a" closes
            haptic(102, session: "a"),
        ], configuration)
        #expect(result.dispositions == [.accepted, .accepted, .accepted, .accepted, .late(.sessionClosed)])
        #expect(result.late.map(\.line) == [5])
    }

    @Test func eventOfAClosedSessionIsLateEvenWithARepeatedId() {
        let result = run([
            at(0, .sessionEnd, session: "a", id: "1"),
            haptic(20_000, session: "b"),
            at(0, .sessionEnd, session: "a", id: "1"),
        ])
        #expect(result.dispositions.last == .late(.sessionClosed))
        #expect(result.statistics.duplicateEvents == 0)
    }

    @Test func finishClosesEveryOpenSessionInIdOrder() {
        let result = run([haptic(1, session: "b"), haptic(2, session: "a"), haptic(3, session: "c")])
        #expect(result.reports.map(\.session) == ["a", "b", "c"])
    }

    @Test func closedSessionsReleaseTheirMemory() {
        var reports = 0
        let engine = SessionEngine(configuration: AuditConfiguration(), onReport: { _ in reports += 1 })
        for index in 0..<3000 {
            let ts = Int64(index) * 10
            engine.ingest(at(ts, .sessionStart(.defaults), session: "s\(index)"))
            engine.ingest(at(ts + 5, .sessionEnd, session: "s\(index)"))
        }
        // The device's clock is at 29 995: the sessions that ended within the 10 s before are open.
        #expect(engine.openSessionCount == 1000)
        #expect(engine.openDeviceCount == 1)
        for index in 0..<5000 {
            engine.ingest(haptic(100_000 + Int64(index), session: "long"))
        }
        #expect(engine.openSessionCount == 1)
        #expect(reports == 3000)
        engine.finish()
        #expect(reports == 3001)
        #expect(engine.openSessionCount == 0)
    }

    @Test func deviceAndVersionAreTheFirstSeenInTimestampOrder() {
        let result = run([
            at(2000, .sessionEnd, device: "iPad", appVersion: "5.3"),
            at(1000, .modalPresent(modal: "p", style: .popover), device: "iPhone", appVersion: "5.2"),
            at(1500, .modalPresent(modal: "q", style: .formSheet)),
        ], popoverRule)
        let report = result.report("s")
        #expect(report?.device == "iPhone")
        #expect(report?.appVersion == "5.2")
        #expect(report?.violations.map(\.device) == ["iPhone"])
        #expect(report?.violations.map(\.appVersion) == ["5.2"])
    }

    @Test func violationScreenIsTheEventsOwnElseTheLatestBeforeIt() {
        let result = run([
            at(1000, .modalPresent(modal: "p", style: .popover), screen: "list"),
            at(1100, .modalPresent(modal: "q", style: .formSheet)),
            at(1200, .modalPresent(modal: "r", style: .popover), screen: "detail"),
            at(1300, .modalPresent(modal: "t", style: .formSheet), screen: "editor"),
        ], popoverRule)
        #expect(result.violations.map(\.screen) == ["list", "editor"])
        #expect(run([present(1, "p", .popover), present(2, "q", .formSheet)], popoverRule)
            .violations.map(\.screen) == [""])
    }

    @Test func reportCarriesHapticCountsAndTimeRange() {
        let result = run([
            haptic(3000, .impactLight), haptic(1000, .selection), haptic(2000, .selection), at(500, .sessionEnd),
        ])
        let report = result.report("s")
        #expect(report?.hapticCounts == [.selection: 2, .impactLight: 1])
        #expect(report?.firstTs == 500)
        #expect(report?.lastTs == 3000)
        #expect(report?.acceptedEvents == 4)
    }

    @Test func unbalancedDismissesAreCountedWhateverRulesRun() {
        var configuration = only("haptic-overuse")
        configuration.rules["haptic-overuse"]?.enabled = false
        let result = run([present(1, "a", .pageSheet), dismiss(2, "b"), dismiss(3, "a"), dismiss(4, "a")], configuration)
        #expect(result.statistics.unbalancedDismisses == 2)
        #expect(result.violations.isEmpty)
    }

    @Test func violationsAreSortedByStartThenRuleThenSource() {
        let result = run([
            at(0, .sessionStart(SessionSettings(hapticsEnabled: false))),
            at(5000, .captureStart(source: .camera)),
            haptic(6000, .impactHeavy, duration: 2000),
        ])
        #expect(result.violations.map(\.rule) == ["haptic-during-capture", "haptic-overuse", "haptic-when-disabled"])
    }

    @Test func hugeTimestampsDoNotTrap() {
        let result = run([haptic(.max), haptic(.min), haptic(.max - 1), at(.min, .sessionEnd, session: "x")])
        #expect(result.dispositions.count == 4)
        #expect(result.statistics.lateEvents == 1)
    }
}
