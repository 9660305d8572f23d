import Foundation
import Testing

/// SPEC §5: the exit status tells the caller what happened; nothing but usage, config and output
/// errors aborts a run.
@Suite struct ExitStatusTests {
    static let clean = """
        {"ts":1000,"session":"s1","type":"session.start","device":"d1","app_version":"1.0"}
        {"ts":2000,"session":"s1","type":"haptic","kind":"selection"}
        {"ts":3000,"session":"s1","type":"session.end"}

        """

    @Test func cleanInputExitsZero() throws {
        let result = try HigAuditBinary.run(["analyze", "-", "--table", "summary", "--format", "csv"], stdin: Data(Self.clean.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("rule,severity,violations,sessions_affected,sessions_total,sessions_not_judged,pct_sessions_affected\r\n"))
    }

    @Test func compressedStandardInputIsDetectedByMagicNumber() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let plain = directory.appendingPathComponent("in.ndjson")
        try Self.clean.write(to: plain, atomically: true, encoding: .utf8)
        _ = try HigAuditBinary.shell(["zstd", "-q", plain.path, "-o", directory.appendingPathComponent("in.zst").path])
        let compressed = try Data(contentsOf: directory.appendingPathComponent("in.zst"))
        let result = try HigAuditBinary.run(["analyze", "-", "--table", "ingest", "--format", "json"], stdin: compressed)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"frames\":1"))
        #expect(result.stdout.contains("\"events\":3"))
    }

    @Test func skippedInputExitsThreeAndStillReports() throws {
        let input = Self.clean + "{not json}\n"
        let result = try HigAuditBinary.run(["analyze", "-", "--table", "ingest", "--format", "csv"], stdin: Data(input.utf8))
        #expect(result.status == 3)
        #expect(result.stderr.contains("-:4: malformed line"))
        #expect(result.stdout.contains("files,"))
    }

    @Test func strictMakesSkippedInputFatal() throws {
        let input = Self.clean + "{not json}\n"
        let result = try HigAuditBinary.run(["analyze", "-", "--strict", "--table", "ingest"], stdin: Data(input.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--strict"))
    }

    /// `nightly --strict` writes nothing when it skips input: not the store it would have made, and
    /// not one byte of a store that was there.
    @Test func strictNightlyLeavesNoStoreBehind() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let clean = directory.appendingPathComponent("clean.ndjson")
        let damaged = directory.appendingPathComponent("damaged.ndjson")
        try Self.clean.write(to: clean, atomically: true, encoding: .utf8)
        try (Self.clean + "{not json}\n").write(to: damaged, atomically: true, encoding: .utf8)
        let stores = directory.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let store = stores.appendingPathComponent("results.sqlite").path

        let first = try HigAuditBinary.run(["nightly", "--store", store, "--strict", damaged.path, "--quiet"])
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("--strict makes that fatal; the store is unchanged"), "\(first.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.path).isEmpty, "the store this run made is gone")

        #expect(try HigAuditBinary.run(["nightly", "--store", store, clean.path, "--quiet"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try HigAuditBinary.run(["nightly", "--store", store, "--strict", damaged.path, "--quiet"])
        #expect(again.status == 1, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store is byte for byte as before")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.path) == ["results.sqlite"], "no journal left")
    }

    /// Fatal (66) by default (`MissingInputTests`); with `--allow-missing`, skipped input.
    @Test func missingInputIsReportedAndCountedWhenAllowed() throws {
        let result = try HigAuditBinary.run(["analyze", "--allow-missing", "/nonexistent/logs.zst", "-", "--table", "ingest", "--format", "csv"],
                                            stdin: Data(Self.clean.utf8))
        #expect(result.status == 3)
        #expect(result.stderr.contains("/nonexistent/logs.zst"))
        #expect(result.stdout.contains(",1\r\n"), "faults column counts the missing file")
    }

    @Test func unreadableConfigIsFatalAndNamesTheKey() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let config = directory.appendingPathComponent("bad.yml")
        try "rules:\n  haptic-overuse:\n    burst_count: many\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", "-", "--config", config.path], stdin: Data(Self.clean.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.yml"))
        #expect(result.stderr.contains("rules.haptic-overuse.burst_count"))
    }

    @Test func configChangesRuleParameters() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let config = directory.appendingPathComponent("tight.yml")
        try "rules:\n  haptic-overuse:\n    burst_count: 1\n".write(to: config, atomically: true, encoding: .utf8)
        let tooSmall = try HigAuditBinary.run(["analyze", "-", "--config", config.path], stdin: Data(Self.clean.utf8))
        #expect(tooSmall.status == 1, "burst_count below its minimum of 2 is refused")
        try "rules:\n  haptic-overuse:\n    enabled: false\n".write(to: config, atomically: true, encoding: .utf8)
        let disabled = try HigAuditBinary.run(["analyze", "-", "--config", config.path, "--table", "summary", "--format", "csv"],
                                              stdin: Data(Self.clean.utf8))
        #expect(disabled.status == 0)
        #expect(!disabled.stdout.contains("haptic-overuse"))
    }

    @Test func usageErrorsExitSixtyFour() throws {
        #expect(try HigAuditBinary.run(["analyze"]).status == 64)
        #expect(try HigAuditBinary.run(["analyze", "-", "--rule", "no-such-rule"]).status == 64)
        #expect(try HigAuditBinary.run(["analyze", "-", "--table", "summary", "--table", "ingest", "--format", "csv"]).status == 64)
    }

    @Test func unwritableOutputIsFatal() throws {
        let result = try HigAuditBinary.run(["analyze", "-", "--out", "/proc/hig-audit-cannot-write-here"], stdin: Data(Self.clean.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("hig-audit: error:"))
    }

    @Test func outWritesEveryTableAsCSVAndJSON() throws {
        let directory = try HigAuditBinary.temporaryDirectory().appendingPathComponent("results")
        let result = try HigAuditBinary.run(
            ["analyze", GoldenOutputTests.fixture, "--out", directory.path, "--table", "summary"])
        #expect(result.status == 3)
        for table in ["violations", "summary", "by_version", "by_screen", "haptics", "ingest", "unknown_types", "worst_screens"] {
            for format in ["csv", "json"] {
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(table).\(format)").path))
            }
        }
        let violations = try String(contentsOf: directory.appendingPathComponent("violations.csv"), encoding: .utf8)
        let golden = try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/violations.csv"), encoding: .utf8)
        #expect(violations == golden)
    }

    @Test func directoriesAreReadInPathOrderAsOneStream() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("b"), withIntermediateDirectories: true)
        // The session starts in a/1.ndjson and continues in b/2.jsonl; notes.txt is not a log.
        try "{\"ts\":1000,\"session\":\"s\",\"type\":\"session.start\"}\n".write(
            to: directory.appendingPathComponent("a-1.ndjson"), atomically: true, encoding: .utf8)
        try "{\"ts\":5000,\"session\":\"s\",\"type\":\"nav.tab_switch\",\"from\":\"tab:A\",\"to\":\"tab:B\"}\n".write(
            to: directory.appendingPathComponent("b/2.jsonl"), atomically: true, encoding: .utf8)
        try "not a log".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", directory.path, "--table", "violations", "--format", "csv"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("forced-tab-switch,error,s,"))
        #expect(result.stdout.contains("\(directory.path)/b/2.jsonl:1"))
    }

    @Test func helpExplainsEveryOptionWithAnExample() throws {
        let help = try HigAuditBinary.run(["analyze", "--help"]).stdout
        for option in ["--table", "--format", "--out", "--config", "--dictionary", "--max-window-log", "--malformed-report",
                       "--strict", "--rule", "--app-version", "--screen", "--session", "--device", "--since", "--until",
                       "--max-lateness-ms", "--session-gap-ms", "--color"] {
            #expect(help.contains(option), "analyze --help must explain \(option)")
        }
        #expect(help.contains("Examples:"))
        #expect(help.contains("Exit status: 0"))
        let root = try HigAuditBinary.run(["--help"]).stdout
        for command in ["analyze", "rules", "sample"] { #expect(root.contains(command)) }
    }

    @Test func rulesListsEveryRuleAndTheDefaultsConfigLoadsBack() throws {
        let listing = try HigAuditBinary.run(["rules", "--format", "json"])
        #expect(listing.status == 0)
        for rule in ["haptic-overuse", "forced-tab-switch", "modal-depth", "modal-over-popover", "destructive-double-tap",
                     "pencil-preference-ignored"] {
            #expect(listing.stdout.contains("\"rule\":\"\(rule)\""))
        }
        let defaults = try HigAuditBinary.run(["rules", "--defaults"])
        let directory = try HigAuditBinary.temporaryDirectory()
        let config = directory.appendingPathComponent("defaults.yml")
        try defaults.stdout.write(to: config, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", GoldenOutputTests.fixture, "--config", config.path,
                                             "--table", "violations", "--format", "csv"])
        let golden = try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/violations.csv"), encoding: .utf8)
        #expect(result.stdout == golden)
        // The config is YAML whatever is asked: another format with it is a usage error, not ignored.
        let asJSON = try HigAuditBinary.run(["rules", "--defaults", "--format", "json"])
        #expect(asJSON.status == 64 && asJSON.stdout.isEmpty, "\(asJSON.stdout)")
        #expect(asJSON.stderr.contains("--format json does not apply"), "\(asJSON.stderr)")
    }

    /// Every format of the listing cites Apple's public guidelines, never the contract's seed texts,
    /// whose file names and French, Chinese and Russian quotes users do not have (SPEC "Guideline sources").
    @Test(arguments: ["table", "csv", "json", "markdown"])
    func rulesCiteApplesGuidelinesPagesInEveryFormat(format: String) throws {
        let listing = try HigAuditBinary.run(["rules", "--format", format])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("Playing haptics") && listing.stdout.contains("Apple Pencil and Scribble"))
        if format != "table" {
            #expect(listing.stdout.contains("https://developer.apple.com/design/human-interface-guidelines/tab-bars"))
            #expect(listing.stdout.contains("Never use the Apple Pencil double-tap gesture to perform an action that changes content."))
        }
        #expect(!listing.stdout.contains(".txt") && !listing.stdout.contains("seed"))
        #expect(listing.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "English only")
    }

    @Test func filtersSelectViolations() throws {
        let result = try HigAuditBinary.run(["analyze", GoldenOutputTests.fixture, "--table", "violations", "--format", "csv",
                                             "--rule", "modal-depth", "--app-version", "5.2.0"])
        let rows = result.stdout.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasPrefix("modal-depth,warning,s-alpha,") })
        let since = try HigAuditBinary.run(["analyze", GoldenOutputTests.fixture, "--table", "violations", "--format", "csv",
                                            "--session", "s-bravo", "--since", "2026-11-20T21:00:05Z"])
        #expect(since.stdout.split(separator: "\r\n").count == 1 + 2, "haptic-when-disabled at 07.000 and haptic-mismatch at 08.100")
    }
}

/// The progress line is for people: drawn on a terminal, never into a pipe or a file.
@Suite struct ProgressLineTests {
    @Test func progressIsDrawnOnlyWhenStandardErrorIsATerminal() throws {
        let command = "\(HigAuditBinary.executable.path) analyze SampleLogs/damaged SampleLogs/night-2026-11-20/2026-11-20/1800 --table ingest"
        // util-linux `script` runs the command on a pseudo-terminal and copies what it printed.
        let onTerminal = try HigAuditBinary.shell(["script", "-qec", command, "/dev/null"])
        #expect(onTerminal.stdout.contains("MB read"))
        let piped = try HigAuditBinary.run(["analyze", "SampleLogs/damaged", "--table", "ingest"])
        #expect(!piped.stderr.contains("MB read"))
    }
}
