import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// What makes `--fail-on` of `analyze`, `query`, `nightly` and `export` end with its own exit status.
enum NewViolationGate: String, ExpressibleByArgument, CaseIterable {
    /// Any violation's `(rule, screen)` pair is missing from the `--baseline` file.
    case new
}

/// `--baseline FILE` and `--fail-on new` of `analyze`, `query`, `nightly` and `export` (SPEC §6): label
/// each violation known or new against a committed baseline, and gate a CI job on the new ones only.
struct BaselineOptions: ParsableArguments {
    init() {}

    /// `dashboard`'s `--baseline`, which has no gate.
    init(baseline: String?) {
        self.baseline = baseline
    }

    @Option(
        help: ArgumentHelp(
            "A baseline written by `hig-audit baseline`: a violation whose (rule, screen) pair is in it is known, any other new. Adds new_violations to summary and a new column to violations; counts do not change.",
            valueName: "file"))
    var baseline: String?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("After writing every output, exit with status 5 when any violation is new (needs --baseline).", valueName: "new"))
    var failOn: NewViolationGate?

    func validate() throws {
        if failOn != nil, baseline == nil {
            throw ValidationError("--fail-on new needs --baseline FILE: new means missing from a baseline (write one with `hig-audit baseline --out FILE`).")
        }
    }

    /// The file as `ResolvedInputs` checks it against the outputs.
    var readFiles: [ReadFile] { baseline.map { [ReadFile(what: "the baseline (--baseline)", path: $0)] } ?? [] }

    /// The baseline, read before any input: a missing or invalid file is fatal (1).
    func load() throws(FatalError) -> Baseline? {
        guard let baseline else { return nil }
        do {
            return try BaselineFile.read(baseline)
        } catch {
            throw FatalError(error.description)
        }
    }
}

/// A run's tables as read against a baseline, and the `--fail-on new` verdict over them.
struct BaselineMarking {
    let baseline: Baseline
    /// The run's `by_screen` table: every counted violation once, by screen and rule.
    let byScreen: Table

    func marked(_ table: Table) -> Table { baseline.marking(table, byScreen: byScreen) }

    /// The new violations per rule, rules with none left out, in rule-id order.
    var newByRule: [(rule: String, violations: Int64)] {
        baseline.newViolationsByRule(byScreen: byScreen).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `worseVerdict` (5) when the gate is asked for and a violation is new, else `status`; a fatal
    /// status is never lowered, and skipped input (3) yields to the gate (SPEC §5's order).
    func status(after status: Int32, gate: NewViolationGate?, verbosity: Verbosity) -> Int32 {
        guard gate == .new, status == ExitStatus.success || status == ExitStatus.skippedInput else { return status }
        let newRules = newByRule
        guard !newRules.isEmpty else { return status }
        if verbosity.saysNotes {
            let list = newRules.map { "\($0.rule) (\($0.violations))" }.joined(separator: ", ")
            StandardError.write("hig-audit: new violations (--fail-on new): \(list)\n")
        }
        return ExitStatus.worseVerdict
    }
}
