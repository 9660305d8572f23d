import Foundation
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

/// Every example of every subcommand's `--help` runs and succeeds, as a user would type it, in a
/// folder holding what the examples name (`ExampleFixtures`: logs, uploads, a store, a config,
/// templates, the repository's SampleLogs). Each subcommand's examples run in order in a folder of
/// their own, so that an example may use what an earlier one made (merge's parts); the store is there
/// only for the subcommands whose examples read one they do not make. Absolute paths (`/var/www/…`,
/// `/tmp/logs`) are taken inside that folder.
@Suite struct HelpExamplesRunTests {
    static let storeReaders: Set<String> = ["query", "compare", "export", "dashboard", "baseline"]

    /// The examples of `help`, continuation lines joined and trailing comments dropped.
    static func examples(in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Examples:") }) else { return [] }
        var examples: [String] = []
        var current = ""
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix(" \\") {
                current += text.dropLast(2) + " "
                continue
            }
            current += text
            if let comment = current.range(of: "  # ") ?? current.range(of: " # ") { current = String(current[..<comment.lowerBound]) }
            examples.append(current.trimmingCharacters(in: .whitespaces))
            current = ""
        }
        return examples
    }

    /// The exit statuses an example may end with: 0, 3 when it reads the repository's SampleLogs
    /// (noisy by design), 5 when it asks `--fail-on worse` or `--fail-on new`.
    static func acceptable(_ example: String) -> Set<Int32> {
        var statuses: Set<Int32> = [0]
        if example.contains("SampleLogs/") { statuses.insert(3) }
        if example.contains("--fail-on worse") || example.contains("--fail-on new") { statuses.insert(5) }
        return statuses
    }

    @Test func examplesAreReadWhole() {
        let help = HIGAudit.helpMessage(for: CompareCommand.self, columns: 80)
        let examples = Self.examples(in: help)
        #expect(examples.contains("hig-audit compare --store results.sqlite --base 5.1 --head 5.2 --format csv > compare.csv"))
        #expect(Self.examples(in: HIGAudit.helpMessage(for: AnalyzeCommand.self, columns: 80))
            .contains("hig-audit analyze logs/ --table violations --limit 20"))
    }

    @Test(arguments: HelpExamplesTests.commands.map { $0.configuration.commandName ?? "" })
    func everyExampleRuns(command: String) throws {
        let type = try #require(HelpExamplesTests.commands.first { $0.configuration.commandName == command })
        let examples = Self.examples(in: HIGAudit.helpMessage(for: type, columns: 80))
        #expect(!examples.isEmpty, "\(command) --help shows examples")
        let fixtures = try ExampleFixtures.url()
        let sandbox = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: sandbox) }
        let files = FileManager.default
        for name in try files.contentsOfDirectory(atPath: fixtures.path) where !name.hasPrefix("results.sqlite") {
            let fixture = fixtures.appendingPathComponent(name), copy = sandbox.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = files.fileExists(atPath: fixture.path, isDirectory: &isDirectory)
            // Folders are linked (read only by the examples); files are copied (zstd refuses links).
            if isDirectory.boolValue {
                try files.createSymbolicLink(at: copy, withDestinationURL: fixture)
            } else {
                try files.copyItem(at: fixture, to: copy)
            }
        }
        if Self.storeReaders.contains(command) {
            try files.copyItem(at: fixtures.appendingPathComponent("results.sqlite"), to: sandbox.appendingPathComponent("results.sqlite"))
        }
        let path = HigAuditBinary.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for example in examples {
            let rebased = example.replacing(/(\s)\/([A-Za-z])/) { match in "\(match.1)\(sandbox.path)/\(match.2)" }
            // An absolute path's folder exists on the machine the example is for (/var/www on a web server).
            for match in example.matches(of: /\s\/([A-Za-z][^\s]*)/) {
                let parent = sandbox.appendingPathComponent(String(match.1)).deletingLastPathComponent()
                try files.createDirectory(at: parent, withIntermediateDirectories: true)
            }
            let result = try HigAuditBinary.shell(
                ["bash", "-o", "pipefail", "-c", rebased], environment: ["PATH": path], workingDirectory: sandbox)
            #expect(Self.acceptable(example).contains(result.status), "\(example) exited \(result.status): \(result.stderr.suffix(600))")
            // An example's filters choose something (`--session 9F3A` once matched no id in query).
            #expect(!result.stderr.contains("matches no"), "\(example): \(result.stderr.suffix(600))")
        }
    }
}
