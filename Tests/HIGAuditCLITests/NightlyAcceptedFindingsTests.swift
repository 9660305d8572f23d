import Foundation
import Testing

/// SPEC §6 in the nightly store: a run applies the config's `exclude:` entries and records what it
/// suppressed as judged that night, records the config's fingerprint and the baseline it was given,
/// and `nightly`, `export` and `dashboard` read baselines as `analyze` and `query` do.
@Suite struct NightlyAcceptedFindingsTests {
    static let fixture = GoldenOutputTests.fixture
    static let today = ["HIG_AUDIT_TODAY": "2026-11-28"]

    struct Workspace {
        let directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    private func withWorkspace(_ body: (Workspace) throws -> Void) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let workspace = Workspace(directory: directory)
        try ExclusionCommandTests.config.write(toFile: workspace.path("hig-audit.yml"), atomically: true, encoding: .utf8)
        try body(workspace)
    }

    private static func csvRows(_ text: String) -> [String] { text.split(separator: "\r\n").map(String.init) }

    @Test func nightlyStoresExactlyTheMatchingViolationsAsSuppressed() throws {
        try withWorkspace { workspace in
            let config = workspace.path("hig-audit.yml"), store = workspace.path("results.sqlite")
            let night = try HigAuditBinary.run(
                ["nightly", "--store", store, "--config", config, "--close-open", Self.fixture], environment: Self.today)
            #expect(night.status == 3, "\(night.stderr)")
            #expect(!night.stderr.contains("does not apply"), "nightly applies the entries now")
            #expect(night.stderr.contains(" violations, 2 suppressed\n"), "\(night.stderr)")

            // Exactly the violations the entry names: haptics on the canvas of 5.1 (session s-bravo).
            let flagged = try HigAuditBinary.run([
                "query", "--store", store, "--format", "csv",
                "--sql", "SELECT session, screen, rule FROM violations WHERE suppressed = 1 ORDER BY rule",
            ])
            #expect(Self.csvRows(flagged.stdout) == [
                "session,screen,rule", "s-bravo,canvas,haptic-overuse", "s-bravo,canvas,haptic-when-disabled",
            ])

            // The store's tables are analyze's with the same config: summary with its suppressed column,
            // the violations without the suppressed ones, or flagged with --show-suppressed.
            for (table, extra) in [("summary", [String]()), ("violations", []), ("violations", ["--show-suppressed"])] {
                let analyzed = try HigAuditBinary.run(
                    ["analyze", Self.fixture, "--config", config, "--table", table, "--format", "csv"] + extra, environment: Self.today)
                let queried = try HigAuditBinary.run(["query", "--store", store, "--table", table, "--format", "csv"] + extra)
                #expect(queried.status == 0, "\(queried.stderr)")
                #expect(queried.stdout == analyzed.stdout, "\(table) \(extra)")
            }
            let summary = Self.csvRows(try HigAuditBinary.run(["query", "--store", store, "--table", "summary", "--format", "csv"]).stdout)
            #expect(summary.contains("haptic-overuse,warning,1,1,2,0,50.00,1"))
            // compare and --group-by leave them out too.
            let grouped = try HigAuditBinary.run(["query", "--store", store, "--group-by", "rule", "--format", "csv"])
            #expect(grouped.stdout.contains("\r\nhaptic-overuse,1,1,2,50.00\r\n"), "\(grouped.stdout)")
        }
    }

    @Test func aNightKeepsItsJudgementWhenTheConfigChanges() throws {
        try withWorkspace { workspace in
            let config = workspace.path("hig-audit.yml"), store = workspace.path("results.sqlite")
            _ = try HigAuditBinary.run(["nightly", "--store", store, "--config", config, "--close-open", Self.fixture], environment: Self.today)
            // The next night runs without the entries, over another file: night 1 stays as judged.
            try "rules: {}\n".write(toFile: config, atomically: true, encoding: .utf8)
            let other = workspace.path("night-2.ndjson")
            try #"{"ts":1795000000000,"session":"n2","type":"session.start","device":"d9","app_version":"5.1"}"#
                .appending("\n").write(toFile: other, atomically: true, encoding: .utf8)
            let second = try HigAuditBinary.run(["nightly", "--store", store, "--config", config, "--close-open", other], environment: Self.today)
            #expect(second.status == 0, "\(second.stderr)")
            let summary = Self.csvRows(try HigAuditBinary.run(["query", "--store", store, "--table", "summary", "--format", "csv"]).stdout)
            #expect(summary.first?.hasSuffix(",suppressed") == true)
            #expect(summary.contains("haptic-overuse,warning,1,1,3,0,33.33,1"), "\(summary)")
        }
    }

    @Test func anExpiredEntryDoesNotApplyAndIsSaidOnceWithItsLine() throws {
        try withWorkspace { workspace in
            let config = workspace.path("hig-audit.yml"), store = workspace.path("results.sqlite")
            let night = try HigAuditBinary.run(
                ["nightly", "--store", store, "--config", config, "--close-open", Self.fixture], environment: Self.today)
            let warning = "hig-audit: warning: the exclusion at \(config):6 expired after 2026-01-01 (its until); it no longer suppresses anything\n"
            #expect(night.stderr.components(separatedBy: warning).count == 2, "\(night.stderr)")
            let summary = Self.csvRows(try HigAuditBinary.run(["query", "--store", store, "--table", "summary", "--format", "csv"]).stdout)
            #expect(summary.contains("modal-depth,warning,2,1,2,0,50.00,0"))
            let entries = try HigAuditBinary.run([
                "query", "--store", store, "--format", "csv",
                "--sql", "SELECT entry, location, rules, until, in_force, reason FROM run_exclusions ORDER BY entry",
            ])
            #expect(Self.csvRows(entries.stdout) == [
                "entry,location,rules,until,in_force,reason",
                #"1,\#(config):2,"[""haptic-overuse"",""haptic-when-disabled""]",,1,the canvas plays haptics on purpose"#,
                #"2,\#(config):6,"[""modal-depth""]",2026-01-01,0,the export flow is being redesigned"#,
            ])
            // For scripts, whether an entry was in force is a JSON boolean.
            let judgements = try HigAuditBinary.run(["query", "--store", store, "--judgements", "--format", "json"])
            let inForce = judgements.stdout.matches(of: #/"in_force":([a-z0-9"]+)/#).map { String($0.1) }
            #expect(inForce == ["true", "false"], "\(judgements.stdout)")
        }
    }

    @Test func eachRunRecordsItsConfigFingerprintAndBaseline() throws {
        try withWorkspace { workspace in
            let config = workspace.path("hig-audit.yml"), store = workspace.path("results.sqlite")
            let baseline = workspace.path("baseline.json")
            try #"{"version": 1, "pairs": [{"rule": "modal-depth", "screen": "export"}]}"#.write(toFile: baseline, atomically: true, encoding: .utf8)
            _ = try HigAuditBinary.run(
                ["nightly", "--store", store, "--config", config, "--baseline", baseline, "--close-open", Self.fixture],
                environment: Self.today)
            let digest = { (path: String) throws -> String in
                String(try HigAuditBinary.shell(["sha256sum", path]).stdout.prefix(64))
            }
            let runs = try HigAuditBinary.run(["query", "--store", store, "--judgements", "--format", "csv"])
            #expect(runs.status == 0, "\(runs.stderr)")
            let rows = Self.csvRows(runs.stdout)
            #expect(rows.first == "run_id,started_at,violations,suppressed,exclusions_in_force,exclusions_expired,config_sha256,baseline,baseline_sha256,baseline_pairs")
            let fields = rows.dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(fields.count == 10)
            #expect(fields.first == "1")
            #expect(Array(fields.dropFirst(3)) == ["2", "1", "1", try digest(config), baseline, try digest(baseline), "1"], "\(rows)")

            // A run without these keys records that it had none, and shows no suppressed column.
            let plainStore = workspace.path("plain.sqlite")
            _ = try HigAuditBinary.run(["nightly", "--store", plainStore, Self.fixture])
            let plain = Self.csvRows(try HigAuditBinary.run(["query", "--store", plainStore, "--judgements", "--format", "csv"]).stdout)
            #expect(plain.dropFirst().first?.hasSuffix(",0,0,0,,,,") == true, "\(plain)")
            let table = try HigAuditBinary.run(["query", "--store", plainStore, "--judgements"])
            #expect(table.stdout.contains("exclusions"), "the terminal gets the entries' table too")
        }
    }

    @Test func withoutTheseKeysTheStoresTablesAndPageAreAsBefore() throws {
        try withWorkspace { workspace in
            let store = workspace.path("results.sqlite")
            _ = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", "--dashboard", workspace.path("site"), Self.fixture])
            for table in ["summary", "violations"] {
                let analyzed = try HigAuditBinary.run(["analyze", Self.fixture, "--table", table, "--format", "csv"])
                let queried = try HigAuditBinary.run(["query", "--store", store, "--table", table, "--format", "csv"])
                #expect(queried.stdout == analyzed.stdout)
                #expect(!queried.stdout.contains("suppressed"))
            }
            let page = try String(contentsOfFile: workspace.path("site/index.html"), encoding: .utf8)
            #expect(!page.contains("Accepted findings"))
        }
    }

    @Test func theDashboardShowsSuppressedCountsAndEscapedReasons() throws {
        try withWorkspace { workspace in
            let config = workspace.path("hig-audit.yml"), store = workspace.path("results.sqlite")
            try ExclusionCommandTests.config.replacingOccurrences(
                of: "reason: the canvas plays haptics on purpose", with: #"reason: "<b>canvas</b> & \"haptics\"""#)
                .write(toFile: config, atomically: true, encoding: .utf8)
            let night = try HigAuditBinary.run(
                ["nightly", "--store", store, "--config", config, "--close-open", "--dashboard", workspace.path("site"), Self.fixture],
                environment: Self.today)
            #expect(night.status == 3, "\(night.stderr)")
            let page = try String(contentsOfFile: workspace.path("site/index.html"), encoding: .utf8)
            #expect(page.contains(#"<section id="accepted">"#))
            #expect(page.contains(#"<tr><td><code>haptic-overuse</code></td><td class="num">1</td></tr>"#), "\(page)")
            #expect(page.contains("&lt;b&gt;canvas&lt;/b&gt; &amp; &quot;haptics&quot;"))
            #expect(!page.contains("<b>canvas</b>"))
            #expect(page.contains("<td>expired</td>"))

            // With --baseline, the page counts new violations per rule.
            let baseline = workspace.path("baseline.json")
            try #"{"version": 1, "pairs": []}"#.write(toFile: baseline, atomically: true, encoding: .utf8)
            let dashboard = try HigAuditBinary.run(
                ["dashboard", "--store", store, "--out", workspace.path("site2"), "--baseline", baseline])
            #expect(dashboard.status == 0, "\(dashboard.stderr)")
            let marked = try String(contentsOfFile: workspace.path("site2/index.html"), encoding: .utf8)
            #expect(marked.contains(#"<tr><td><code>modal-depth</code></td><td class="num">0</td><td class="num verdict-worse">2</td></tr>"#), "\(marked)")
        }
    }
}

/// A baseline taken from night 1 gates night 2: `nightly --baseline --fail-on new` and `export
/// --baseline --fail-on new` on the held-out corpora of `BaselineCommandTests`.
@Suite(.serialized) struct NightlyBaselineGateTests {
    @Test func aBaselineFromNightOneMarksNewExactlyNightTwosViolationsWhosePairItLacks() throws {
        let corpora = try BaselineCommandTests.corpora.get()
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("nights.sqlite").path
        let baseline = directory.appendingPathComponent("night-1.json").path
        let first = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", "--quiet", corpora.path("a")])
        #expect(first.status == 0, "\(first.stderr)")
        let made = try HigAuditBinary.run(["baseline", "--out", baseline, "--store", store, "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any]
        let pairs = Set(((file?["pairs"] as? [[String: String]]) ?? []).map { "\($0["rule"] ?? "?")\u{0}\($0["screen"] ?? "?")" })
        #expect(!pairs.isEmpty)

        // Night 1 against its own baseline: nothing new.
        let same = try HigAuditBinary.run([
            "export", "--store", store, "--out", directory.appendingPathComponent("night-1").path,
            "--baseline", baseline, "--fail-on", "new", "--quiet",
        ])
        #expect(same.status == 0, "\(same.stderr)")

        let out = directory.appendingPathComponent("tables").path
        let second = try HigAuditBinary.run([
            "nightly", "--store", store, "--close-open", "--baseline", baseline, "--fail-on", "new", "--out", out, corpora.path("b"),
        ])
        #expect(second.status == 5, "\(second.stderr)")
        #expect(second.stderr.contains("hig-audit: new violations (--fail-on new): "), "\(second.stderr)")
        #expect(second.stderr.contains("run 2 committed"), "the gate comes after the commit")
        #expect(FileManager.default.fileExists(atPath: out + "/violations.json"), "and after every output")

        // Night 2's violations, marked: new exactly when the baseline lacks the pair.
        let night2 = try HigAuditBinary.run([
            "query", "--store", store, "--run", "2", "--table", "violations", "--format", "json", "--baseline", baseline,
        ])
        let violations = try BaselineCommandTests.violations(night2.stdout)
        #expect(!violations.isEmpty)
        let expected = violations.map { !pairs.contains(BaselineCommandTests.pair($0)) }
        #expect(violations.map { $0["new"] as? Bool } == expected.map { $0 })
        #expect(expected.contains(true) && expected.contains(false))

        // export marks as query does, and its gate exits 5 after writing every file.
        let exportDirectory = directory.appendingPathComponent("night-2").path
        let exported = try HigAuditBinary.run([
            "export", "--store", store, "--run", "2", "--out", exportDirectory, "--baseline", baseline, "--fail-on", "new", "--quiet",
        ])
        #expect(exported.status == 5, "\(exported.stderr)")
        let summary = try String(contentsOfFile: exportDirectory + "/summary.csv", encoding: .utf8)
        #expect(summary.hasPrefix("rule,severity,violations,new_violations,"))
        let exportedViolations = try String(contentsOfFile: exportDirectory + "/violations.csv", encoding: .utf8)
        #expect(exportedViolations.split(separator: "\r\n").count == violations.count + 1)
        #expect(exportedViolations.split(separator: "\r\n").dropFirst().filter { $0.hasSuffix(",true") }.count == expected.filter { $0 }.count)

        // The run recorded the baseline it was given.
        let judged = try HigAuditBinary.run([
            "query", "--store", store, "--format", "csv", "--sql", "SELECT run_id, baseline_path, baseline_pairs FROM run_judgements ORDER BY run_id",
        ])
        #expect(judged.stdout == "run_id,baseline_path,baseline_pairs\r\n1,,\r\n2,\(baseline),\(pairs.count)\r\n")
    }

    @Test func failOnNewNeedsABaselineThatCanBeRead() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("results.sqlite").path
        let result = try HigAuditBinary.run(["nightly", "--store", store, "--fail-on", "new", GoldenOutputTests.fixture])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--fail-on new needs --baseline FILE"))
        // A baseline that cannot be read is fatal before anything is read or committed.
        let missing = directory.appendingPathComponent("missing.json").path
        let unread = try HigAuditBinary.run(["nightly", "--store", store, "--baseline", missing, GoldenOutputTests.fixture])
        #expect(unread.status == 1)
        #expect(unread.stderr.contains(missing), "\(unread.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
