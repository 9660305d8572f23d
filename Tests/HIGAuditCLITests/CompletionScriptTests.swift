import Foundation
import Testing

/// The shell completion scripts the README tells users to install.
@Suite struct CompletionScriptTests {
    /// The subcommands `hig-audit --help` lists, so that a new one is checked without editing this test.
    static func subcommands() throws -> [String] {
        let help = try HigAuditBinary.run(["--help"]).stdout
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[section.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.contains("See 'hig-audit help") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    @Test func bashCompletesEverySubcommandAndTheirOptions() throws {
        let names = try Self.subcommands()
        #expect(names.count >= 7 && names.contains("compare"))
        let result = try HigAuditBinary.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("#!/bin/bash"))
        for name in names { #expect(result.stdout.contains(name), "\(name)") }
        // Option values come from the commands' own enums.
        #expect(result.stdout.contains("--base-day") && result.stdout.contains("'worse'"))
        #expect(result.stdout.contains("worst_screens"))
    }

    @Test(arguments: ["zsh", "fish"])
    func otherShellsGetAScriptToo(shell: String) throws {
        let result = try HigAuditBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        for name in try Self.subcommands() { #expect(result.stdout.contains(name), "\(shell): \(name)") }
    }
}
