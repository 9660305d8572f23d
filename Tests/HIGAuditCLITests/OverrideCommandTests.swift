import Foundation
import Testing

/// `overrides:` end to end (SPEC §6): in `analyze` on the golden fixture, and on the sample night in
/// every way a run can be made — `--jobs`, `nightly`, shards merged — with the same tables.
@Suite struct OverrideCommandTests {
    static let fixture = GoldenOutputTests.fixture

    private func withConfig(_ text: String, _ body: (String) throws -> Void) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hig-audit.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try body(path)
    }

    /// The fixture's canvas plays a long haptic on purpose, its library loads slowly, and switching tabs
    /// from the library is how that screen works: those three violations go, every other stays.
    @Test func analyzeJudgesMatchingScreensWithTheirValues() throws {
        let config = """
            overrides:
              - screens: ["can*"]
                rules:
                  haptic-overuse:
                    max_duration_ms: 5000
              - screens: [library]
                rules:
                  loading-without-indicator:
                    max_ms: 3000
                  forced-tab-switch:
                    enabled: false
            """
        try withConfig(config) { path in
            let plain = try HigAuditBinary.run(["analyze", Self.fixture, "--table", "violations", "--format", "csv"])
            let result = try HigAuditBinary.run(["analyze", Self.fixture, "--config", path, "--table", "violations", "--format", "csv"])
            #expect(result.status == 3, "\(result.stderr)")
            let gone = [
                ("forced-tab-switch,", "mixed.ndjson:5"), ("haptic-overuse,", "mixed.ndjson:28"),
                ("loading-without-indicator,", "mixed.ndjson:31"),
            ]
            let plainRows = plain.stdout.components(separatedBy: "\r\n")
            let expected = plainRows.filter { row in !gone.contains { row.hasPrefix($0.0) && row.hasSuffix($0.1) } }
            #expect(result.stdout.components(separatedBy: "\r\n") == expected)
            #expect(expected.count == plainRows.count - 3)
            // The prolonged haptic on the canvas is gone; the one that made haptic-when-disabled stays.
            #expect(result.stdout.contains("haptic-when-disabled,error,s-bravo,ipad-0002,5.1.0,canvas,"))
            let summary = try HigAuditBinary.run(["analyze", Self.fixture, "--config", path, "--table", "summary", "--format", "csv"])
            #expect(summary.stdout.contains("\r\nforced-tab-switch,error,0,0,2,0,0.00\r\n"), "\(summary.stdout)")
        }
    }

    @Test func aBadEntryIsFatalAndSaysWhere() throws {
        try withConfig("overrides:\n  - screens: [\"can*\"]\n    rules:\n      haptic-overuse:\n        burst_count: 1\n") { path in
            let result = try HigAuditBinary.run(["analyze", Self.fixture, "--config", path])
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "\(path):5:22: overrides[0].rules.haptic-overuse.burst_count: expected a whole number of at least 2, found 1"),
                "\(result.stderr)")
        }
    }

    static let sampleConfig = """
        overrides:
          - screens: ["brushes.*"]
            rules:
              haptic-overuse:
                burst_count: 9
          - screens: ["canvas.*"]
            rules:
              forced-tab-switch:
                enabled: false
          - screens: ["gallery.*"]
            rules:
              loading-without-indicator:
                max_ms: 60000
        """

    /// The tables `--out` writes, by file name.
    static func tables(in directory: URL) throws -> [String: String] {
        var tables: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            tables[name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return tables
    }

    /// `analyze --jobs 1` and `--jobs 3`, `nightly` and two `nightly --shard` parts merged give the same
    /// tables with the overrides, and the overrides change exactly the rows of their screens.
    @Test func everyKindOfRunGivesTheSameTables() throws {
        let night = "SampleLogs/night-2026-11-20"
        try withConfig(Self.sampleConfig) { config in
            let work = try HigAuditBinary.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            func analyze(_ name: String, _ extra: [String]) throws -> [String: String] {
                let out = work.appendingPathComponent(name)
                let result = try HigAuditBinary.run(["analyze", night, "--out", out.path, "--format", "csv", "--quiet"] + extra)
                #expect(result.status == 3, "\(result.stderr)")
                return try Self.tables(in: out)
            }
            let plain = try analyze("plain", [])
            let one = try analyze("one", ["--config", config, "--jobs", "1"])
            let three = try analyze("three", ["--config", config, "--jobs", "3"])
            #expect(one == three)

            let byScreen = try #require(one["by_screen.csv"]).components(separatedBy: "\r\n")
            let plainByScreen = try #require(plain["by_screen.csv"]).components(separatedBy: "\r\n")
            func rows(_ lines: [String], _ screen: String, _ rule: String) -> [String] {
                lines.filter { $0.hasPrefix("\(screen),\(rule),") }
            }
            #expect(rows(plainByScreen, "canvas.editor", "forced-tab-switch").count == 1)
            #expect(rows(byScreen, "canvas.editor", "forced-tab-switch").isEmpty)
            #expect(rows(byScreen, "brushes.list", "haptic-overuse") != rows(plainByScreen, "brushes.list", "haptic-overuse"))
            // Rows of screens no entry matches are as without the config (their shares aside, which
            // are of the rule's violations everywhere).
            func counts(_ lines: [String]) -> [String] {
                lines.filter { !$0.hasPrefix("brushes.") && !$0.hasPrefix("canvas.") && !$0.hasPrefix("gallery.") }
                    .map { $0.split(separator: ",").prefix(5).joined(separator: ",") }
            }
            #expect(counts(byScreen) == counts(plainByScreen))

            // The nightly store, whole and in two shards merged, exported.
            func store(_ name: String, _ extra: [String]) throws -> URL {
                let path = work.appendingPathComponent(name)
                let result = try HigAuditBinary.run(
                    ["nightly", "--store", path.path, "--close-open", "--config", config, night, "--quiet"] + extra)
                // 3: the night has damaged lines, which a shard may or may not read.
                #expect([0, 3].contains(result.status), "\(result.stderr)")
                return path
            }
            func exported(_ store: URL, _ name: String) throws -> [String: String] {
                let out = work.appendingPathComponent(name)
                let result = try HigAuditBinary.run(["export", "--store", store.path, "--out", out.path])
                #expect(result.status == 0, "\(result.stderr)")
                return try Self.tables(in: out)
            }
            let whole = try exported(store("whole.sqlite", []), "whole")
            let part0 = try store("part-0.sqlite", ["--shard", "0/2"])
            let part1 = try store("part-1.sqlite", ["--shard", "1/2"])
            let merged = work.appendingPathComponent("merged.sqlite")
            let merge = try HigAuditBinary.run(["merge", "--store", merged.path, part0.path, part1.path])
            #expect(merge.status == 0, "\(merge.stderr)")
            let sharded = try exported(merged, "merged")
            for table in ["summary.csv", "by_screen.csv", "by_version.csv"] {
                #expect(whole[table] == one[table], "\(table)")
                #expect(sharded[table] == one[table], "\(table)")
            }
        }
    }
}
