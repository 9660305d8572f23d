import ArgumentParser

/// How much a command says on standard error besides its errors: the same two flags on every
/// subcommand, so that a cron job, a shell session and a debugging session each get what they need.
struct VerbosityOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Say nothing on standard error but errors: no warnings about the input, notes, summaries or progress. The exit status still tells what happened.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say more: every problem with the input (not only the first 20 of each kind) and, for nightly, every input file and what became of it.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    var level: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }
}

/// What `VerbosityOptions` chose.
enum Verbosity: Sendable {
    case quiet, normal, verbose

    /// Whether notes and summaries (not warnings about the input) go to standard error.
    var saysNotes: Bool { self != .quiet }
}
