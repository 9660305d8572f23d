import Testing
@testable import HIGAuditCore

/// One example of one registered rule, as a test argument.
struct RuleExampleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var triggering: Bool
    var index: Int
    var example: RuleExample

    var testDescription: String { "\(rule) \(triggering ? "triggering" : "non-triggering") #\(index + 1)" }

    static var all: [RuleExampleCase] {
        RuleRegistry.descriptions.flatMap { description in
            description.triggeringExamples.enumerated().map {
                RuleExampleCase(rule: description.identifier, triggering: true, index: $0.offset, example: $0.element)
            } + description.nonTriggeringExamples.enumerated().map {
                RuleExampleCase(rule: description.identifier, triggering: false, index: $0.offset, example: $0.element)
            }
        }
    }
}

/// The rules' examples: every example of every registered rule, decoded line by line and run through
/// the engine with only that rule enabled, where the marked lines, and only they, are violation
/// sources, once each (adding a rule adds its tests, as SwiftLint's generic example test does); and
/// the marker syntax those examples are written in.
@Suite struct RuleExampleTests {
    @Test func markersAreStrippedAndNumbered() {
        let example = RuleExample(["{\"a\":1}", "↓{\"b\":2}", "{\"c\":3}"])
        #expect(example.logLines == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        #expect(example.markedLineNumbers == [2])
    }

    @Test(arguments: RuleExampleCase.all)
    func exampleViolatesExactlyAtItsMarkedLines(_ exampleCase: RuleExampleCase) {
        let example = exampleCase.example
        let location = Testing.SourceLocation(
            fileID: "HIGAuditCore/\(example.file.split(separator: "/").last ?? "")",
            filePath: example.file, line: Int(example.line), column: 1
        )
        var decoder = EventDecoder()
        var events: [Event] = []
        for (offset, line) in example.logLines.enumerated() {
            guard case .event(var event) = decoder.decode(line) else {
                Issue.record("line \(offset + 1) of the example is not an accepted event: \(line)", sourceLocation: location)
                return
            }
            event.source = HIGAuditCore.SourceLocation(file: 0, line: Int64(offset + 1))
            events.append(event)
        }
        let result = run(events, only(exampleCase.rule, example.parameters))
        #expect(result.statistics.lateEvents == 0, sourceLocation: location)
        #expect(result.violations.allSatisfy { $0.rule == exampleCase.rule }, sourceLocation: location)
        #expect(
            result.violations.map(\.source.line).sorted() == example.markedLineNumbers,
            "violations: \(result.violations.map(\.detail))", sourceLocation: location
        )
    }
}
