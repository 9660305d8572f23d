import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// What to read and how strictly: shared by every command that reads logs.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Log files (.zst, .ndjson, .jsonl; zstd is recognised by its magic number), directories (every log file below, in path order), or - for standard input.",
            valueName: "input"
        )
    )
    var inputs: [String] = []

    @Option(
        name: .customLong("dictionary"),
        help: ArgumentHelp(
            "A zstd dictionary for frames compressed with one. Repeatable; matched to frames by dictionary id.",
            valueName: "file"
        )
    )
    var dictionaries: [String] = []

    @Option(
        help: ArgumentHelp(
            "Largest zstd window to accept, as a power of two: 27 (128 MiB) by default. Frames that need more are refused and skipped, which keeps memory bounded.",
            valueName: "n"
        )
    )
    var maxWindowLog: Int = 27

    @Option(
        help: ArgumentHelp(
            "Write every malformed line (file:line and reason) to this file. Standard error shows the first 20.",
            valueName: "file"
        )
    )
    var malformedReport: String?

    @Flag(help: "Read the inputs that exist when a named one does not, or when none holds a log file, and count the rest as skipped input (exit status 3). Without it, a missing input is fatal with exit status 66 before anything is read: a missing mount is not an ordinary night.")
    var allowMissing = false

    @Flag(help: "Make skipped input fatal: stop at the first corrupt frame, truncated or unreadable file, or malformed line, with exit status 1.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Threads that read and decode inputs, several files at a time (default: the cores available; 1 reads on one thread). Every output is the same for any number.",
            valueName: "n"
        )
    )
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Read another tool's export instead of hig-audit logs: posthog, datadog-rum or otlp (plain, zstd or gzip; see docs/importing.md). Its files are read in order by one thread while another judges the events (with --jobs above 1).",
            valueName: "format"
        )
    )
    var from: ImportFormat?

    /// `--jobs`, or the cores this process may run on. An export (`--from`), whose sessions are named
    /// by the launches read so far, is read by one of them in input order (`RunPipeline.importer`).
    var jobCount: Int { jobs ?? ProcessorCount.available }

    /// The file name endings taken in a directory: logs, or the export's files.
    var endings: [String] { from != nil ? InputResolver.exportExtensions : InputResolver.logExtensions }

    func validate() throws {
        guard (10...31).contains(maxWindowLog) else {
            throw ValidationError("--max-window-log must be between 10 and 31, not \(maxWindowLog).")
        }
        if let jobs, !(1...256).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and 256, not \(jobs).")
        }
    }
}

/// The run's semantics: a YAML config file, and flags that override it.
struct ConfigOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "YAML file setting rule parameters, enabling or disabling rules, and the engine's time bounds. `hig-audit rules --defaults` prints a complete one to start from.",
            valueName: "file"
        )
    )
    var config: String?

    @Option(help: ArgumentHelp("How far out of order a session's events may arrive (default 10000). Overrides the config file.", valueName: "ms"))
    var maxLatenessMs: Int64?

    @Option(help: ArgumentHelp("Silence after which an open session is closed, on its device's clock (default 1800000). Overrides the config file.", valueName: "ms"))
    var sessionGapMs: Int64?

    func validate() throws {
        if let maxLatenessMs, maxLatenessMs < 0 {
            throw ValidationError("--max-lateness-ms must be 0 or more, not \(maxLatenessMs).")
        }
        if let sessionGapMs, sessionGapMs <= 0 {
            throw ValidationError("--session-gap-ms must be more than 0, not \(sessionGapMs).")
        }
    }
}

extension ImportFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
