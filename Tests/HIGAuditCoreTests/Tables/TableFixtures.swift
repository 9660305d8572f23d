@testable import HIGAuditCore

/// Small rule descriptions and session reports for the table tests (the real rules live elsewhere;
/// the tables only need ids and severities).
enum TableFixtures {
    static func rule(
        _ id: String, _ severity: Severity = .warning, parameters: [RuleParameter] = [], needsEveryTouch: Bool = false
    ) -> RuleDescription {
        RuleDescription(
            identifier: id, name: id, summary: "Summary of \(id).", severity: severity,
            citation: GuidelineCitation(
                page: .playingHaptics, guideline: "Guideline.", origin: SeedOrigin(file: "001_a5135006b5b70e41.txt", quote: "Quote")
            ),
            parameters: parameters, triggeringExamples: [], nonTriggeringExamples: [], needsEveryTouch: needsEveryTouch
        )
    }

    static let rules = [rule("modal-depth"), rule("forced-tab-switch", .error, needsEveryTouch: true), rule("haptic-overuse")]

    static func violation(
        _ rule: String, session: String = "s1", screen: String = "home", start: Int64 = 1000, end: Int64? = nil,
        severity: Severity = .warning, file: Int32 = 0, line: Int64 = 1, detail: String = "detail"
    ) -> Violation {
        Violation(
            rule: rule, severity: severity, session: session, screen: screen, startTs: start, endTs: end ?? start,
            detail: detail, source: SourceLocation(file: file, line: line)
        )
    }

    static func report(
        _ session: String, device: String = "dev", version: String = "5.2", first: Int64 = 0, last: Int64 = 60_000,
        events: Int = 10, haptics: [HapticKind: Int] = [:], violations: [Violation] = [], touches: TouchCoverage = .all
    ) -> SessionReport {
        SessionReport(
            session: session, device: device, appVersion: version, firstTs: first, lastTs: last,
            acceptedEvents: events, hapticCounts: haptics, violations: violations.sorted(by: Violation.sessionOrder),
            touches: touches
        )
    }

    static func texts(_ table: Table) -> [[String]] {
        table.materializedRows.map { $0.map(\.plainText) }
    }
}
