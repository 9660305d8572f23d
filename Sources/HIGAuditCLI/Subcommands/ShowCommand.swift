import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit show`: one session's events in order, with its violations where they fire. The work is
/// done by `ShowFrontend`; this type only declares the command line.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show what happened in one session: its events in order, with its violations.",
        discussion: """
            Reads every input as analyze does and prints one session: its accepted events in the order the \
            rules saw them (ts order, equal ts in input order), each with its time, type, screen, the fields \
            of its type and its file:line, and every violation beside the event it fires at (rule, severity, \
            detail). The session's late and duplicate events, which the rules never see, follow in their own \
            table in input order, with why they were not accepted.

            The session may be given by a prefix of its id. A prefix that starts several session ids and is \
            none of them is a usage error that lists them; an id that is whole wins over longer ids it \
            starts. To find the prefix, the ids of the sessions that start with it are kept while reading \
            (memory grows with the number of matching sessions); the events of one session at most are kept.

            Examples:
              hig-audit show --session 00237b51 SampleLogs/night-2026-11-20
              hig-audit show --session s-bravo logs/ --format json > s-bravo.json
              hig-audit show --session 00237b515bc80a49 SampleLogs/night-2026-11-20 \\
                  --format csv > session.csv

            --format table (default) and markdown print three tables: session, events and not_accepted \
            (only when there are late or duplicate events). csv prints one table of every event with its \
            disposition (accepted, duplicate, late) and one row per violation. json prints one object with \
            one object per event, each with its fields, disposition, reason and violations.

            Exit status: 0 when all input was read; 3 when the session was printed but some input was \
            skipped (it may have held more of the session); 1 when no session id starts with the one given \
            (nothing is printed) or on a fatal error; 66 when a named input does not exist; 64 on a usage \
            error, an ambiguous prefix included.
            """
    )

    @Option(help: ArgumentHelp("The session to show: its id, or a prefix that starts no other session id.", valueName: "id"))
    var session: String

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Configuration") var config: ConfigOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<LogReadingMessages>

    @Option(help: "Output format: table (aligned, for people), csv (one table of every event), json (one object per event, with its violations) or markdown.")
    var format: OutputFormat = .table

    @Option(help: "Colour in terminal tables: auto (only on a terminal, and never when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        if session.isEmpty { throw ValidationError("--session needs an id or a prefix of one, not an empty string.") }
        if input.inputs.isEmpty {
            throw ValidationError("Give at least one input: a log file, a directory, or - for standard input.")
        }
        if input.inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
    }

    func run() throws {
        let status = try ShowFrontend(
            session: session, input: input, config: config, format: format, color: color, verbosity: verbosity.level).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
