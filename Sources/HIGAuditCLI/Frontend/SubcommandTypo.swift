import HIGAuditCore

/// Tells a mistyped subcommand (`hig-audit analyse DIR`, `hig-audit querry --store x`) from an input
/// to the default `analyze`, so that a typo is a usage error with a suggestion instead of an analysis
/// of a file that does not exist.
///
/// The first argument is taken for a subcommand typo when it is not an option, not an existing path,
/// not a subcommand, and is within two edits (insertions, deletions, substitutions or swaps of two
/// neighbours) of a subcommand's name, or of a word people type for a flag (`version`, `help`).
struct SubcommandTypo: Equatable {
    let typed: String
    let suggestion: String

    var message: String {
        "unknown subcommand '\(typed)'; did you mean '\(suggestion)'? (a file or directory called '\(typed)' does not exist)"
    }

    /// Words typed as subcommands that are flags of the root command.
    static let flagWords = ["version": "--version", "help": "--help"]

    /// The typo in `arguments` (the command line without the program name), if the first is one.
    static func find(in arguments: [String], subcommands: [String], pathExists: (String) -> Bool) -> SubcommandTypo? {
        guard let first = arguments.first, !first.hasPrefix("-"), !subcommands.contains(first) else { return nil }
        guard !pathExists(first) else { return nil }
        if let flag = flagWords[first.lowercased()] { return SubcommandTypo(typed: first, suggestion: flag) }
        let word = first.lowercased()
        let candidates = subcommands.map { ($0, ClosestValues.editDistance(word, $0)) }.filter { $0.1 <= 2 }
        guard let best = candidates.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) else { return nil }
        // Very short words are close to everything: ask for most of the name to be there.
        guard word.count >= 3, best.1 < best.0.count / 2 + 1 else { return nil }
        return SubcommandTypo(typed: first, suggestion: best.0)
    }
}
