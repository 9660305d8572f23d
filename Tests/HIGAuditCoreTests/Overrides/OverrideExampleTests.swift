import Testing
@testable import HIGAuditCore

/// Overrides (SPEC §6) tried on every rule's own examples: the example's events put on a screen, and an
/// override for that screen changes the verdict, while the same override leaves the same events on a
/// screen it does not match as they were.
@Suite struct OverrideExampleTests {
    /// `enabled: false` on the screens where a triggering example's violations are recorded silences
    /// them all, and the same entry for other screens changes nothing; an example run on another
    /// screen than the entry's is judged as without it. For every rule and every triggering example.
    @Test(arguments: RuleExampleCase.all.filter(\.triggering))
    func turningTheRuleOffOnTheExamplesScreenSilencesItThereOnly(_ exampleCase: RuleExampleCase) {
        let example = exampleCase.example
        let onCanvas = overrideEvents(example, screen: "Canvas/Board")
        let plain = only(exampleCase.rule, example.parameters)
        let found = run(onCanvas, plain)
        #expect(found.violations.map(\.source.line).sorted() == example.markedLineNumbers)

        let patterns = Set(found.violations.map(\.screen)).map { $0 == "Canvas/Board" ? "Canvas/*" : $0 }.sorted()
        let off = ScreenOverride(screens: patterns.map(ScreenGlob.init), rules: [exampleCase.rule: RuleSettings(enabled: false)])
        var silenced = plain
        silenced.overrides = [off]
        #expect(run(onCanvas, silenced).violations.isEmpty, "screens \(patterns)")

        var elsewhere = plain
        elsewhere.overrides = [ScreenOverride(screens: [ScreenGlob("Elsewhere/*")], rules: off.rules)]
        #expect(run(onCanvas, elsewhere).violations == found.violations)

        // The same events on a screen the entry does not match still trigger.
        let onLibrary = overrideEvents(example, screen: "Library")
        var canvasOnly = plain
        canvasOnly.overrides = [ScreenOverride(screens: [ScreenGlob("Canvas/*")], rules: off.rules)]
        let unmatched = run(onLibrary, canvasOnly)
        if !patterns.contains("Canvas/*") { return }  // the example names its own screens (tab-state-lost)
        #expect(unmatched.violations.map(\.source.line).sorted() == example.markedLineNumbers)
    }

    /// One parameter of one rule set on a screen by an override, with the example whose verdict it changes.
    struct ParameterCase: Sendable, CustomTestStringConvertible {
        var rule: String
        var triggering: Bool
        /// 1-based, as the example tests name them.
        var example: Int
        var parameter: String
        var value: Int64
        /// The lines that violate with the override applied.
        var marked: [Int64]

        var testDescription: String {
            "\(rule).\(parameter): \(value) on \(triggering ? "triggering" : "non-triggering") #\(example)"
        }

        var lines: RuleExample {
            let description = RuleRegistry.description(of: rule)!
            return (triggering ? description.triggeringExamples : description.nonTriggeringExamples)[example - 1]
        }
    }

    static let parameterCases: [ParameterCase] = [
        // Raising a threshold (or narrowing a window) on the screen silences a triggering example…
        ParameterCase(rule: "destructive-double-tap", triggering: true, example: 1, parameter: "window_ms", value: 499, marked: []),
        ParameterCase(rule: "early-rating-prompt", triggering: true, example: 1, parameter: "min_session_ms", value: 59_999, marked: []),
        ParameterCase(rule: "forced-tab-switch", triggering: true, example: 2, parameter: "user_window_ms", value: 1001, marked: []),
        ParameterCase(rule: "forced-tab-switch", triggering: true, example: 4, parameter: "restore_grace_ms", value: 2001, marked: []),
        ParameterCase(rule: "haptic-mismatch", triggering: true, example: 1, parameter: "window_ms", value: 299, marked: []),
        ParameterCase(rule: "haptic-overuse", triggering: true, example: 1, parameter: "burst_count", value: 7, marked: []),
        ParameterCase(rule: "haptic-overuse", triggering: true, example: 1, parameter: "burst_window_ms", value: 400, marked: []),
        ParameterCase(rule: "haptic-overuse", triggering: true, example: 3, parameter: "max_duration_ms", value: 1501, marked: []),
        ParameterCase(rule: "loading-without-indicator", triggering: true, example: 1, parameter: "max_ms", value: 1001, marked: []),
        ParameterCase(rule: "modal-depth", triggering: true, example: 1, parameter: "max_depth", value: 3, marked: []),
        ParameterCase(rule: "slow-launch", triggering: true, example: 2, parameter: "max_ms", value: 101, marked: []),
        ParameterCase(rule: "unprompted-permission-request", triggering: true, example: 2, parameter: "user_window_ms", value: 2001, marked: []),
        ParameterCase(rule: "widget-placeholder", triggering: true, example: 2, parameter: "max_load_ms", value: 1001, marked: []),
        // … and the other way makes a non-triggering one trigger.
        ParameterCase(rule: "destructive-double-tap", triggering: false, example: 1, parameter: "window_ms", value: 501, marked: [2]),
        ParameterCase(rule: "haptic-mismatch", triggering: false, example: 1, parameter: "window_ms", value: 301, marked: [2]),
        ParameterCase(rule: "haptic-overuse", triggering: false, example: 1, parameter: "burst_window_ms", value: 2001, marked: [5]),
        ParameterCase(rule: "haptic-overuse", triggering: false, example: 2, parameter: "max_duration_ms", value: 1499, marked: [1]),
        ParameterCase(rule: "loading-without-indicator", triggering: false, example: 1, parameter: "max_ms", value: 999, marked: [1]),
        ParameterCase(rule: "modal-depth", triggering: false, example: 2, parameter: "max_depth", value: 1, marked: [2, 5]),
        ParameterCase(rule: "slow-launch", triggering: false, example: 1, parameter: "max_ms", value: 1999, marked: [2]),
        ParameterCase(rule: "unprompted-permission-request", triggering: false, example: 1, parameter: "user_window_ms", value: 1999, marked: [2, 3]),
        ParameterCase(rule: "widget-placeholder", triggering: false, example: 1, parameter: "max_load_ms", value: 999, marked: [1]),
    ]

    @Test(arguments: parameterCases)
    func aParameterOverriddenOnTheExamplesScreenChangesItsVerdictThereOnly(_ parameterCase: ParameterCase) {
        let example = parameterCase.lines
        let plain = only(parameterCase.rule, example.parameters)
        var overridden = plain
        overridden.overrides = [ScreenOverride(
            screens: [ScreenGlob("Canvas/*")],
            rules: [parameterCase.rule: RuleSettings(parameters: [parameterCase.parameter: parameterCase.value])])]

        let onCanvas = overrideEvents(example, screen: "Canvas/Board")
        #expect(run(onCanvas, overridden).violations.map(\.source.line).sorted() == parameterCase.marked)
        let onLibrary = overrideEvents(example, screen: "Library")
        #expect(run(onLibrary, overridden).violations.map(\.source.line).sorted() == example.markedLineNumbers)
        #expect(run(onCanvas, plain).violations.map(\.source.line).sorted() == example.markedLineNumbers)
    }

    /// Every parameter of every rule has a case above.
    @Test func everyParameterIsTried() {
        let tried = Set(Self.parameterCases.map { "\($0.rule).\($0.parameter)" })
        for description in RuleRegistry.descriptions {
            for parameter in description.parameters {
                #expect(tried.contains("\(description.identifier).\(parameter.name)"))
            }
        }
    }
}

/// The example's events, each without a `screen` of its own put on `screen`, numbered as its lines.
func overrideEvents(_ example: RuleExample, screen: String) -> [Event] {
    var decoder = EventDecoder()
    return example.logLines.enumerated().map { offset, line in
        let placed = line.contains(#""screen":"#) ? line : #"{"screen":"\#(screen)","# + line.dropFirst()
        guard case .event(var event) = decoder.decode(placed) else {
            preconditionFailure("line \(offset + 1) of the example is not an event: \(placed)")
        }
        event.source = SourceLocation(file: 0, line: Int64(offset + 1))
        return event
    }
}
