import Foundation
import Testing
@testable import HIGAuditCore

@Suite struct RuleRegistryTests {
    static var seedsFolder: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/seeds")
    }

    @Test func rulesAreListedOnceInIdOrder() {
        let ids = RuleRegistry.descriptions.map(\.identifier)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(ids.count == 11)
    }

    @Test func theRequiredSetIsSpecSection3() {
        let required = RuleRegistry.descriptions.filter(\.isRequired).map(\.identifier)
        #expect(required == [
            "destructive-double-tap", "forced-tab-switch", "haptic-overuse", "modal-depth", "modal-over-popover",
            "pencil-preference-ignored",
        ])
    }

    @Test(arguments: RuleRegistry.descriptions.map(\.identifier))
    func citationQuotesItsSeedVerbatim(identifier: String) throws {
        let description = try #require(RuleRegistry.description(of: identifier))
        let url = Self.seedsFolder.appendingPathComponent(description.citation.seedFile)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(description.citation.quote))
        #expect(!description.citation.guideline.isEmpty)
    }

    @Test(arguments: RuleRegistry.descriptions.map(\.identifier))
    func descriptionIsComplete(identifier: String) throws {
        let description = try #require(RuleRegistry.description(of: identifier))
        #expect(!description.triggeringExamples.isEmpty)
        #expect(!description.nonTriggeringExamples.isEmpty)
        #expect(description.triggeringExamples.allSatisfy { !$0.markedLineNumbers.isEmpty })
        #expect(description.nonTriggeringExamples.allSatisfy { $0.markedLineNumbers.isEmpty })
        for parameter in description.parameters {
            #expect(parameter.defaultValue >= parameter.minimum)
        }
        #expect(Set(description.parameters.map(\.name)).count == description.parameters.count)
    }

    @Test func disabledRulesDoNotRun() {
        var configuration = AuditConfiguration()
        configuration.rules["modal-over-popover"] = RuleSettings(enabled: false)
        let result = run([present(1, "p", .popover), present(2, "s", .formSheet)], configuration)
        #expect(result.violations.isEmpty)
        let engine = SessionEngine(configuration: configuration, onReport: { _ in })
        #expect(!engine.enabledRules.map(\.identifier).contains("modal-over-popover"))
        #expect(engine.enabledRules.count == 10)
    }

    /// Mid-stroke touches, most of a log, go to no rule; a touch's start and end only to the rules that
    /// asked for that phase. (`tab-state-lost` once wanted every event for its screens; it now reads
    /// them from the session context at tab switches.)
    @Test func touchesAreHandedOnlyToTheRulesThatWantTheirPhase() {
        let rules = ConfiguredRules(configuration: AuditConfiguration())
        func handed(_ phase: TouchPhase) -> Set<RuleSlot> {
            let event = Event(ts: 0, session: "s", payload: .touch(Touch(phase: phase, target: "tab:A")))
            let bits = rules.slots(for: event)
            return Set(RuleSlot.allCases.filter { bits & ConfiguredRules.bit($0) != 0 })
        }
        #expect(handed(.moved) == [])
        #expect(handed(.cancelled) == [])
        #expect(handed(.began) == [.destructiveDoubleTap])
        #expect(handed(.ended) == [.forcedTabSwitch])
        let tap = Event(ts: 0, session: "s", payload: .pencilDoubleTap(action: .system(.switchEraser)))
        let tapBits = rules.slots(for: tap)
        #expect(Set(RuleSlot.allCases.filter { tapBits & ConfiguredRules.bit($0) != 0 })
            == [.destructiveDoubleTap, .pencilPreferenceIgnored])
        let tabSwitch = Event(ts: 0, session: "s", payload: .tabSwitch(from: "tab:A", to: "tab:B"))
        let switchBits = rules.slots(for: tabSwitch)
        #expect(Set(RuleSlot.allCases.filter { switchBits & ConfiguredRules.bit($0) != 0 })
            == [.forcedTabSwitch, .tabStateLost])
    }

    @Test func parameterBelowItsMinimumIsRaisedToIt() {
        // burst_count 0 would make every haptic a burst of nothing; the rule uses the minimums (2, 1 ms).
        let result = run([haptic(0), haptic(0)], only("haptic-overuse", ["burst_count": 0, "burst_window_ms": -5]))
        #expect(result.violations.map(\.count) == [2])
    }

    @Test func ruleStatesRoundTripThroughCodable() throws {
        var states = RuleStates()
        var context = SessionContext(session: "s")
        let rule = HapticOveruseRule(configuration: AuditConfiguration())
        for ts in Int64(0)..<6 { rule.observe(haptic(ts), state: &states.hapticOveruse, in: &context) }
        let data = try JSONEncoder().encode(states)
        #expect(try JSONDecoder().decode(RuleStates.self, from: data) == states)
        let contextData = try JSONEncoder().encode(context)
        #expect(try JSONDecoder().decode(SessionContext.self, from: contextData) == context)
    }
}
