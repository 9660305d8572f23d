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
        #expect(ids.count == RuleStates.registeredCount)
    }

    /// `RuleStates.visitAll` is the registry: a rule whose state property has no line there (or a line
    /// out of place) would never run. Its properties, in declaration order, must be the visited rules'
    /// checkpoint keys in visiting order.
    @Test func everyRuleStateIsVisitedInIdOrder() {
        let properties = Mirror(reflecting: RuleStates()).children.compactMap(\.label)
        #expect(properties == RuleRegistry.descriptions.map { RuleStates.codingKey(for: $0.identifier) })
    }

    @Test func theLaunchRulesAreRegistered() {
        let ids = Set(RuleRegistry.descriptions.map(\.identifier))
        for id in ["slow-launch", "unprompted-permission-request", "early-rating-prompt", "widget-placeholder"] {
            #expect(ids.contains(id), "\(id)")
        }
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
        #expect(engine.enabledRules.count == RuleRegistry.descriptions.count - 1)
    }

    /// Mid-stroke touches, most of a log, go to no rule; a touch's start and end only to the rules that
    /// asked for that phase. (`tab-state-lost` once wanted every event for its screens; it now reads
    /// them from the session context at tab switches.)
    @Test func touchesAreHandedOnlyToTheRulesThatWantTheirPhase() {
        let rules = ConfiguredRules(configuration: AuditConfiguration())
        func handed(_ payload: EventPayload) -> Set<String> {
            let bits = rules.slots(for: Event(ts: 0, session: "s", payload: payload))
            return Set(RuleRegistry.descriptions.indices.filter { bits & (1 << UInt32($0)) != 0 }
                .map { RuleRegistry.descriptions[$0].identifier })
        }
        func touch(_ phase: TouchPhase) -> EventPayload { .touch(Touch(phase: phase, target: "tab:A")) }
        #expect(handed(touch(.moved)) == [])
        #expect(handed(touch(.cancelled)) == [])
        #expect(handed(touch(.began)) == ["destructive-double-tap"])
        #expect(handed(touch(.ended)) == ["forced-tab-switch", "unprompted-permission-request"])
        #expect(handed(.pencilDoubleTap(action: .system(.switchEraser)))
            == ["destructive-double-tap", "pencil-preference-ignored"])
        #expect(handed(.tabSwitch(from: "tab:A", to: "tab:B")) == ["forced-tab-switch", "tab-state-lost"])
        #expect(handed(.appReady) == ["slow-launch"])
        #expect(handed(.permissionRequest(permission: .camera, result: nil)) == ["unprompted-permission-request"])
        #expect(handed(.ratingPrompt) == ["early-rating-prompt"])
        #expect(handed(.widgetDisplay(widget: "w", content: .fresh, loadMs: nil)) == ["widget-placeholder"])
        #expect(handed(.sessionEnd) == [])
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

    /// A checkpoint written by the version with eleven rules has no keys for the four launch rules'
    /// states: those start from their initial state, the others are read as written.
    @Test func ruleStatesFromBeforeTheLaunchRulesDecodeWithInitialStates() throws {
        var states = RuleStates()
        var context = SessionContext(session: "s")
        let rule = HapticOveruseRule(configuration: AuditConfiguration())
        for ts in Int64(0)..<6 { rule.observe(haptic(ts), state: &states.hapticOveruse, in: &context) }
        let data = try JSONEncoder().encode(states)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.count == RuleRegistry.descriptions.count)
        for key in ["slowLaunch", "unpromptedPermissionRequest", "earlyRatingPrompt", "widgetPlaceholder"] {
            #expect(object.removeValue(forKey: key) != nil, "\(key)")
        }
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(RuleStates.self, from: old) == states)
        #expect(try JSONDecoder().decode(RuleStates.self, from: Data("{}".utf8)) == RuleStates())
    }
}
