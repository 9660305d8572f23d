import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit analyze`: read logs, run every enabled rule, print tables. The work is done by
/// `AnalysisFrontend`; this type only declares the command line.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Read interaction logs and report where the app broke the Human Interface Guidelines.",
        discussion: """
            Reads every input, decodes each line strictly, orders each session's events, runs the enabled \
            rules and prints tables. Each device is its own stream with its own clock: a session may continue \
            from one file into the next, and the results do not depend on how the files of different devices \
            are named or interleaved, only on each device's files being read in the order they were uploaded.

            Examples:
              hig-audit analyze SampleLogs/night-2026-11-20
              hig-audit analyze logs/ --table violations --rule forced-tab-switch \\
                  --app-version 5.2
              hig-audit analyze logs/ --table by_screen --format csv > by_screen.csv
              hig-audit analyze logs/ --table violations --limit 20   # the first 20
              zstd -dc upload.zst | hig-audit analyze - --table ingest
              hig-audit analyze logs/ --out results/   # every table as CSV and JSON
              hig-audit analyze logs/ --out results/ --dashboard page/   # and an HTML page
              hig-audit analyze logs/ --baseline baseline.json --fail-on new

            Bad input never stops a run: malformed lines, corrupt or refused zstd frames, truncated and \
            unreadable files are skipped, counted in the ingest table and reported on standard error with \
            their file and line or byte offset.

            --baseline FILE (written by `hig-audit baseline`) marks each violation known when its (rule, \
            screen) pair is in the file and new otherwise: summary gains new_violations, violations a new \
            column; nothing else changes. --fail-on new then exits 5 when any violation is new, after every \
            output is written.

            Exit status: 0 when all input was read; 3 when the run finished and wrote its reports but skipped \
            some input; 5 with --fail-on new when a violation is new (it outranks 3); 1 on a fatal error \
            (unreadable config or baseline, unwritable output, or skipped input with --strict); 66 when a \
            named input does not exist or no input holds a log (unless --allow-missing); 64 on a usage error; 130 when interrupted by Ctrl-C (SIGINT), 143 by SIGTERM (nothing is written, \
            and an --out folder the run made is removed).
            """
    )

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Configuration") var config: ConfigOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Filters") var filters: FilterOptions
    @OptionGroup(title: "Dashboard") var dashboard: DashboardOptions

    @Flag(help: ArgumentHelp(
        "List the violations the config's exclude: entries suppressed in the violations table too, with a suppressed column (true/false)."))
    var showSuppressed = false

    @OptionGroup(title: "Baseline") var baseline: BaselineOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<LogReadingMessages>

    func validate() throws {
        if input.inputs.isEmpty {
            throw ValidationError("Give at least one input: a log file, a directory, or - for standard input.")
        }
        let stdinCount = input.inputs.filter { $0 == "-" }.count
        if stdinCount > 1 { throw ValidationError("Standard input (-) can be read only once.") }
        if output.format == .csv, output.tables.count > 1 {
            throw ValidationError("--format csv prints one table; use --out DIR to write every table as its own CSV file.")
        }
    }

    func run() throws {
        let status = try AnalysisFrontend(
            input: input, config: config, output: output, filters: filters, verbosity: verbosity.level, dashboard: dashboard,
            showsSuppressed: showSuppressed,
            baselineOptions: baseline
        ).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
