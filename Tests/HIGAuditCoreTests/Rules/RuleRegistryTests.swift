import Foundation
import Testing
@testable import HIGAuditCore

@Suite struct RuleRegistryTests {
    /// The contract's background texts, beside the repository (`../shared/seeds`) where the project's
    /// developers and CI have them; a clone on its own does not.
    static var seedsFolder: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/seeds")
    }

    static var seedsArePresent: Bool { FileManager.default.fileExists(atPath: seedsFolder.path) }

    static var rulesFolder: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/HIGAuditCore/Rules")
    }

    @Test func rulesAreListedOnceInIdOrder() {
        let ids = RuleRegistry.descriptions.map(\.identifier)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    /// A rule's `identifier` (what reports name) is its description's (what the config and tables use).
    @Test func everyRuleReportsUnderItsDescribedIdentifier() {
        for rule in RegisteredRules.collect() { #expect(rule.identifier == rule.describedIdentifier, "\(rule.typeName)") }
    }

    /// `RuleStates.visitAll` is the registry: a rule whose state property has no line there (or a line
    /// out of place) would never run. Its properties, in declaration order, must be the visited rules'
    /// checkpoint keys in visiting order.
    @Test func everyRuleStateIsVisitedInIdOrder() {
        let properties = Mirror(reflecting: RuleStates()).children.compactMap(\.label)
        #expect(properties == RuleRegistry.descriptions.map { RuleStates.codingKey(for: $0.identifier) })
    }

    /// Each rule's value has a property in `RuleValueSet` named as its state, in the same order, and the
    /// key path `visitAll` hands a visitor reads that rule's configured value from a set.
    @Test func everyRuleValueIsVisitedInIdOrder() {
        let values = RuleValues(configuration: AuditConfiguration(
            rules: ["haptic-overuse": RuleSettings(parameters: ["burst_count": 7])]))
        let properties = Mirror(reflecting: values.storage.pointee).children.compactMap(\.label)
        #expect(properties == RuleRegistry.descriptions.map { RuleStates.codingKey(for: $0.identifier) })
        #expect(values.storage.pointee.hapticOveruse.count == 7)
        var reader = BurstCountReader(values: values.storage)
        var states = RuleStates()
        states.visitAll(&reader)
        #expect(reader.burstCount == 7)
    }

    /// A rule written but left out of `RuleStates` would never run: every `…Rule.swift` under
    /// `Rules/` declares a registered rule of that name.
    @Test func everyRuleFileIsRegistered() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.rulesFolder.path))
        let ruleFiles = files.compactMap { $0 as? String }.filter { $0.hasSuffix("Rule.swift") }
            .map { String($0.split(separator: "/").last!.dropLast(".swift".count)) }
        #expect(!ruleFiles.isEmpty)
        #expect(Set(ruleFiles) == Set(RegisteredRules.collect().map(\.typeName)))
    }

    @Test func theRequiredSetIsSpecSection3() {
        let required = RuleRegistry.descriptions.filter(\.isRequired).map(\.identifier)
        #expect(required == [
            "destructive-double-tap", "forced-tab-switch", "haptic-overuse", "modal-depth", "modal-over-popover",
            "pencil-preference-ignored",
        ])
    }

    /// A rule's origin quotes its seed word for word, so where a rule came from stays checkable.
    @Test(
        .enabled(if: seedsArePresent, "needs the contract's seed texts in ../shared/seeds (the developers' and CI's checkout)"),
        arguments: RuleRegistry.descriptions.map(\.identifier))
    func originQuotesItsSeedVerbatim(identifier: String) throws {
        let description = try #require(RuleRegistry.description(of: identifier))
        let url = Self.seedsFolder.appendingPathComponent(description.citation.origin.file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(description.citation.origin.quote))
    }

    /// What users see cites the public page of Apple's Human Interface Guidelines that states the
    /// guideline (SPEC "Guideline sources"), with one English sentence of our own.
    @Test(arguments: RuleRegistry.descriptions.map(\.identifier))
    func citesAnAppleGuidelinesPageInEnglish(identifier: String) throws {
        let citation = try #require(RuleRegistry.description(of: identifier)).citation
        #expect(citation.page.url == "https://developer.apple.com/design/human-interface-guidelines/" + citation.page.rawValue)
        #expect(!citation.page.title.isEmpty)
        let sentence = citation.guideline
        #expect(sentence.first?.isUppercase == true && sentence.hasSuffix("."), "\(sentence)")
        #expect(sentence.filter { $0 == "." }.count == 1, "one sentence: \(sentence)")
        #expect(sentence.unicodeScalars.allSatisfy { $0.isASCII }, "English, in plain ASCII: \(sentence)")
        #expect(sentence != citation.origin.quote)
    }

    /// The pages SPEC "Guideline sources" lists are the ones cited, each by at least one rule.
    @Test func everyListedPageIsCited() {
        let cited = Set(RuleRegistry.descriptions.map(\.citation.page))
        #expect(cited == Set(GuidelinePage.allCases))
        #expect(GuidelinePage.allCases.map(\.rawValue).sorted() == [
            "apple-pencil-and-scribble", "launching", "loading", "modality", "playing-haptics", "popovers", "privacy",
            "ratings-and-reviews", "tab-bars", "widgets",
        ])
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

    /// Each event, by kind (touches by phase), is handed to exactly the enabled rules whose `interests`
    /// contain it: with every rule enabled, and with each one disabled in turn.
    @Test(arguments: [nil] + RuleRegistry.descriptions.map(\.identifier))
    func everyRuleIsHandedWhatItDeclaresAndNothingElse(disabled: String?) {
        var configuration = AuditConfiguration()
        if let disabled { configuration.rules[disabled] = RuleSettings(enabled: false) }
        let rules = ConfiguredRules(configuration: configuration)
        let registered = RegisteredRules.collect()
        func handed(_ payload: EventPayload) -> [String] {
            let bits = rules.slots(for: Event(ts: 0, session: "s", payload: payload))
            return registered.indices.filter { bits & (1 << UInt32($0)) != 0 }.map { registered[$0].identifier }
        }
        func declaring(_ wants: (EventKindSet) -> Bool) -> [String] {
            registered.filter { $0.identifier != disabled && wants($0.interests) }.map(\.identifier)
        }
        for kind in EventKind.allCases where kind != .touch {
            #expect(handed(Self.payload(of: kind)) == declaring { $0.contains(kind) }, "\(kind)")
        }
        for phase in TouchPhase.allCases {
            #expect(handed(.touch(Touch(phase: phase, target: "tab:A"))) == declaring { $0.contains(touchesIn: phase) }, "\(phase)")
        }
    }

    /// Touches in mid-stroke, most of a log, go to no rule.
    @Test func movedTouchesGoToNoRule() {
        #expect(RegisteredRules.collect().allSatisfy { !$0.interests.contains(touchesIn: .moved) })
    }

    /// An event of each kind (the switch fails to compile when a kind is added).
    static func payload(of kind: EventKind) -> EventPayload {
        switch kind {
        case .sessionStart: .sessionStart(.defaults)
        case .sessionEnd: .sessionEnd
        case .touch: .touch(Touch(phase: .ended, target: "tab:A"))
        case .pencilDoubleTap: .pencilDoubleTap(action: .system(.switchEraser))
        case .haptic: .haptic(kind: .selection, durationMs: nil)
        case .outcome: .outcome(result: .success, task: nil)
        case .tabSwitch: .tabSwitch(from: "tab:A", to: "tab:B")
        case .navPush: .navPush(to: "detail")
        case .navPop: .navPop(to: "root")
        case .modalPresent: .modalPresent(modal: "m", style: .formSheet)
        case .modalDismiss: .modalDismiss(modal: "m")
        case .contentMutation: .contentMutation(action: .delete, object: nil, undoable: true)
        case .loadingStart: .loadingStart(id: "l", indicator: .none)
        case .loadingEnd: .loadingEnd(id: "l")
        case .captureStart: .captureStart(source: .camera)
        case .captureStop: .captureStop(source: .camera)
        case .appReady: .appReady
        case .permissionRequest: .permissionRequest(permission: .camera, result: nil)
        case .ratingPrompt: .ratingPrompt
        case .widgetDisplay: .widgetDisplay(widget: "w", content: .fresh, loadMs: nil)
        }
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

    /// A checkpoint written before the four launch rules has no keys for their states: those start
    /// from their initial state, the others are read as written.
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

/// The registered rules as `RuleStates.visitAll` hands them over, in dispatch-bit order.
private struct RegisteredRules: RuleVisitor {
    struct Entry {
        var identifier: String
        var describedIdentifier: String
        var typeName: String
        var interests: EventKindSet
    }

    var entries: [Entry] = []

    static func collect() -> [Entry] {
        var visitor = RegisteredRules()
        var states = RuleStates()
        states.visitAll(&visitor)
        return visitor.entries
    }

    mutating func visit<Rule: SessionRule>(
        _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
    ) {
        entries.append(Entry(
            identifier: Rule.identifier, describedIdentifier: Rule.description.identifier, typeName: String(describing: Rule.self), interests: Rule.interests))
    }
}

/// Reads `haptic-overuse`'s configured `burst_count` through the key path `visitAll` hands over.
private struct BurstCountReader: RuleVisitor {
    let values: UnsafePointer<RuleValueSet>
    var burstCount: Int?

    init(values: UnsafeMutablePointer<RuleValueSet>) { self.values = UnsafePointer(values) }

    mutating func visit<Rule: SessionRule>(
        _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
    ) {
        let offset = RuleValueSet.offset(of: value)
        let read = (UnsafeRawPointer(values) + offset).assumingMemoryBound(to: Rule.self).pointee
        #expect(offset == MemoryLayout<RuleValueSet>.offset(of: value))
        if let overuse = read as? HapticOveruseRule { burstCount = overuse.count }
    }
}
