import Foundation
import Testing
@testable import HIGAuditCLI
import HIGAuditStore

/// Easy mistakes on the command line get the right answer: `--version` meant as the app version,
/// `help NAME`, no arguments at all, another tool's option names, comma lists for `--group-by`.
@Suite struct CommandLineMistakesTests {
    static let subcommands = HIGAudit.configuration.subcommands.compactMap { $0.configuration.commandName }

    @Test func versionWithOtherArgumentsIsAUsageErrorNamingAppVersion() throws {
        for arguments in [
            ["analyze", "SampleLogs/night-2026-11-20", "--version", "5.2"], ["SampleLogs/night-2026-11-20", "--version"],
            ["query", "--store", "results.sqlite", "--version=5.2"],
        ] {
            let result = try HigAuditBinary.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("--app-version"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        let alone = try HigAuditBinary.run(["--version"])
        #expect(alone.status == 0)
        #expect(alone.stdout == HIGAudit.configuration.version + "\n")
        // After `--`, `--version` is an input's name.
        #expect(VersionFlagMisuse.message(for: ["analyze", "--", "--version"]) == nil)
    }

    @Test(arguments: subcommands)
    func helpNamePrintsThatSubcommandsHelp(subcommand: String) throws {
        let help = try HigAuditBinary.run(["help", subcommand])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stderr.isEmpty)
        #expect(help.stdout == (try HigAuditBinary.run([subcommand, "--help"])).stdout)
    }

    @Test func helpAloneOrOfAnUnknownName() throws {
        let overview = try HigAuditBinary.run(["help"])
        #expect(overview.status == 0)
        #expect(overview.stdout == (try HigAuditBinary.run(["--help"])).stdout)
        let unknown = try HigAuditBinary.run(["help", "comprae"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("did you mean 'compare'?"))
        #expect(unknown.stdout.isEmpty)
    }

    /// No arguments print the overview a new user needs, but with the usage status: a script whose
    /// arguments went missing must not pass for a successful run.
    @Test func noArgumentsPrintTheOverview() throws {
        let result = try HigAuditBinary.run([])
        #expect(result.status == 64)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("SUBCOMMANDS:"))
        #expect(result.stdout.contains("hig-audit analyze SampleLogs/night-2026-11-20"))
    }

    @Test func compareFromToIsAnUnknownOptionWithTheRightOnes() throws {
        let result = try HigAuditBinary.run(["compare", "--store", "results.sqlite", "--from", "5.1", "--to", "5.2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option '--from' for compare"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean '--base'?"))
        #expect(result.stderr.contains("--head"))
        #expect(!result.stderr.contains("Missing the base side"))
    }

    @Test func unknownOptionsAreFoundWhereverTheCommandLineHasThem() {
        let commands = HIGAudit.configuration.subcommands
        func find(_ arguments: [String]) -> UnknownOption? {
            UnknownOption.find(in: arguments, subcommands: commands, defaultCommand: AnalyzeCommand.self)
        }
        #expect(find(["compare", "--store", "s", "--base", "5.1", "--to", "5.2"])?.suggestion == "head")
        #expect(find(["query", "--store", "s", "--grop-by", "rule"])?.suggestion == "group-by")
        #expect(find(["logs/", "--tabel", "summary"]) == UnknownOption(command: "analyze", typed: "--tabel", suggestion: "table"))
        // Values of options, `--name=value`, flags and what follows `--` are not options.
        #expect(find(["query", "--store", "s", "--sql", "--from"]) == nil)
        #expect(find(["query", "--store=s", "--format=csv", "-q", "--group-by", "rule"]) == nil)
        #expect(find(["analyze", "-v", "--", "--from"]) == nil)
        #expect(find(["sample", "--out", "x", "--no-noise"]) == nil)
        #expect(find(["--generate-completion-script", "bash"]) == nil)
    }

    /// An option of one value given twice is a usage error naming both values, not the last kept
    /// silently: a second `--config` dropped the first file's rules and exclusions.
    @Test func anOptionOfOneValueGivenTwiceIsAUsageError() throws {
        let result = try HigAuditBinary.run(["analyze", "SampleLogs/night-2026-11-20", "--config", "base.yml", "--config=team.yml"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--config is given more than once ('base.yml' and 'team.yml')"), "\(result.stderr)")
        let commands = HIGAudit.configuration.subcommands
        func find(_ arguments: [String]) -> RepeatedOption? {
            RepeatedOption.find(in: arguments, subcommands: commands, defaultCommand: AnalyzeCommand.self)
        }
        #expect(find(["compare", "--store", "s", "--base", "5.1.0", "--base", "5.2.1", "--head", "5.2.0"])
            == RepeatedOption(command: "compare", option: "base", values: ["5.1.0", "5.2.1"]))
        #expect(find(["logs/", "--format", "csv", "--format", "json"])?.option == "format")
        // Options meant to be repeated, flags, option values and what follows `--` are not counted.
        #expect(find(["logs/", "--rule", "a", "--rule", "b", "--app-version", "5.1", "--app-version", "5.2"]) == nil)
        #expect(find(["query", "--store", "s", "--group-by", "rule", "--group-by", "day"]) == nil)
        #expect(find(["logs/", "-v", "-v", "--quiet", "--quiet"]) == nil)
        #expect(find(["logs/", "--screen", "--config", "--config", "x"]) == nil)
        #expect(find(["logs/", "--config", "a", "--", "--config", "b"]) == nil)
    }

    /// `-` names standard input among inputs; as a file to write it is refused, not made a file named `-`.
    @Test func aDashIsNoFileToWrite() throws {
        let imported = try HigAuditBinary.run(["import", "--from", "posthog", "SampleLogs", "-o", "-"])
        #expect(imported.status == 64 && imported.stderr.contains("would write a file named '-'"), "\(imported.stderr)")
        let baseline = try HigAuditBinary.run(["baseline", "--out", "-", "SampleLogs/night-2026-11-20"])
        #expect(baseline.status == 64 && baseline.stderr.contains("would write a file named '-'"), "\(baseline.stderr)")
        #expect(!FileManager.default.fileExists(atPath: HigAuditBinary.packageRoot.appendingPathComponent("-").path))
    }

    @Test func groupByTakesCommaListsAndRepeats() throws {
        let command = try QueryCommand.parse(["--store", "s", "--group-by", "app_version,day", "--group-by", "rule"])
        #expect(command.groupBy == [.appVersion, .day, .rule])
        #expect(throws: (any Error).self) { try QueryCommand.parse(["--store", "s", "--group-by", "app_version,dy"]) }
        #expect(throws: (any Error).self) { try QueryCommand.parse(["--store", "s", "--sort", "rate"]) }
    }

    @Test func groupedRowsComeWorstFirstUnlessSortedOtherwise() throws {
        let store = try ExampleFixtures.url().appendingPathComponent("results.sqlite").path
        func rows(_ extra: [String]) throws -> [[String]] {
            let result = try HigAuditBinary.run(["query", "--store", store, "--format", "csv"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        }
        let screens = try rows(["--group-by", "screen"])
        #expect(screens.count > 3)
        let violations = screens.map { Int($0[1]) ?? -1 }
        #expect(violations == violations.sorted(by: >), "most violations first: \(violations)")
        let named = try rows(["--group-by", "screen", "--sort", "dimensions"]).map { $0[0] }
        #expect(named == named.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // Days keep their order; within a day, most violations first.
        let days = try rows(["--group-by", "day,rule"])
        #expect(days.map { $0[0] } == days.map { $0[0] }.sorted())
        for day in Set(days.map { $0[0] }) {
            let counts = days.filter { $0[0] == day }.map { Int($0[2]) ?? -1 }
            #expect(counts == counts.sorted(by: >), "\(day): \(counts)")
        }
    }
}
