import Testing
@testable import HIGAuditCLI

/// `--help` is part of the product, and its examples are copied into shells: each must come out whole
/// at 80 columns, a long one continued with `\` on its own lines rather than wrapped mid-command.
@Suite struct HelpExamplesTests {
    static let commands = HIGAudit.configuration.subcommands.map { $0 }

    @Test(arguments: commands.map { $0.configuration.commandName ?? "" })
    func everyExampleLineFitsEightyColumns(command: String) throws {
        let type = try #require(Self.commands.first { $0.configuration.commandName == command })
        let help = HIGAudit.helpMessage(for: type, columns: 80)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Examples:") }, "\(command) --help shows examples")
        var continued = false
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            #expect(line.hasPrefix(continued ? "      " : "  hig-audit ") || line.hasPrefix("  zstd "),
                    "\(command) --help: '\(line)' is not an example or its continuation")
            #expect(line.count <= 80, "\(command) --help: '\(line)' is wider than 80 columns")
            continued = line.hasSuffix(" \\")
        }
        #expect(!continued, "\(command) --help: the last example ends with a continuation")
    }
}
