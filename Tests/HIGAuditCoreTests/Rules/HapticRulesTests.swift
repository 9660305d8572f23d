import Testing
@testable import HIGAuditCore

@Suite struct HapticOveruseRuleTests {
    let rule = only("haptic-overuse")

    @Test func maximalRunOfBurstsIsOneViolationWithExactExtent() {
        // Seven haptics 100 ms apart: haptics 5, 6, 7 violate; one run from haptic 1 to haptic 7.
        let result = run((0..<7).map { haptic(1000 + Int64($0) * 100) }, rule)
        #expect(result.violations.count == 1)
        let violation = result.violations.first
        #expect(violation?.source.line == 5)
        #expect(violation?.startTs == 1000)
        #expect(violation?.endTs == 1600)
        #expect(violation?.count == 7)
        #expect(violation?.severity == .warning)
    }

    @Test func twoRunsSeparatedByANonViolatingHapticAreTwoViolations() {
        let first = (0..<5).map { haptic(Int64($0) * 10) }
        let second = (0..<6).map { haptic(10_000 + Int64($0) * 10) }
        let result = run(first + second, rule)
        #expect(result.violations.map(\.source.line) == [5, 10])
        #expect(result.violations.map(\.count) == [5, 6])
        #expect(result.violations.map(\.startTs) == [0, 10_000])
        #expect(result.violations.map(\.endTs) == [40, 10_050])
    }

    @Test func windowIsExclusiveAtItsFarEnd() {
        // ts_{i−N+1} must be > ts_i − window: exactly 2000 ms apart does not count.
        #expect(run([0, 500, 1000, 1500, 2000].map { haptic($0) }, rule).violations.isEmpty)
        #expect(run([1, 500, 1000, 1500, 2000].map { haptic($0) }, rule).violations.count == 1)
    }

    @Test func equalTimestampsFormABurst() {
        let result = run((0..<5).map { _ in haptic(1000) }, rule)
        #expect(result.violations.map(\.count) == [5])
    }

    @Test func prolongedHapticInsideABurstCountsInBoth() {
        var events = (0..<5).map { haptic(1000 + Int64($0)) }
        events[4] = haptic(1004, .custom, duration: 1501)
        let result = run(events, rule)
        #expect(result.violations.count == 2)
        #expect(Set(result.violations.map(\.source.line)) == [5])
        #expect(result.violations.map(\.count).sorted() == [1, 5])
    }

    @Test(arguments: [(1500.0, 0), (1500.01, 1)])
    func prolongedIsStrictlyLongerThanTheMaximum(duration: Double, violations: Int) {
        #expect(run([haptic(0, .custom, duration: duration)], rule).violations.count == violations)
    }

    @Test func parametersComeFromTheConfiguration() {
        let custom = only("haptic-overuse", ["burst_count": 3, "burst_window_ms": 100, "max_duration_ms": 10])
        let result = run([haptic(0), haptic(50), haptic(99), haptic(0 + 300, duration: 11)], custom)
        #expect(result.violations.map(\.source.line) == [3, 4])
    }
}

@Suite struct HapticMismatchRuleTests {
    let rule = only("haptic-mismatch")

    @Test(arguments: [(Int64(300), 1), (Int64(-300), 1), (Int64(301), 0), (Int64(-301), 0)])
    func successHapticNearAFailureInEitherDirection(offset: Int64, violations: Int) {
        let result = run([
            at(10_000, .outcome(result: .failure, task: nil)), haptic(10_000 + offset, .notificationSuccess),
        ], rule)
        #expect(result.violations.count == violations)
        if violations == 1 { #expect(result.violations.first?.source.line == 2) }
    }

    @Test func troubleHapticNearASuccessAndOnlyOncePerHaptic() {
        let result = run([
            haptic(1000, .notificationWarning), haptic(1100, .notificationError),
            at(1200, .outcome(result: .success, task: "save")), at(1250, .outcome(result: .success, task: "save")),
            haptic(1300, .notificationError),
        ], rule)
        #expect(result.violations.map(\.source.line).sorted() == [1, 2, 5])
        #expect(result.violations.allSatisfy { $0.startTs == $0.endTs })
    }

    @Test func matchingMeaningsDoNotViolate() {
        let result = run([
            haptic(1000, .notificationSuccess), at(1000, .outcome(result: .success, task: nil)),
            haptic(2000, .notificationError), at(2000, .outcome(result: .failure, task: nil)),
            haptic(3000, .notificationError), at(3000, .outcome(result: .warning, task: nil)),
        ], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func laterViolationKeepsTheHapticsOwnScreen() {
        let result = run([
            at(1000, .haptic(kind: .notificationSuccess, durationMs: nil), screen: "checkout"),
            at(1100, .outcome(result: .failure, task: nil), screen: "error"),
        ], rule)
        #expect(result.violations.map(\.screen) == ["checkout"])
    }
}

@Suite struct HapticDuringCaptureRuleTests {
    @Test func hapticOnlyWhileACaptureIsOpen() {
        let result = run([
            haptic(500),
            at(1000, .captureStart(source: .camera)),
            at(1100, .captureStart(source: .camera)),
            at(1200, .captureStop(source: .camera)),
            haptic(1300),
            at(1400, .captureStop(source: .camera)),
            haptic(1500),
            at(1600, .captureStop(source: .camera)),
            at(1700, .captureStart(source: .microphone)),
            haptic(1800),
        ], only("haptic-during-capture"))
        #expect(result.violations.map(\.source.line) == [5, 10])
    }

    @Test func detailNamesEveryCaptureRunning() {
        let result = run([
            at(1000, .captureStart(source: .camera)),
            haptic(1100),
            at(1200, .captureStart(source: .microphone)),
            haptic(1300, .impactLight),
            at(1400, .captureStop(source: .camera)),
            haptic(1500),
        ], only("haptic-during-capture"))
        #expect(result.violations.map(\.detail) == [
            "selection haptic while camera capture is running",
            "impact.light haptic while camera and microphone capture is running",
            "selection haptic while microphone capture is running",
        ])
    }
}

@Suite struct HapticWhenDisabledRuleTests {
    @Test func impactAndCustomHapticsWhenTheSettingIsOff() {
        let result = run([
            haptic(0, .impactLight),
            at(100, .sessionStart(SessionSettings(hapticsEnabled: false))),
            haptic(200, .impactSoft), haptic(300, .custom), haptic(400, .selection), haptic(500, .notificationError),
        ], only("haptic-when-disabled"))
        // The setting is the session's: the haptic that sorts before session.start is judged by it too.
        #expect(result.violations.map(\.source.line) == [1, 3, 4])
        #expect(result.violations.allSatisfy { $0.severity == .error })
    }

    @Test func withoutSessionStartHapticsAreEnabled() {
        #expect(run([haptic(0, .impactHeavy)], only("haptic-when-disabled")).violations.isEmpty)
    }
}
