import Testing
@testable import HIGAuditCLI

@Suite struct CommandTests {
    @Test func rootCommandIsNamedHigAudit() {
        #expect(HIGAudit.configuration.commandName == "hig-audit")
    }
}
