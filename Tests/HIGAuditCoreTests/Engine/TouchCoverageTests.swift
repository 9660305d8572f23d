import Foundation
import Testing
@testable import HIGAuditCore

/// SPEC §7 "Touch coverage" in the engine: a session's `touches` is its first `session.start` in `ts`
/// order (none: `all`); the rules resting on the absence of a touch do not judge a session without
/// every touch, the others do; and an importer's `synthetic` start is no launch.
@Suite struct TouchCoverageTests {
    static func start(_ ts: Int64, _ touches: TouchCoverage = .all, synthetic: Bool = false, session: String = "s") -> Event {
        at(ts, .sessionStart(SessionSettings(touches: touches, synthetic: synthetic)), session: session)
    }

    /// A session that breaks all three rules that need every touch, and haptic-overuse (which does not).
    static func offending(session: String = "s", from ts: Int64 = 100_000) -> [Event] {
        [
            at(ts, .tabSwitch(from: "tab:Home", to: "tab:Inbox"), session: session),
            at(ts + 100, .permissionRequest(permission: .camera, result: .denied), session: session),
            at(ts + 200, .pencilDoubleTap(action: .system(.switchEraser)), session: session),
            at(ts + 300, .contentMutation(action: .clear, object: nil, undoable: false), session: session),
        ] + (0..<5).map { haptic(ts + 400 + Int64($0), session: session) }
    }

    static let needingEveryTouch: Set<String> = ["forced-tab-switch", "unprompted-permission-request", "destructive-double-tap"]

    @Test func theThreeRulesNeedEveryTouchAndNoOthers() {
        #expect(Set(RuleRegistry.descriptions.filter(\.needsEveryTouch).map(\.identifier)) == Self.needingEveryTouch)
    }

    @Test(arguments: [TouchCoverage.sampled, .none])
    func partialCoverageDropsOnlyTheRulesNeedingEveryTouch(_ coverage: TouchCoverage) {
        let result = run([Self.start(0, coverage)] + Self.offending())
        #expect(Set(result.violations.map(\.rule)) == ["haptic-overuse"])
        #expect(result.report("s")?.touches == coverage)
    }

    @Test func fullCoverageExplicitOrImpliedJudgesEverything() {
        for events in [[Self.start(0, .all)] + Self.offending(), Self.offending()] {
            let rules = Set(run(events).violations.map(\.rule))
            #expect(rules == Self.needingEveryTouch.union(["haptic-overuse"]))
            #expect(run(events).report("s")?.touches == .all)
        }
    }

    @Test func sessionsAreJudgedEachByItsOwnCoverage() {
        let result = run(
            [Self.start(0, .sampled, session: "a"), Self.start(0, .all, session: "b")]
                + Self.offending(session: "a") + Self.offending(session: "b") + Self.offending(session: "c"))
        #expect(!result.report("a")!.violations.contains { Self.needingEveryTouch.contains($0.rule) })
        #expect(result.report("b")!.violations.contains { $0.rule == "forced-tab-switch" })
        #expect(result.report("c")!.violations.contains { $0.rule == "forced-tab-switch" })
    }

    /// The first `session.start` in `ts` order says, even when it is read after a later one and after
    /// the violation it un-judges.
    @Test func theFirstStartInTsOrderSaysEvenWhenReadLate() {
        let events = Self.offending(from: 10_000) + [Self.start(4_000, .all), Self.start(3_000, .none)]
        let result = run(events, AuditConfiguration(maxLatenessMs: 10_000))
        #expect(result.late.isEmpty)
        #expect(result.report("s")?.touches == TouchCoverage.none)
        #expect(Set(result.violations.map(\.rule)) == ["haptic-overuse"])

        let reversed = Self.offending(from: 10_000) + [Self.start(3_000, .all), Self.start(4_000, .none)]
        #expect(run(reversed).report("s")?.touches == .all)
        #expect(run(reversed).violations.contains { $0.rule == "forced-tab-switch" })
    }

    @Test func aSyntheticStartGivesNoRestoreGrace() {
        let switching = at(500, .tabSwitch(from: "tab:Home", to: "tab:Inbox"))
        #expect(run([Self.start(0), switching], only("forced-tab-switch")).violations.isEmpty)
        #expect(run([Self.start(0, synthetic: true), switching], only("forced-tab-switch")).violations.count == 1)
        // A real launch after a synthetic start is the launch.
        let later = at(10_500, .tabSwitch(from: "tab:Inbox", to: "tab:Home"))
        #expect(run([Self.start(0, synthetic: true), Self.start(10_000), later], only("forced-tab-switch")).violations.isEmpty)
    }

    @Test func aSyntheticStartIsNoLaunchForSlowLaunch() {
        let ready = at(9_000, .appReady)
        #expect(run([Self.start(0), ready], only("slow-launch")).violations.count == 1)
        #expect(run([Self.start(0, synthetic: true), ready], only("slow-launch")).violations.isEmpty)
    }

    @Test func aSyntheticStartLeavesOnlyRepeatedRatingPrompts() {
        let prompts = [at(1_000, .ratingPrompt), at(2_000, .ratingPrompt)]
        #expect(run([Self.start(0)] + prompts, only("early-rating-prompt")).violations.map(\.count) == [1, 2])
        #expect(run([Self.start(0, synthetic: true)] + prompts, only("early-rating-prompt")).violations.map(\.count) == [2])
    }

    @Test func checkpointAndResumeKeepCoverageAndLaunch() throws {
        let events = CheckpointTests.numbered(
            [Self.start(0, .sampled, synthetic: true)] + Self.offending(from: 1_000) + [at(1_600, .appReady)])
        let whole = run(events, AuditConfiguration())
        for cut in 1..<events.count {
            let resumed = CheckpointTests.runInBatches(events, cuts: [cut], AuditConfiguration())
            #expect(resumed == whole.reports, "cut at \(cut)")
        }
        #expect(whole.report("s")?.touches == .sampled)
        #expect(!whole.violations.contains { $0.rule == "slow-launch" || $0.rule == "forced-tab-switch" })
    }

    @Test func checkpointsWrittenBeforeCoverageReadAsFullCoverageAndALaunch() throws {
        // No lateness: the start goes to the rules at once, so the context holds it.
        let engine = SessionEngine(configuration: AuditConfiguration(maxLatenessMs: 0)) { _ in }
        engine.ingest(Self.start(0))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var json = String(decoding: try encoder.encode(engine.checkpoint()), as: UTF8.self)
        #expect(json.contains(#""touches":"all""#) && json.contains(#""launchTs":0"#))
        for pattern in [#","touches":"all""#, #","synthetic":false"#, #""launchTs":0,"#] {
            json = json.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        #expect(!json.contains("touches") && !json.contains("synthetic") && !json.contains("launchTs"))
        let old = try JSONDecoder().decode(EngineCheckpoint.self, from: Data(json.utf8))
        let context = try #require(old.sessions.first?.context)
        #expect(context.settings.touches == .all && !context.settings.synthetic)
        #expect(context.launchTs == 0)
    }
}
