import ArgumentParser
import HIGAuditCore

/// `hig-audit help [SUBCOMMAND]`, which every `--help` tells people to type. swift-argument-parser has
/// it, but `analyze` being the default subcommand, `help compare` would reach `analyze` as two inputs
/// (or, before that, `SubcommandTypo`): so it is answered here, before parsing.
enum HelpSubcommand {
    enum Answer: Equatable {
        /// The help to print on standard output; the command line was right (exit 0).
        case help(String)
        /// A usage error (64): the name is no subcommand.
        case usageError(String)
    }

    /// The answer to `arguments` (the command line without the program name) when it starts with
    /// `help`, else nil. `help` alone gives the overview of every subcommand.
    static func answer(to arguments: [String], columns: Int? = nil) -> Answer? {
        guard arguments.first == "help" else { return nil }
        let subcommands = HIGAudit.configuration.subcommands
        let names = arguments.dropFirst()
        guard let name = names.first else { return .help(HIGAudit.helpMessage(columns: columns)) }
        let known = subcommands.compactMap { $0.configuration.commandName }
        guard names.count == 1 else {
            return .usageError("help takes one subcommand name (\(known.joined(separator: ", "))), not '\(names.joined(separator: " "))'")
        }
        if let command = subcommands.first(where: { $0.configuration.commandName == name }) {
            return .help(HIGAudit.helpMessage(for: command, columns: columns))
        }
        let closest = ClosestValues.to(name, among: known, limit: 1).first
            .flatMap { ClosestValues.editDistance(name, $0) <= 2 ? $0 : nil }
        let suggestion = closest.map { "did you mean '\($0)'? " } ?? ""
        return .usageError("no subcommand '\(name)' to help with; \(suggestion)subcommands: \(known.joined(separator: ", "))")
    }
}
