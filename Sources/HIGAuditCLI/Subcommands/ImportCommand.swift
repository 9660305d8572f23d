import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit import`: another tool's export turned into hig-audit's NDJSON (SPEC §7). The work is done
/// by `ImportFrontend`; this type only declares the command line.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a PostHog, Datadog RUM or OpenTelemetry (OTLP/JSON) export into hig-audit's NDJSON.",
        discussion: """
            Reads each input (plain, zstd or gzip; a directory means every .zst, .ndjson, .jsonl and .gz \
            file below it) as --from FORMAT says and writes the events it maps, as hig-audit log lines, to \
            --output: one file (zstd when its name ends in .zst), or a directory that gets one .ndjson file per \
            input, at the input's path below the directory named as input (2026-11-20/part-0.jsonl becomes \
            2026-11-20/part-0.ndjson), so that analyze reads the directory in the order import read the \
            export; where those paths would not sort in that order (inputs named out of order, two of one \
            name), the files are numbered in reading order instead (0001-part-0.ndjson). analyze, nightly and show read the export directly with --from FORMAT and give the same \
            tables as on what import writes. The mapping, and what each format loses, is in docs/importing.md; \
            the config file's import: section names the screens that are tab roots (tab_roots) and the touch \
            coverage (touches).

            Events of a name that maps to nothing are counted as unknown types; a line or record that cannot \
            be read is malformed, reported at file:line (file:line#record for OTLP) and skipped.

            Examples:
              hig-audit import --from posthog export.jsonl.gz -o posthog.ndjson.zst
              hig-audit import --from otlp --config import.yml otel/ -o otel.ndjson
              hig-audit analyze --from otlp --config import.yml otel/

            Exit status: 0 when all input was read; 3 when some was skipped (malformed lines, corrupt or \
            truncated files; the output is still written); 1 on a fatal error (nothing is written); 66 when a \
            named input does not exist; 64 on a usage error.
            """
    )

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Configuration") var config: ConfigOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<LogReadingMessages>

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Where to write: a file (zstd when it ends in .zst), or an existing directory (one .ndjson file per input, in reading order).", valueName: "path"))
    var output: String

    func validate() throws {
        if input.from == nil {
            throw ValidationError("import needs --from FORMAT: one of \(ImportFormat.names).")
        }
        if input.inputs.isEmpty {
            throw ValidationError("Give at least one input: an export file, a directory, or - for standard input.")
        }
        if output == "-" {
            throw ValidationError("-o - would write a file named '-': import writes a file or into a directory, not to standard output; name one.")
        }
        if input.inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
    }

    func run() throws {
        let status = try ImportFrontend(command: self).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
