import ArgumentParser
import HIGAuditCore
import HIGAuditIO
import HIGAuditStore

/// `hig-audit compare`: two releases side by side, rule by rule, with a significance test.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two app versions rule by rule: rates per 1,000 sessions and whether the change is beyond noise.",
        discussion: """
            For each rule: the sessions of each version, the sessions with at least one violation of the rule, \
            the rate per 1,000 sessions, the change (head − base), and a two-sided test of whether the two \
            shares of sessions affected differ: a pooled two-proportion z-test, or Fisher's exact test when an \
            expected count is below 5. The verdict is worse or better when p < --alpha (default 0.01, strict \
            because every rule is tested at once), else noise. Sessions, not violations, are the unit: one \
            session's violations are not independent of each other.

            Examples:
              hig-audit compare --store results.sqlite --base 5.1 --head 5.2
              hig-audit compare --store results.sqlite --base 5.1 --head 5.2 --format csv \\
                  > compare.csv

            Exit status: 0 on success; 1 when the store cannot be read or has no sessions of a version; 64 on a usage error.
            """
    )

    @Option(help: ArgumentHelp("The results store written by `hig-audit nightly` (opened read-only).", valueName: "file"))
    var store: String

    @Option(help: ArgumentHelp("The app version to compare against (the earlier release).", valueName: "version"))
    var base: String

    @Option(help: ArgumentHelp("The app version under test (the later release).", valueName: "version"))
    var head: String

    @Option(help: ArgumentHelp("Significance level for the verdict.", valueName: "p"))
    var alpha: Double = ReleaseComparison.defaultAlpha

    @Option(help: "Output format: table, csv, json or markdown.")
    var format: OutputFormat = .table

    @Option(help: "Colour in terminal tables: auto, always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1, not \(alpha).") }
    }

    func run() throws {
        do {
            let table: Table
            do {
                let opened = try ResultsStore(readingAt: store)
                table = try opened.read { try ReleaseComparison.table($0, base: base, head: head, alpha: alpha) }
            } catch {
                throw FatalError("\(error)")
            }
            var stdout = FileOutput.standardOutput()
            format.writer(colors: color.isEnabledForStandardOutput).write(table, to: &stdout)
            do {
                try stdout.close()
            } catch {
                throw FatalError("cannot write to standard output: \(error)")
            }
        } catch let error as FatalError {
            throw error.exit()
        }
    }
}
