import ArgumentParser
import Testing
@testable import HIGAuditCLI

/// The store commands are registered and their `--help` explains them with examples (STYLE: the help
/// text is part of the product).
@Suite struct StoreCommandHelpTests {
    @Test(arguments: ["nightly", "query", "compare", "export"])
    func helpHasAnExampleAndTheExitStatuses(command: String) {
        let help = HIGAudit.helpMessage(for: HIGAudit.configuration.subcommands.first { $0.configuration.commandName == command } ?? HIGAudit.self)
        #expect(help.contains("Examples:"))
        #expect(help.contains("hig-audit \(command) --store"))
        #expect(help.contains("Exit status"))
    }

    @Test func nightlyRefusesStandardInputAndQueryRefusesMixedModes() {
        #expect(throws: (any Error).self) { try NightlyCommand.parse(["--store", "s.sqlite", "-"]) }
        #expect(throws: (any Error).self) { try QueryCommand.parse(["--store", "s.sqlite", "--sql", "SELECT 1", "--group-by", "rule"]) }
        #expect(throws: (any Error).self) { try CompareCommand.parse(["--store", "s", "--base", "1", "--head", "2", "--alpha", "2"]) }
        #expect(throws: Never.self) { try QueryCommand.parse(["--store", "s.sqlite", "--group-by", "rule", "--group-by", "day", "--severity", "error"]) }
    }
}
