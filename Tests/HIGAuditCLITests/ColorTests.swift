import Foundation
import Testing

/// Colour is for terminals: never in a pipe, never with NO_COLOR set, always with `--color always`.
@Suite struct ColorTests {
    static let arguments = ["analyze", GoldenOutputTests.fixture, "--table", "summary"]

    @Test func pipesGetNoColour() throws {
        #expect(!(try HigAuditBinary.run(Self.arguments).stdout.contains("\u{1B}[")))
        #expect(try HigAuditBinary.run(Self.arguments + ["--color", "always"]).stdout.contains("\u{1B}["))
    }

    @Test func terminalsGetColourUnlessNoColorIsSet() throws {
        let command = ([HigAuditBinary.executable.path] + Self.arguments).joined(separator: " ")
        let coloured = try HigAuditBinary.shell(["env", "-u", "NO_COLOR", "TERM=xterm", "script", "-qec", command, "/dev/null"])
        #expect(coloured.stdout.contains("\u{1B}[1m"))
        let plain = try HigAuditBinary.shell(["env", "NO_COLOR=1", "TERM=xterm", "script", "-qec", command, "/dev/null"])
        #expect(!plain.stdout.contains("\u{1B}[1m"))
    }
}
