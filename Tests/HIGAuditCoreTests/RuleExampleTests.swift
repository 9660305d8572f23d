import Testing
@testable import HIGAuditCore

// Lives here until the sample generator brings its own tests: checks the example markers all rule
// tests rely on.
@Suite struct RuleExampleMarkerTests {
    @Test func markersAreStrippedAndNumbered() {
        let example = RuleExample(["{\"a\":1}", "↓{\"b\":2}", "{\"c\":3}"])
        #expect(example.logLines == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        #expect(example.markedLineNumbers == [2])
    }
}
