import ArgumentParser

/// How much a command says on standard error besides its errors: the same two flags on every
/// subcommand, so that a cron job, a shell session and a debugging session each get what they need.
/// What the flags leave out or add differs by subcommand, and so does their help (`Help`): a command
/// that reads no log has no warnings about its input to drop.
struct VerbosityOptions<Help: VerbosityHelp>: ParsableArguments {
    @Flag(name: .shortAndLong, help: ArgumentHelp(Help.quiet))
    var quiet = false

    @Flag(name: .shortAndLong, help: ArgumentHelp(Help.verbose))
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    var level: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }
}

/// The help of `--quiet` and `--verbose` for one subcommand: what it says on standard error.
protocol VerbosityHelp {
    static var quiet: String { get }
    static var verbose: String { get }
}

/// What `VerbosityOptions` chose.
enum Verbosity: Sendable {
    case quiet, normal, verbose

    /// Whether notes and summaries (not warnings about the input) go to standard error.
    var saysNotes: Bool { self != .quiet }
}

/// `analyze` and `show`: they read logs.
enum LogReadingMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no warnings about the input, notes or progress. The exit status still tells what happened."
    static let verbose = "Say more: every problem with the input, not only the first 20 of each kind."
}

/// `nightly`: reads logs and commits a run.
enum NightlyMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no warnings about the input, notes, the run's summary or progress. The exit status still tells what happened."
    static let verbose = "Say more: every problem with the input (not only the first 20 of each kind), and every input file and what became of it."
}

/// `query` and `export`: read the store, with filters.
enum StoreReadingMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no notes about filters that match nothing and no warning about a store that lacks shards of a split run."
    static let verbose = "Accepted for uniformity: there is nothing more to say."
}

/// `dashboard`: reads the whole store.
enum DashboardMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no warning about a store that lacks shards of a split run."
    static let verbose = "Accepted for uniformity: there is nothing more to say."
}

/// `compare`: reads the store and tells each side's app versions.
enum CompareMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: not the app versions each side holds, the rules found worse, or a warning about a store that lacks shards. The exit status still tells what happened."
    static let verbose = "Accepted for uniformity: there is nothing more to say."
}

/// `merge`: writes a store from parts.
enum MergeMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no summary of what was merged and no warning about missing shards (the exit status, 3, still says so)."
    static let verbose = "Accepted for uniformity: there is nothing more to say."
}

/// `sample`: writes logs.
enum SampleMessages: VerbosityHelp {
    static let quiet = "Say nothing on standard error but errors: no summary of the logs written (DIR/sample-manifest.json still has it)."
    static let verbose = "Accepted for uniformity: there is nothing more to say."
}

/// `rules` and `shard-plan`: they say nothing on standard error but errors.
enum SilentMessages: VerbosityHelp {
    static let quiet = "Accepted for uniformity: this command says nothing on standard error but errors."
    static let verbose = "Accepted for uniformity: this command says nothing on standard error but errors."
}
