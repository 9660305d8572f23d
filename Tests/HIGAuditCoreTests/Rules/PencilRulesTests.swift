import Testing
@testable import HIGAuditCore

@Suite struct DestructiveDoubleTapRuleTests {
    let rule = only("destructive-double-tap")

    func doubleTap(_ ts: Int64) -> Event { at(ts, .pencilDoubleTap(action: .system(.switchEraser))) }
    func mutation(_ ts: Int64, undoable: Bool = true) -> Event {
        at(ts, .contentMutation(action: .delete, object: "stroke", undoable: undoable))
    }

    @Test(arguments: [(Int64(500), 1), (Int64(501), 0), (Int64(0), 1)])
    func windowIsInclusive(delay: Int64, violations: Int) {
        #expect(run([doubleTap(1000), mutation(1000 + delay)], rule).violations.count == violations)
    }

    @Test func violationSpansFromTheDoubleTapAndNamesIt() throws {
        let result = run([doubleTap(1000), mutation(1200, undoable: false), mutation(1300)], rule)
        #expect(result.violationLines == [2, 3])
        #expect(result.violations.map(\.severity) == [.error, .warning])
        #expect(result.violations.map(\.startTs) == [1000, 1000])
        #expect(result.violations.map(\.endTs) == [1200, 1300])
        let first = try #require(result.violations.first)
        #expect(first.related == RelatedSource(role: "double-tap", location: SourceLocation(file: 0, line: 1)))
        let files = SourceFileTable(paths: ["logs/a.zst"])
        #expect(first.detail(describing: files).hasSuffix("(double-tap at logs/a.zst:1)"))
    }

    @Test func touchBeganInBetweenCancels() {
        let result = run([doubleTap(1000), touch(1100, .began), mutation(1200)], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func otherTouchPhasesDoNotCancel() {
        let result = run([doubleTap(1000), touch(1100, .ended), touch(1100, .moved), mutation(1200)], rule)
        #expect(result.violationLines == [4])
    }

    @Test func onlyTheLatestDoubleTapCounts() {
        // The touch cancels the first tap; the second is newer and not cancelled.
        let result = run([doubleTap(1000), touch(1050, .began), doubleTap(1100), mutation(1200)], rule)
        #expect(result.violations.map(\.startTs) == [1100])
        #expect(result.violations.first?.related?.location.line == 3)
    }

    @Test func mutationBeforeTheDoubleTapAtTheSameTimestampDoesNotCount() {
        #expect(run([mutation(1000), doubleTap(1000)], rule).violations.isEmpty)
    }
}

@Suite struct PencilPreferenceIgnoredRuleTests {
    let rule = only("pencil-preference-ignored")

    func tap(_ ts: Int64, _ action: PencilTapAction) -> Event { at(ts, .pencilDoubleTap(action: action)) }

    @Test func defaultsWithoutSessionStart() {
        let result = run([
            tap(1, .system(.switchEraser)), tap(2, .system(.switchPrevious)), tap(3, .system(.showColorPalette)),
            tap(4, .system(.ignore)), tap(5, .custom("lasso")),
        ], rule)
        #expect(result.violationLines == [2, 3, 5])
    }

    @Test func settingsFromSessionStart() {
        let settings = SessionSettings(pencilPreferredAction: .showColorPalette, pencilCustomActionEnabled: true)
        let result = run([
            at(0, .sessionStart(settings)),
            tap(1, .system(.switchEraser)), tap(2, .system(.showColorPalette)), tap(3, .system(.ignore)),
            tap(4, .custom("lasso")),
        ], rule)
        #expect(result.violationLines == [2])
    }

    @Test func preferenceIgnoreMakesEverySystemActionButIgnoreViolate() {
        let result = run([
            at(0, .sessionStart(SessionSettings(pencilPreferredAction: .ignore))),
            tap(1, .system(.switchEraser)), tap(2, .system(.ignore)),
        ], rule)
        #expect(result.violationLines == [2])
    }
}

@Suite struct LoadingWithoutIndicatorRuleTests {
    let rule = only("loading-without-indicator")

    @Test(arguments: [(Int64(1000), 0), (Int64(1001), 1)])
    func loadLongerThanTheMaximum(duration: Int64, violations: Int) {
        let result = run([
            at(0, .loadingStart(id: "feed", indicator: .none)), at(duration, .loadingEnd(id: "feed")),
        ], rule)
        #expect(result.violations.count == violations)
        #expect(result.violations.allSatisfy { $0.startTs == 0 && $0.endTs == duration && $0.source.line == 1 })
    }

    @Test func loadThatNeverEndsRunsToTheSessionsLastEvent() {
        let result = run([
            at(0, .loadingStart(id: "feed", indicator: .none), screen: "home"),
            at(100, .loadingStart(id: "img", indicator: .spinner)),
            at(300, .sessionEnd, screen: "other"),
        ], rule)
        #expect(result.violations.map(\.endTs) == [300])
        #expect(result.violations.map(\.screen) == ["home"])
    }

    @Test func onlyTheFirstLaterEndOfTheSameIdCounts() {
        let result = run([
            at(0, .loadingStart(id: "a", indicator: .none)),
            at(500, .loadingEnd(id: "b")),
            at(600, .loadingEnd(id: "a")),
            at(5000, .loadingEnd(id: "a")),
        ], rule)
        #expect(result.violations.isEmpty)
    }
}
