import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit baseline`: write the accepted findings of SPEC §6, the `(rule, screen)` pairs that have
/// at least one violation, from logs or from a results store. The work is done by `BaselineFrontend`.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Write the (rule, screen) pairs that have violations today, so that later runs gate only on new ones.",
        discussion: """
            Reads logs as analyze does, or a results store as query does (--store, with the same filters), \
            and writes to --out the set of (rule, screen) pairs that have at least one violation: \
            {"version": 1, "pairs": [{"rule": …, "screen": …}]}, one pair a line, sorted by rule then screen \
            in byte order, the same input always the same bytes, so that the file reads well in a diff and \
            can be committed beside the app's code. The file is written under a temporary name and renamed, \
            so an interrupted run leaves the last one in place.

            analyze and query take the file with --baseline: a violation whose pair is in it is known, any \
            other new; --fail-on new exits 5 when any violation is new. Write the baseline again when \
            violations are fixed, so that the file shrinks and they cannot come back unnoticed.

            Examples:
              hig-audit baseline --out baseline.json logs/
              hig-audit baseline --out baseline.json --store results.sqlite \\
                  --app-version 5.2
              hig-audit baseline --out baseline.json logs/ --rule forced-tab-switch

            Exit status: 0 when the baseline is written from all the input; 3 when it is written but some \
            input was skipped; 1 on a fatal error (unreadable config or store, unwritable --out, or skipped \
            input with --strict); 66 when a named input does not exist or no input holds a log (unless \
            --allow-missing); 64 on a usage error.
            """
    )

    @Option(help: ArgumentHelp("The baseline file to write (JSON, replaced whole).", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("Read this results store (written by `hig-audit nightly`, opened read-only) instead of logs.", valueName: "file"))
    var store: String?

    @Option(name: .customLong("severity"), help: ArgumentHelp("With --store: only violations of this severity: warning or error (repeatable).", valueName: "level"))
    var severities: [Severity] = []

    @Option(name: .customLong("run"), help: ArgumentHelp("With --store: only sessions closed by this nightly run (repeatable).", valueName: "id"))
    var runs: [Int64] = []

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Configuration") var config: ConfigOptions
    @OptionGroup(title: "Filters") var filters: FilterOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<LogReadingMessages>

    func validate() throws {
        if out == "-" {
            throw ValidationError("--out - would write a file named '-': the baseline is a file (replaced whole), not standard output; name one.")
        }
        if store == nil {
            if input.inputs.isEmpty {
                throw ValidationError("Give the logs to read (a file, a directory, or - for standard input), or --store FILE.")
            }
            if input.inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
            if !severities.isEmpty || !runs.isEmpty { throw ValidationError("--severity and --run choose what a store holds; give --store too.") }
        } else {
            if !input.inputs.isEmpty {
                throw ValidationError("Give either logs or --store, not both: a baseline is taken from one of them.")
            }
            if config.config != nil { throw ValidationError("--config applies to reading logs; a store holds violations already judged.") }
        }
    }

    func run() throws {
        let status = try BaselineFrontend(command: self).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
