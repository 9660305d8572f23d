import Foundation
import Testing
@testable import HIGAuditCLI

/// `--quiet` and `--verbose` on every command that talks on standard error: one summary by default,
/// only errors when quiet, every file and every problem when verbose.
@Suite struct VerbosityTests {
    let night = "SampleLogs/night-2026-11-20"

    @Test func analyzeSaysTheFirstProblemsOfEachKindAllOfThemOrNone() throws {
        let ingest = ["--table", "ingest", "--format", "csv"]
        let normal = try HigAuditBinary.run(["analyze", night] + ingest)
        let verbose = try HigAuditBinary.run(["analyze", night, "--verbose"] + ingest)
        let quiet = try HigAuditBinary.run(["analyze", night, "--quiet"] + ingest)
        for result in [normal, verbose, quiet] { #expect(result.status == 3) }
        #expect(normal.stdout == quiet.stdout && normal.stdout == verbose.stdout)
        let rows = normal.stdout.split(separator: "\r\n").map { $0.split(separator: ",") }
        let column = try #require(rows.first?.firstIndex(of: "malformed_lines"))
        let total = try #require(Int(rows[1][column]))
        #expect(total > 20, "the sample night has more malformed lines than are shown")
        func malformed(_ text: String) -> Int { text.split(separator: "\n").filter { $0.contains(".ndjson.zst:") && $0.contains(": malformed line: ") }.count }
        #expect(malformed(normal.stderr) == 20)
        #expect(normal.stderr.contains("malformed line: \(total) in all, \(total - 20) not shown above"))
        #expect(malformed(verbose.stderr) == total)
        #expect(!verbose.stderr.contains("not shown above"))
        #expect(quiet.stderr.isEmpty)
    }

    @Test func nightlyListsFilesOnlyWhenVerbose() throws {
        let slice = "\(night)/2026-11-20/1800"
        func run(_ flags: [String]) throws -> HigAuditBinary.Result {
            let store = try HigAuditBinary.temporaryDirectory().appendingPathComponent("s.sqlite").path
            return try HigAuditBinary.run(["nightly", "--store", store] + flags + [slice])
        }
        let normal = try run([]), verbose = try run(["-v"]), quiet = try run(["-q"])
        let files = try FileManager.default.contentsOfDirectory(atPath: HigAuditBinary.packageRoot.appendingPathComponent(slice).path).count
        #expect(normal.stderr.contains("committed:"))
        #expect(!normal.stderr.contains(": read\n"))
        #expect(verbose.stderr.components(separatedBy: ": read\n").count - 1 == files)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.status == normal.status)
    }

    @Test func quietAndVerboseTogetherIsAUsageError() throws {
        #expect(try HigAuditBinary.run(["analyze", night, "-q", "-v"]).status == 64)
    }

    /// Every subcommand, so that a script may pass `-q` to any of them.
    @Test func everyCommandTakesBothFlags() throws {
        for command in HIGAudit.configuration.subcommands.compactMap({ $0.configuration.commandName }) {
            let help = try HigAuditBinary.run([command, "--help"]).stdout
            #expect(help.contains("-q, --quiet") && help.contains("-v, --verbose"), "\(command)")
        }
    }

    /// The flags' help says what each subcommand says: only those that read logs have warnings about
    /// their input to drop.
    @Test func theFlagsHelpFitsEachCommand() throws {
        let readers: Set<String> = ["analyze", "nightly", "show", "baseline", "import"]
        for command in HIGAudit.configuration.subcommands.compactMap({ $0.configuration.commandName }) {
            let help = try HigAuditBinary.run([command, "--help"]).stdout
            let flags = help.components(separatedBy: "-q, --quiet").last?.components(separatedBy: "\n\n").first ?? ""
            #expect(flags.contains("input") == readers.contains(command), "\(command): \(flags)")
        }
        let compare = try HigAuditBinary.run(["compare", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(compare.contains("app versions each side holds"))
    }
}
