import Foundation
import Testing

/// `exclude:` end to end on the golden fixture: a config whose one entry accepts two rules on the
/// canvas of 5.1 and whose other entry has expired.
@Suite struct ExclusionCommandTests {
    static let fixture = GoldenOutputTests.fixture

    static let config = """
        exclude:
          - rules: [haptic-overuse, haptic-when-disabled]
            screens: ["can*"]
            app_versions: ["5.1"]
            reason: the canvas plays haptics on purpose
          - rules: [modal-depth]
            reason: the export flow is being redesigned
            until: 2026-01-01
        """

    private func withConfig(_ body: (String) throws -> Void) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hig-audit.yml").path
        try Self.config.write(toFile: path, atomically: true, encoding: .utf8)
        try body(path)
    }

    @Test func suppressedViolationsCountOnlyInTheSuppressedColumn() throws {
        try withConfig { config in
            let result = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--table", "summary", "--format", "csv"],
                environment: ["HIG_AUDIT_TODAY": "2026-11-28"])
            #expect(result.status == 3)
            let rows = result.stdout.split(separator: "\r\n").map(String.init)
            #expect(rows.first == "rule,severity,violations,sessions_affected,sessions_total,sessions_not_judged,pct_sessions_affected,suppressed")
            #expect(rows.contains("haptic-overuse,warning,1,1,2,0,50.00,1"))
            #expect(rows.contains("haptic-when-disabled,error,1,1,2,0,50.00,1"))
            // Expired: counted as without the entry, and said once with the entry's line.
            #expect(rows.contains("modal-depth,warning,2,1,2,0,50.00,0"))
            let warning = "hig-audit: warning: the exclusion at \(config):6 expired after 2026-01-01 (its until); it no longer suppresses anything\n"
            #expect(result.stderr.components(separatedBy: warning).count == 2, "\(result.stderr)")
        }
    }

    @Test func onTheUntilDayTheEntryStillApplies() throws {
        try withConfig { config in
            let result = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--table", "summary", "--format", "csv"],
                environment: ["HIG_AUDIT_TODAY": "2026-01-01"])
            #expect(result.stdout.contains("\r\nmodal-depth,warning,0,0,2,0,0.00,2\r\n"))
            #expect(!result.stderr.contains("expired"))
        }
    }

    @Test func showSuppressedListsThemFlagged() throws {
        try withConfig { config in
            let result = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--table", "violations", "--format", "csv", "--show-suppressed"],
                environment: ["HIG_AUDIT_TODAY": "2026-11-28"])
            let rows = result.stdout.split(separator: "\r\n").map(String.init)
            #expect(rows.first?.hasSuffix(",source,suppressed") == true)
            #expect(rows.count == 14)
            let flagged = rows.filter { $0.hasSuffix(",true") }
            #expect(flagged.count == 2)
            #expect(flagged.allSatisfy { $0.contains(",s-bravo,") && $0.contains(",canvas,") })
            let hidden = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--table", "violations", "--format", "csv"],
                environment: ["HIG_AUDIT_TODAY": "2026-11-28"])
            #expect(hidden.stdout.split(separator: "\r\n").count == 12)
            #expect(!hidden.stdout.contains("suppressed"))
        }
    }

    /// In JSON the flag is a boolean, as the baseline's `new` flag is, so that scripts test it as one.
    @Test func theSuppressedFlagIsAJSONBoolean() throws {
        try withConfig { config in
            let result = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--table", "violations", "--format", "json", "--show-suppressed"],
                environment: ["HIG_AUDIT_TODAY": "2026-11-28"])
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let rows = try #require(object?["violations"] as? [[String: Any]])
            #expect(rows.count == 13, "\(result.stdout.prefix(300))")
            let flags = rows.compactMap { $0["suppressed"] as? Bool }
            #expect(flags.count == rows.count, "every row's suppressed is a JSON boolean")
            #expect(flags.filter { $0 }.count == 2)
        }
    }

    /// `analyze --dashboard` shows the run's accepted findings as `dashboard` shows a store's: the
    /// suppressed violations per rule, the new ones against `--baseline`, and the entries with their
    /// reasons; a run with neither has no such section.
    @Test func theRunDashboardShowsTheAcceptedFindings() throws {
        try withConfig { config in
            let directory = URL(fileURLWithPath: config).deletingLastPathComponent()
            let baseline = directory.appendingPathComponent("baseline.json").path
            try #"{"version": 1, "pairs": []}"#.write(toFile: baseline, atomically: true, encoding: .utf8)
            let page = directory.appendingPathComponent("page").path
            let result = try HigAuditBinary.run(
                ["analyze", Self.fixture, "--config", config, "--baseline", baseline, "--dashboard", page, "-q"],
                environment: ["HIG_AUDIT_TODAY": "2026-11-28"])
            #expect(result.status == 3, "\(result.stderr)")
            let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
            #expect(html.contains("<h2>Accepted findings</h2>"))
            // haptic-overuse: one suppressed, and its other violation new (the baseline is empty).
            #expect(html.contains("<tr><td><code>haptic-overuse</code></td><td class=\"num\">1</td><td class=\"num"))
            #expect(html.contains("the canvas plays haptics on purpose"))
            #expect(html.contains("of this run&#39;s config") || html.contains("of this run's config"))
            #expect(html.contains("<td>expired</td>"), "the entry past its until is listed as expired")
            #expect(html.contains("baseline.json"))

            let plainPage = directory.appendingPathComponent("plain").path
            let plain = try HigAuditBinary.run(["analyze", Self.fixture, "--dashboard", plainPage, "-q"])
            #expect(plain.status == 3)
            #expect(!(try String(contentsOfFile: plainPage + "/index.html", encoding: .utf8)).contains("Accepted findings"))
        }
    }

    @Test func aBadConfigOrDayIsFatalAndSaysWhere() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.yml").path
        try "exclude:\n  - rules: [modal-dept]\n    reason: r\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", Self.fixture, "--config", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path):2:"), "\(result.stderr)")
        #expect(result.stderr.contains(": exclude[0].rules: unknown rule modal-dept; known rules: "), "\(result.stderr)")

        let badDay = try HigAuditBinary.run(["analyze", Self.fixture], environment: ["HIG_AUDIT_TODAY": "tomorrow"])
        #expect(badDay.status == 1)
        #expect(badDay.stderr.contains("HIG_AUDIT_TODAY=tomorrow is not a date YYYY-MM-DD"))
    }
}
