import ArgumentParser
import Foundation

@main
struct HIGAudit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hig-audit",
        abstract: "Find where an iOS/iPadOS app's behaviour in the field breaks Apple's Human Interface Guidelines.",
        discussion: """
            hig-audit reads the interaction logs that apps upload (zstd-compressed NDJSON: touches, Apple Pencil \
            double-taps, haptics, navigation, modals), replays every session through guideline rules and reports \
            where and how often the app broke them.

            Start with:
              hig-audit analyze SampleLogs/night-2026-11-20
              hig-audit rules
            """,
        version: "0.1.0",
        subcommands: [
            AnalyzeCommand.self, RulesCommand.self, NightlyCommand.self, QueryCommand.self, CompareCommand.self,
            BaselineCommand.self, ExportCommand.self, DashboardCommand.self, SampleCommand.self, ShowCommand.self,
            MergeCommand.self, ShardPlanCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: AnalyzeCommand.self
    )

    /// Runs the command line after the checks that must come before parsing: swift-argument-parser
    /// answers `--version` first and checks a command's own rules before unknown options (so an unknown
    /// option is looked for when parsing fails, before its error is shown), and `analyze`,
    /// the default subcommand, would take a mistyped subcommand or `help NAME` for inputs.
    ///
    /// No arguments at all print the overview (the root help) on standard output, with the usage status
    /// (64): nothing was asked, and a script whose arguments went missing must not pass for a run.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let subcommands = configuration.subcommands
        let names = subcommands.compactMap { $0.configuration.commandName }
        if arguments.isEmpty {
            FileHandle.standardOutput.write(Data((helpMessage() + "\n").utf8))
            exit(withError: ExitCode(ExitStatus.usage))
        }
        switch HelpSubcommand.answer(to: arguments) {
        case .help(let text)?:
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
            exit(withError: ExitCode.success)
        case .usageError(let message)?:
            usageError(message)
        case nil:
            break
        }
        if let message = VersionFlagMisuse.message(for: arguments) { usageError(message) }
        if let typo = SubcommandTypo.find(in: arguments, subcommands: names, pathExists: FileManager.default.fileExists(atPath:)) {
            usageError(typo.message)
        }
        if let repeated = RepeatedOption.find(in: arguments, subcommands: subcommands, defaultCommand: AnalyzeCommand.self) {
            usageError(repeated.message)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // A command line the parser accepts has no unknown option, so the search (which reads every
            // option's description) runs only for one it refused, before the parser's own message.
            if let unknown = UnknownOption.find(in: arguments, subcommands: subcommands, defaultCommand: AnalyzeCommand.self) {
                usageError(unknown.message)
            }
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    private static func usageError(_ message: String) -> Never {
        FileHandle.standardError.write(Data("hig-audit: error: \(message)\n".utf8))
        exit(withError: ExitCode(ExitStatus.usage))
    }
}
