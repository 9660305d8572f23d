import Foundation
import Testing

/// Every command in README.md runs here, so the README cannot go stale.
///
/// In ```console blocks a line starting with `$ ` is a command and the lines after it, up to the next
/// command, are its exact standard output. In ```sh blocks every line is a command whose output is
/// not shown. A trailing `# exit N` says which status the command must end with (default 0). Commands
/// run one after another in one scratch directory (a later command may read what an earlier one wrote)
/// where `SampleLogs` links to the project's, with `swift run hig-audit` replaced by the built
/// executable; `swift test` itself is skipped (it is what is running). ```bash blocks (the install
/// steps, which build and write outside the package) are shown, not run.
@Suite(.serialized) struct ReadmeCommandTests {
    struct Command: CustomStringConvertible, Sendable {
        var line: String
        var expectedStatus: Int32
        var expectedOutput: String?
        var readmeLine: Int
        var description: String { "README.md:\(readmeLine): \(line)" }
    }

    static func commands() throws -> [Command] {
        let readme = try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var commands: [Command] = []
        var block: String?
        var current: Command?
        var output: [String] = []
        func flush() {
            if var command = current {
                if block == "console" { command.expectedOutput = output.joined(separator: "\n") + (output.isEmpty ? "" : "\n") }
                commands.append(command)
            }
            current = nil
            output = []
        }
        for (index, line) in readme.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if block == nil {
                    block = String(line.dropFirst(3))
                } else {
                    flush()
                    block = nil
                }
                continue
            }
            guard let kind = block, kind == "console" || kind == "sh" else { continue }
            let isCommand = kind == "sh" ? !line.isEmpty && !line.hasPrefix("#") : line.hasPrefix("$ ")
            if isCommand {
                flush()
                var text = kind == "console" ? String(line.dropFirst(2)) : line
                var status: Int32 = 0
                if let range = text.range(of: "# exit ") {
                    status = Int32(text[range.upperBound...].trimmingCharacters(in: .whitespaces)) ?? 0
                    text = String(text[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
                }
                current = Command(line: text, expectedStatus: status, expectedOutput: nil, readmeLine: index + 1)
            } else if current != nil {
                output.append(line)
            }
        }
        return commands.filter { $0.line != "swift test" }
    }

    @Test func readmeHasTheTwoSetUpCommands() throws {
        let lines = try Self.commands().map(\.line)
        #expect(lines.contains { $0.hasPrefix("swift run hig-audit analyze SampleLogs/") })
        let readme = try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("\nswift test\n"))
    }

    static let scratch: URL = {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-readme-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("SampleLogs"),
            withDestinationURL: HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs"))
        return scratch
    }()

    @Test(arguments: try commands())
    func readmeCommandRunsAsShown(_ command: Command) throws {
        let scratch = Self.scratch
        let line = command.line.replacingOccurrences(of: "swift run hig-audit", with: HigAuditBinary.executable.path)
        let result = try HigAuditBinary.shell(["sh", "-c", "cd '\(scratch.path)' && \(line)"])
        #expect(result.status == command.expectedStatus, "\(command) exited \(result.status): \(result.stderr)")
        if let expected = command.expectedOutput {
            // CSV records end in CRLF; a README shows them with plain line ends.
            let shown = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(shown == expected, "\(command): output differs from the README")
        }
    }
}
