import Foundation
import Testing

/// SPEC §6 baselines end to end on two held-out corpora (`hig-audit sample`, seeds 1 and 2): a baseline
/// from one marks as new exactly the other's violations whose `(rule, screen)` pair it lacks, changes
/// no count, and `--fail-on new` exits 5 only then; the file is stable; bad files are refused; `query`
/// reads a store against it as `analyze` reads the logs.
@Suite(.serialized) struct BaselineCommandTests {
    struct Corpora {
        let directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    /// Corpora `a` and `b`, the baseline of `a` (`a.json`) and a store of `b` (`b.sqlite`), made once.
    static let corpora: Result<Corpora, any Error> = Result {
        let directory = try HigAuditBinary.temporaryDirectory()
        // Made once for the whole test run, so removed when the test process ends.
        baselineCorporaRoot = directory.path
        atexit {
            if let root = baselineCorporaRoot { try? FileManager.default.removeItem(atPath: root) }
        }
        let corpora = Corpora(directory: directory)
        for (name, seed) in [("a", "1"), ("b", "2")] {
            let made = try HigAuditBinary.run([
                "sample", "--out", corpora.path(name), "--sessions", "60", "--days", "1", "--no-noise", "--seed", seed, "--quiet",
            ])
            try #require(made.status == 0, "sample: \(made.stderr)")
        }
        let baseline = try HigAuditBinary.run(["baseline", "--out", corpora.path("a.json"), corpora.path("a"), "--quiet"])
        try #require(baseline.status == 0, "baseline: \(baseline.stderr)")
        let nightly = try HigAuditBinary.run(["nightly", "--store", corpora.path("b.sqlite"), "--close-open", "--quiet", corpora.path("b")])
        try #require(nightly.status == 0, "nightly: \(nightly.stderr)")
        return corpora
    }

    /// The violations of a `--format json --table violations` output, as dictionaries.
    static func violations(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["violations"] as? [[String: Any]])
    }

    static func pair(_ violation: [String: Any]) -> String {
        "\(violation["rule"] as? String ?? "?")\u{0}\(violation["screen"] as? String ?? "?")"
    }

    /// The summary's `new_violations` per rule, from `--format json --table summary`.
    static func newViolations(_ json: String) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let rows = try #require(object?["summary"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: try rows.map { row in
            (try #require(row["rule"] as? String), try #require(row["new_violations"] as? Int))
        })
    }

    @Test func aBaselineFromOneCorpusMarksNewExactlyTheOtherCorpussViolationsWhosePairItLacks() throws {
        let corpora = try Self.corpora.get()
        let pairsOfA = Set(try Self.violations(
            HigAuditBinary.run([corpora.path("a"), "--table", "violations", "--format", "json"]).stdout).map(Self.pair))
        let plain = try HigAuditBinary.run([corpora.path("b"), "--table", "violations", "--format", "json"])
        let marked = try HigAuditBinary.run([
            corpora.path("b"), "--table", "violations", "--format", "json", "--baseline", corpora.path("a.json"),
        ])
        #expect(marked.status == 0, "\(marked.stderr)")
        let before = try Self.violations(plain.stdout), after = try Self.violations(marked.stdout)
        // The same violations in the same order, each with `new` true exactly when A lacks its pair.
        #expect(after.count == before.count)
        #expect(after.map(Self.pair) == before.map(Self.pair))
        let expected = before.map { !pairsOfA.contains(Self.pair($0)) }
        #expect(after.map { $0["new"] as? Bool } == expected.map { $0 })
        #expect(expected.contains(true) && expected.contains(false), "the seeds give both known and new violations")

        // summary: new_violations per rule is the count of those, and no other column changes.
        let summary = try HigAuditBinary.run([
            corpora.path("b"), "--table", "summary", "--format", "json", "--baseline", corpora.path("a.json"),
        ])
        var newByRule: [String: Int] = [:]
        for (violation, isNew) in zip(before, expected) where isNew { newByRule[violation["rule"] as? String ?? "?", default: 0] += 1 }
        #expect(try Self.newViolations(summary.stdout).filter { $0.value > 0 } == newByRule)
        let plainSummary = try HigAuditBinary.run([corpora.path("b"), "--table", "summary", "--format", "csv"]).stdout
        let markedSummary = try HigAuditBinary.run([
            corpora.path("b"), "--table", "summary", "--format", "csv", "--baseline", corpora.path("a.json"),
        ]).stdout
        let withoutNewColumn = markedSummary.split(separator: "\r\n").map { line in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false)
            fields.remove(at: 3)
            return fields.joined(separator: ",")
        }
        #expect(withoutNewColumn == plainSummary.split(separator: "\r\n").map(String.init))
        #expect(markedSummary.hasPrefix("rule,severity,violations,new_violations,sessions_affected,"))
    }

    @Test func failOnNewExitsFiveAfterWritingWhenAViolationIsNewAndZeroOtherwise() throws {
        let corpora = try Self.corpora.get()
        let out = corpora.path("out-b")
        let failing = try HigAuditBinary.run([
            corpora.path("b"), "--baseline", corpora.path("a.json"), "--fail-on", "new", "--out", out, "--table", "summary",
        ])
        #expect(failing.status == 5, "\(failing.stderr)")
        #expect(failing.stderr.contains("new violations (--fail-on new): "))
        #expect(failing.stdout.contains("new_violations"))
        let written = try String(contentsOfFile: out + "/violations.csv", encoding: .utf8)
        #expect(written.hasPrefix("rule,severity,session,device,app_version,screen,start_ts,end_ts,count,detail,source,new\r\n"))

        let passing = try HigAuditBinary.run([corpora.path("a"), "--baseline", corpora.path("a.json"), "--fail-on", "new"])
        #expect(passing.status == 0, "\(passing.stderr)")
    }

    /// SPEC §5: a failed gate outranks skipped input; the damaged sample night skips input (3).
    @Test func aNewViolationOutranksSkippedInput() throws {
        let corpora = try Self.corpora.get()
        let empty = corpora.path("empty.json")
        try Data(#"{"version": 1, "pairs": []}"#.utf8).write(to: URL(fileURLWithPath: empty))
        let night = HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs/night-2026-11-20").path
        let gated = try HigAuditBinary.run([night, "--baseline", empty, "--fail-on", "new", "--table", "summary", "--quiet"])
        #expect(gated.status == 5)
        let ungated = try HigAuditBinary.run([night, "--baseline", empty, "--table", "summary", "--quiet"])
        #expect(ungated.status == 3)
    }

    @Test func theBaselineFileIsStableAndSorted() throws {
        let corpora = try Self.corpora.get()
        let again = corpora.path("a-again.json")
        let result = try HigAuditBinary.run(["baseline", "--out", again, corpora.path("a"), "--jobs", "1", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let first = try Data(contentsOf: URL(fileURLWithPath: corpora.path("a.json")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == first)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"pairs\": [\n") && text.hasSuffix("\n  ]\n}\n"))
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("    {\"rule\": ") }
        let keys = lines.map { Array($0.utf8) }
        #expect(keys.count > 5)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }

    @Test func badBaselinesAreRefusedBeforeAnyReading() throws {
        let corpora = try Self.corpora.get()
        let missing = try HigAuditBinary.run([corpora.path("b"), "--baseline", corpora.path("none.json")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot use the baseline \(corpora.path("none.json")): no such file"))
        for (name, text) in [("garbage.json", "pairs: []"), ("v2.json", #"{"version": 2, "pairs": []}"#)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: corpora.path(name)))
            let refused = try HigAuditBinary.run([corpora.path("b"), "--baseline", corpora.path(name)])
            #expect(refused.status == 1, "\(name)")
            #expect(refused.stderr.contains("cannot use the baseline \(corpora.path(name))"), "\(refused.stderr)")
            let query = try HigAuditBinary.run(["query", "--store", corpora.path("b.sqlite"), "--baseline", corpora.path(name)])
            #expect(query.status == 1, "\(name)")
        }
        let noBaseline = try HigAuditBinary.run([corpora.path("b"), "--fail-on", "new"])
        #expect(noBaseline.status == 64)
        #expect(noBaseline.stderr.contains("--fail-on new needs --baseline FILE"))
    }

    @Test func queryMarksTheStoreAsAnalyzeMarksTheLogs() throws {
        let corpora = try Self.corpora.get()
        let analyze = try HigAuditBinary.run([
            corpora.path("b"), "--table", "violations", "--format", "json", "--baseline", corpora.path("a.json"),
        ])
        let query = try HigAuditBinary.run([
            "query", "--store", corpora.path("b.sqlite"), "--table", "violations", "--format", "json", "--baseline", corpora.path("a.json"),
        ])
        #expect(query.status == 0, "\(query.stderr)")
        let fromLogs = try Self.violations(analyze.stdout), fromStore = try Self.violations(query.stdout)
        #expect(fromStore.count == fromLogs.count)
        #expect(fromStore.map { "\(Self.pair($0)) \($0["new"] as? Bool ?? false)" } == fromLogs.map { "\(Self.pair($0)) \($0["new"] as? Bool ?? false)" })

        let out = corpora.path("query-out")
        let gate = try HigAuditBinary.run([
            "query", "--store", corpora.path("b.sqlite"), "--baseline", corpora.path("a.json"), "--fail-on", "new", "--out", out,
        ])
        #expect(gate.status == 5)
        #expect(gate.stdout.contains("new_violations"))
        let written = try String(contentsOfFile: out + "/violations.csv", encoding: .utf8)
        #expect(written.hasPrefix("rule,severity,session,device,app_version,screen,start_ts,end_ts,count,detail,source,new\r\n"))
        #expect(try String(contentsOfFile: out + "/summary.csv", encoding: .utf8).contains(",new_violations,"))

        // A baseline taken from the store equals the one taken from the same logs, byte for byte.
        let fromStoreFile = corpora.path("b-store.json"), fromLogsFile = corpora.path("b-logs.json")
        #expect(try HigAuditBinary.run(["baseline", "--out", fromStoreFile, "--store", corpora.path("b.sqlite")]).status == 0)
        #expect(try HigAuditBinary.run(["baseline", "--out", fromLogsFile, corpora.path("b")]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fromStoreFile)) == Data(contentsOf: URL(fileURLWithPath: fromLogsFile)))
        let own = try HigAuditBinary.run(["query", "--store", corpora.path("b.sqlite"), "--baseline", fromStoreFile, "--fail-on", "new"])
        #expect(own.status == 0, "\(own.stderr)")

        let combined = try HigAuditBinary.run(["query", "--store", corpora.path("b.sqlite"), "--baseline", fromStoreFile, "--group-by", "rule"])
        #expect(combined.status == 64)
    }
}

/// The corpora's folder, for the `atexit` handler (which cannot capture it).
nonisolated(unsafe) private var baselineCorporaRoot: String?
