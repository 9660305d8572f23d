import Testing
@testable import HIGAuditCore

/// A closed session's report lists its violations in `Violation.sessionOrder`, equal ones in the order
/// the rules found them. `sortInSessionOrder` sorts their places and moves each once; it must give
/// exactly what the stable sort it replaced gives.
@Suite struct ViolationSessionSortTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func sortsAsTheStableSortDid(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            // Few timestamps, rules and lines, so that ties at every level (and whole ties) are common.
            let violations = (0..<Int(random.next() % 40)).map { serial in
                Violation(
                    rule: ["haptic-overuse", "forced-tab-switch", "early-rating-prompt"][Int(random.next() % 3)],
                    severity: .warning, session: "s", screen: "screen", startTs: Int64(random.next() % 5),
                    endTs: 9, detail: "violation \(serial)",
                    source: SourceLocation(file: Int32(random.next() % 2), line: Int64(random.next() % 3)))
            }
            var sorted = violations
            sorted.sortInSessionOrder()
            let expected = violations.enumerated().sorted { a, b in
                if Violation.sessionOrder(a.element, b.element) { return true }
                if Violation.sessionOrder(b.element, a.element) { return false }
                return a.offset < b.offset
            }.map(\.element)
            #expect(sorted == expected)
        }
    }
}
