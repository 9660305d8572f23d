/// The planted ground truth of one session, folded into its version's `VersionTally`.
struct SessionTally {
    var opportunities = [Int](repeating: 0, count: InjectedProblem.allCases.count)
    var injections = [Int](repeating: 0, count: InjectedProblem.allCases.count)
    var ruleViolations = [Int](repeating: 0, count: sampleRuleIDs.count)

    mutating func opportunity(_ problem: InjectedProblem) {
        opportunities[problem.rawValue] += 1
    }

    /// Records an injection and the violation(s) it must cause, one per listed rule id.
    mutating func injected(_ problem: InjectedProblem, violating rules: [String]) {
        injections[problem.rawValue] += 1
        for rule in rules {
            if let index = sampleRuleIDs.firstIndex(of: rule) { ruleViolations[index] += 1 }
        }
    }

    func fold(into tally: inout VersionTally, events: Int) {
        tally.sessions += 1
        tally.events += events
        for i in opportunities.indices {
            tally.opportunities[i] += opportunities[i]
            tally.injections[i] += injections[i]
        }
        for i in ruleViolations.indices where ruleViolations[i] > 0 {
            tally.ruleViolations[i] += ruleViolations[i]
            tally.ruleSessionsAffected[i] += 1
        }
    }
}
