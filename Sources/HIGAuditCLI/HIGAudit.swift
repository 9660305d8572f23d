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
            ExportCommand.self, DashboardCommand.self, SampleCommand.self, ShowCommand.self, MergeCommand.self,
            ShardPlanCommand.self,
        ],
        defaultSubcommand: AnalyzeCommand.self
    )

    /// Runs the command line, but refuses a mistyped subcommand before `analyze` (the default) takes it
    /// for an input (`SubcommandTypo`).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let typo = SubcommandTypo.find(in: arguments, subcommands: names, pathExists: FileManager.default.fileExists(atPath:)) {
            FileHandle.standardError.write(Data("hig-audit: error: \(typo.message)\n".utf8))
            exit(withError: ExitCode(ExitStatus.usage))
        }
        main(arguments)
    }
}
