import Testing
@testable import HIGAuditCore

func sessionStart(_ ts: Int64) -> Event { at(ts, .sessionStart(SessionSettings())) }

@Suite struct SlowLaunchRuleTests {
    let rule = only("slow-launch")

    @Test(arguments: [(Int64(2000), 0), (Int64(2001), 1), (Int64(0), 0)])
    func limitIsInclusive(launch: Int64, violations: Int) {
        #expect(run([sessionStart(1000), at(1000 + launch, .appReady)], rule).violations.count == violations)
    }

    @Test func violationSpansTheLaunchAndIsSourcedAtTheFirstReady() throws {
        let result = run([sessionStart(1000), at(1500, .navPush(to: "x"), screen: "home"), at(4000, .appReady), at(9000, .appReady)], rule)
        let violation = try #require(result.violations.first)
        #expect(result.violations.count == 1)
        #expect(violation.startTs == 1000 && violation.endTs == 4000 && violation.count == 1)
        #expect(violation.source.line == 3)
        #expect(violation.screen == "home")
    }

    @Test func onlyTheFirstReadyIsJudgedAndBothAreNeeded() {
        #expect(run([sessionStart(1000), at(2000, .appReady), at(9000, .appReady)], rule).violations.isEmpty)
        #expect(run([at(9000, .appReady)], rule).violations.isEmpty)
        #expect(run([sessionStart(1000), at(9000, .sessionEnd)], rule).violations.isEmpty)
        // The first session.start in ts order counts, whatever the input order.
        #expect(run([sessionStart(5000), sessionStart(1000), at(4000, .appReady)], rule).violationLines == [3])
    }

    @Test(arguments: [Int64(0), 500])
    func parameterOverride(maxMs: Int64) {
        let result = run([sessionStart(1000), at(1000 + maxMs + 1, .appReady)], only("slow-launch", ["max_ms": maxMs]))
        #expect(result.violations.count == 1)
    }
}

@Suite struct UnpromptedPermissionRequestRuleTests {
    let rule = only("unprompted-permission-request")

    func request(_ ts: Int64, _ result: PermissionResult? = nil) -> Event {
        at(ts, .permissionRequest(permission: .location, result: result))
    }

    @Test(arguments: [(Int64(2000), 0), (Int64(2001), 1), (Int64(0), 0)])
    func windowIsInclusive(gap: Int64, violations: Int) {
        #expect(run([touch(1000, .ended), request(1000 + gap)], rule).violations.count == violations)
    }

    @Test func onlyEndedTouchesBeforeTheRequestCount() {
        #expect(run([touch(1000, .began), request(1100)], rule).violationLines == [2])
        #expect(run([touch(1000, .cancelled), request(1100)], rule).violationLines == [2])
        // Equal ts keep input order: a touch read after the request is not before it.
        #expect(run([request(1000), touch(1000, .ended)], rule).violationLines == [1])
        #expect(run([touch(1000, .ended), request(1000)], rule).violations.isEmpty)
    }

    @Test func alreadyDecidedShowsNoPromptButAbsentResultDoes() {
        #expect(run([request(1000, .alreadyDecided)], rule).violations.isEmpty)
        #expect(run([request(1000, nil), request(1001, .granted), request(1002, .denied)], rule).violationLines == [1, 2, 3])
    }

    @Test func oneTouchJustifiesEveryRequestInItsWindow() {
        #expect(run([touch(1000, .ended), request(1500), request(3000), request(3001)], rule).violationLines == [4])
    }
}

@Suite struct EarlyRatingPromptRuleTests {
    let rule = only("early-rating-prompt")

    @Test(arguments: [(Int64(59_999), 1), (Int64(60_000), 0), (Int64(0), 1)])
    func minimumIsStrict(delay: Int64, violations: Int) {
        #expect(run([sessionStart(1000), at(1000 + delay, .ratingPrompt)], rule).violations.count == violations)
    }

    @Test func everyPromptAfterTheFirstViolatesWithItsNumber() {
        let result = run([sessionStart(0), at(70_000, .ratingPrompt), at(80_000, .ratingPrompt), at(900_000, .ratingPrompt)], rule)
        #expect(result.violationLines == [3, 4])
        #expect(result.violations.map(\.count) == [2, 3])
    }

    @Test func anEarlyFirstPromptCountsOne() {
        let result = run([sessionStart(0), at(1_000, .ratingPrompt), at(2_000, .ratingPrompt)], rule)
        #expect(result.violations.map(\.count) == [1, 2])
    }

    @Test func withoutSessionStartOnlyRepetitionApplies() {
        #expect(run([at(10, .ratingPrompt)], rule).violations.isEmpty)
        #expect(run([at(10, .ratingPrompt), at(20, .ratingPrompt)], rule).violationLines == [2])
    }
}

@Suite struct WidgetPlaceholderRuleTests {
    let rule = only("widget-placeholder")

    func display(_ content: WidgetContent, _ loadMs: Double?) -> Event {
        at(1000, .widgetDisplay(widget: "recent", content: content, loadMs: loadMs), session: "w", screen: "widget:recent")
    }

    @Test(arguments: [(1000.0, 0), (1000.001, 1), (0.0, 0)])
    func loadLimitIsInclusive(loadMs: Double, violations: Int) {
        #expect(run([display(.cached, loadMs)], rule).violations.count == violations)
        #expect(run([display(.fresh, loadMs)], rule).violations.count == violations)
    }

    @Test func aPlaceholderViolatesHoweverFast() throws {
        let result = run([display(.placeholder, nil), display(.placeholder, 5)], rule)
        #expect(result.violations.count == 2)
        #expect(result.violations.first?.screen == "widget:recent")
        #expect(run([display(.cached, nil)], rule).violations.isEmpty)
    }

    @Test func aSlowPlaceholderIsOneViolation() {
        #expect(run([display(.placeholder, 5_000)], rule).violations.count == 1)
    }
}
