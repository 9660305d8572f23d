import Foundation
import Testing

/// The ready pipeline in `Pipelines/`: the wrapper reads its YAML, runs the nightly job, exports, and
/// exits with the job's status; a second run finds everything already counted.
@Suite struct PipelineScriptTests {
    @Test func wrapperRunsTheNightlyJobAndExports() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let logs = HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs/night-2026-11-20/2026-11-20/1800").path
        let yaml = """
            # test pipeline
            inputs:
              - \(logs)   # one ten-minute slice of the sample night
            store: state/results.sqlite
            config:
            out: tables
            dashboard: site
            excel_out: excel
            close_open: true
            strict: false
            idle_runs: 2
            verbose: true
            hig_audit: \(HigAuditBinary.executable.path)

            """
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path

        let first = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(first.status == 0 || first.status == 3, "\(first.stderr)")
        #expect(first.stderr.contains("hig-audit-nightly: run committed"))
        #expect(first.stderr.contains(" --idle-runs 2 "), "idle_runs is passed on")
        #expect(first.stderr.contains(" --verbose "), "verbose is passed on")
        #expect(first.stderr.contains(".ndjson.zst: read"), "verbose lists every file")
        for file in ["state/results.sqlite", "tables/summary.csv", "tables/violations.json", "excel/violations.csv", "site/index.html"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file) missing")
        }
        let page = try String(contentsOf: directory.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(page.contains(#"href="../tables/violations.csv""#), "the page links the CSV export beside it")
        let exported = try Data(contentsOf: directory.appendingPathComponent("excel/violations.csv"))
        #expect(exported.starts(with: [0xEF, 0xBB, 0xBF]), "the Excel export starts with a byte order mark")

        let second = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(second.status == 0)
        #expect(second.stderr.contains("0 files read"))
    }

    @Test func aMissingStoreSettingIsFatal() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try "inputs:\n  - /tmp\n".write(to: pipeline, atomically: true, encoding: .utf8)
        let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path
        let result = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("sets no store"))
    }

    // MARK: - The gate, the exit-status policy, CRLF

    /// Two nights of uploads a few sessions long: in the first, haptics play where they are enabled;
    /// in the second (a new release), they play where the user turned them off, in every session.
    private static func writeNight(_ number: Int, into uploads: URL, version: String, hapticsEnabled: Bool) throws {
        let base: Int64 = 1_795_000_000_000 + Int64(number) * 86_400_000
        var lines: [String] = []
        for index in 0..<40 {
            let ts = base + Int64(index) * 60_000, session = "night\(number)-s\(index)"
            lines.append(#"{"ts":\#(ts),"session":"\#(session)","type":"session.start","device":"ipad-\#(index % 5)","app_version":"\#(version)","haptics_enabled":\#(hapticsEnabled)}"#)
            lines.append(#"{"ts":\#(ts + 1000),"session":"\#(session)","type":"haptic","kind":"impact.light"}"#)
            lines.append(#"{"ts":\#(ts + 2000),"session":"\#(session)","type":"session.end"}"#)
        }
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: uploads.appendingPathComponent("night-\(number).ndjson"), atomically: true, encoding: .utf8)
    }

    private static let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path

    private static func pipeline(in directory: URL, _ extra: String = "", lineEnd: String = "\n") throws -> URL {
        let yaml = """
            inputs:
              - uploads
            store: state/results.sqlite
            gate: worse
            \(extra)
            hig_audit: \(HigAuditBinary.executable.path)

            """
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try yaml.replacingOccurrences(of: "\n", with: lineEnd).write(to: pipeline, atomically: true, encoding: .utf8)
        return pipeline
    }

    @Test func theGateEndsAWorseNightWithStatus5AndNamesTheRules() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        let pipeline = try Self.pipeline(in: directory)
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        let first = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("gate: run 1 is the first to close sessions; no night before it to compare"))
        #expect(first.stderr.contains("gate: fewer than two app versions in the store; no release to compare"))

        try Self.writeNight(2, into: uploads, version: "5.2.0", hapticsEnabled: false)
        let second = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(second.status == 5, "\(second.stderr)")
        #expect(second.stderr.contains("gate: worse in run 2 (this night) than in run 1 (the night before): haptic-when-disabled ("))
        #expect(second.stderr.contains("gate: worse in 5.2.0 (the newest release) than in 5.1.0 (the one before): haptic-when-disabled ("))
        #expect(second.stderr.contains("done: status 5 (the gate found a rule worse)"))

        // A night that brings nothing new has no night to compare; the release stays worse.
        let third = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(third.status == 5, "\(third.stderr)")
        #expect(third.stderr.contains("gate: run 3 closed no session; no night to compare"))
    }

    /// `baseline:` and `gate: new`: the store records the baseline, and a night whose violations have
    /// a (rule, screen) pair the baseline lacks ends with status 5 and a line naming the rules.
    @Test func gateNewEndsANightWithNewViolationsWithStatus5() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uploads = directory.appendingPathComponent("uploads")
        try #"{"version": 1, "pairs": []}"#.write(
            to: directory.appendingPathComponent("baseline.json"), atomically: true, encoding: .utf8)
        let pipeline = try Self.pipeline(in: directory, "baseline: baseline.json")
        // The same pipeline, gating on new violations instead of worse rates.
        let yaml = try String(contentsOf: pipeline, encoding: .utf8).replacingOccurrences(of: "gate: worse", with: "gate: new")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let baselinePath = directory.appendingPathComponent("baseline.json").path

        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        let first = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains(" --baseline \(baselinePath) "), "baseline: is passed on")
        #expect(first.stderr.contains("gate: no new violation in run 1 (this night) against \(baselinePath)"), "\(first.stderr)")
        #expect(!first.stderr.contains("gate: worse"), "gate: new alone makes no comparison")

        try Self.writeNight(2, into: uploads, version: "5.2.0", hapticsEnabled: false)
        let second = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(second.status == 5, "\(second.stderr)")
        #expect(second.stderr.contains("gate: new in run 2 (this night) against \(baselinePath): haptic-when-disabled (35) ("), "\(second.stderr)")
        #expect(second.stderr.contains("done: status 5 (the gate found a new violation)"))
        let recorded = try HigAuditBinary.run([
            "query", "--store", directory.appendingPathComponent("state/results.sqlite").path, "--format", "csv",
            "--sql", "SELECT run_id, baseline_path FROM run_judgements ORDER BY run_id",
        ])
        #expect(recorded.stdout == "run_id,baseline_path\r\n1,\(baselinePath)\r\n2,\(baselinePath)\r\n")
    }

    @Test func gateNewWithoutABaselineIsFatal() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try Self.pipeline(in: directory)
        let yaml = try String(contentsOf: pipeline, encoding: .utf8).replacingOccurrences(of: "gate: worse", with: "gate: worse, new")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nightly.yml: gate: new needs baseline:"), "\(result.stderr)")
    }

    /// `compare --base 5.2 --head 5.2.1` shares sessions (5.2 holds 5.2.1) and is refused: the release
    /// gate compares the newest with the newest version that is neither its prefix nor prefixed by it.
    @Test func theReleaseGateSkipsAVersionThatHoldsTheNewest() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        let pipeline = try Self.pipeline(in: directory, "gate_compare: releases")
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        try Self.writeNight(2, into: uploads, version: "5.2", hapticsEnabled: true)
        try Self.writeNight(3, into: uploads, version: "5.2.1", hapticsEnabled: false)
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("gate: worse in 5.2.1 (the newest release) than in 5.1.0 (the one before)"), "\(result.stderr)")
    }

    /// The release gate read the versions from `query`'s CSV, which writes `-5.1.0` as `'-5.1.0` (so
    /// that no spreadsheet runs it) and quotes one with a comma, and passed `--base -5.1.0`, which
    /// reads as an option: a release named so was never compared.
    @Test func theReleaseGateComparesVersionsThatCSVWouldEscape() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        let pipeline = try Self.pipeline(in: directory, "gate_compare: releases")
        try Self.writeNight(1, into: uploads, version: "-5.1.0", hapticsEnabled: true)
        try Self.writeNight(2, into: uploads, version: "=5.2.0, beta", hapticsEnabled: false)
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains(
            "gate: worse in =5.2.0, beta (the newest release) than in -5.1.0 (the one before): haptic-when-disabled ("),
            "\(result.stderr)")
    }

    @Test func theGateComparesOnlyWhatGateCompareLists() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        let pipeline = try Self.pipeline(in: directory, "gate_compare: nights")
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: false)
        #expect(try HigAuditBinary.shell(["bash", Self.script, pipeline.path]).status == 0)
        try Self.writeNight(2, into: uploads, version: "5.2.0", hapticsEnabled: false)
        let second = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(second.status == 0, "as bad as the night before is not worse: \(second.stderr)")
        #expect(second.stderr.contains("gate: no rule worse in run 2 (this night) than in run 1 (the night before)"))
        #expect(!second.stderr.contains("newest release"), "releases are not compared")
    }

    @Test func aPipelineSavedWithCRLFLineEndsIsRead() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        let pipeline = try Self.pipeline(in: directory, "close_open: true", lineEnd: "\r\n")
        #expect(try Data(contentsOf: pipeline).contains(0x0D))
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r"), "no path keeps the carriage return")
        #expect(result.stderr.contains("\(uploads.path) --close-open") || result.stderr.contains("--close-open \(uploads.path)"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("state/results.sqlite").path))
    }

    /// Values in quotes, as YAML writes them, lose their quotes and keep a " #" they hold.
    @Test func quotedValuesAreReadAsYAMLReadsThem() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("up #1")
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        let yaml = """
            inputs:
              - "up #1"   # the night's uploads
            store: 'state/results.sqlite'
            close_open: "true"
            hig_audit: "\(HigAuditBinary.executable.path)"

            """
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("--close-open"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("state/results.sqlite").path))
    }

    @Test func skippedInputIsAWarningUnlessStrict() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        try Self.writeNight(1, into: uploads, version: "5.1.0", hapticsEnabled: true)
        try (#"{"ts":"not a time","session":"x","type":"touch"}"# + "\n").write(
            to: uploads.appendingPathComponent("retried.ndjson"), atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("nightly.log").path
        var pipeline = try Self.pipeline(in: directory)

        // --log (the cron line): a night that skipped input writes its lines there and says nothing.
        let warned = try HigAuditBinary.shell(["bash", Self.script, "--log", journal, pipeline.path])
        #expect(warned.status == 3)
        #expect(warned.stderr.isEmpty, "cron mails nothing for a warning: \(warned.stderr)")
        let logged = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(logged.contains("warning: run 1 skipped input: 1 malformed lines, 0 truncated files, 0 changed files"))
        #expect(logged.contains("done: status 3 (input skipped; a warning, not a failure)"))

        // strict: true makes it a failure, which --log repeats on standard error for cron to mail.
        try "{\"ts\":\"again\"}\n".write(to: uploads.appendingPathComponent("retried-again.ndjson"), atomically: true, encoding: .utf8)
        pipeline = try Self.pipeline(in: directory, "strict: true")
        let failed = try HigAuditBinary.shell(["bash", Self.script, "--log", journal, pipeline.path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("--strict makes that fatal"), "\(failed.stderr)")
        #expect(failed.stderr.contains("run failed with status 1; the store is unchanged"))
    }

    @Test func aMissingExecutableEndsWith127AndSaysSo() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try "inputs:\n  - /tmp\nstore: results.sqlite\nhig_audit: /opt/nowhere/hig-audit\n".write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.shell(["bash", Self.script, pipeline.path])
        #expect(result.status == 127)
        #expect(result.stderr.contains("the hig-audit executable '/opt/nowhere/hig-audit' is not found or not executable (hig_audit: in"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("results.sqlite.lock").path), "nothing was done")
    }

    @Test func aWrongWrapperArgumentIsAUsageError() throws {
        let withoutFile = try HigAuditBinary.shell(["bash", Self.script, "--log"])
        #expect(withoutFile.status == 64)
        #expect(withoutFile.stderr.contains("--log needs a file; usage: hig-audit-nightly.sh [--log FILE] [path/to/nightly.yml]"))
        let unknown = try HigAuditBinary.shell(["bash", Self.script, "--strict", "nightly.yml"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option --strict"))
    }

    /// The wrapper's header, Pipelines/README.md's table, the systemd unit and the cron line name the
    /// same statuses, and agree on which need nobody (0, 3, 75).
    @Test func theWrapperTheUnitsAndTheReadmeAgreeOnTheStatuses() throws {
        let root = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines")
        let script = try String(contentsOf: root.appendingPathComponent("hig-audit-nightly.sh"), encoding: .utf8)
        let header = script.split(separator: "\n").prefix { $0.hasPrefix("#") }
        let scriptStatuses = Set(header.compactMap { line -> Int? in
            let words = line.dropFirst().split(separator: " ")
            return words.count > 1 && line.hasPrefix("#   ") ? Int(words[0]) : nil
        })
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Exit status").dropFirst().first?.components(separatedBy: "\n## ").first)
        let readmeStatuses = Set(section.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("| ") else { return nil }
            return Int(line.dropFirst(2).prefix { $0 != " " })
        })
        #expect(scriptStatuses == [0, 1, 3, 4, 5, 6, 64, 66, 75, 127, 130, 143])
        #expect(readmeStatuses == scriptStatuses)
        let unit = try String(contentsOf: root.appendingPathComponent("hig-audit-nightly.service"), encoding: .utf8)
        #expect(unit.contains("\nSuccessExitStatus=3 75\n"))
        #expect(script.contains("case $status in 0 | 3 | 75) ;;"), "--log is quiet for the same statuses")
        let cron = try String(contentsOf: root.appendingPathComponent("hig-audit.cron"), encoding: .utf8)
        #expect(cron.contains("hig-audit-nightly.sh --log "))
    }
}
