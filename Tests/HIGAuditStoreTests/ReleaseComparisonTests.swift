import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// `compare`'s statistics on inputs whose answers are known.
@Suite struct ReleaseComparisonTests {
    @Test func twoProportionZTestMatchesAHandComputation() {
        // 100 of 1000 vs 150 of 1000: pooled p = 0.125, se = √(0.125·0.875·2/1000) = 0.0147902,
        // z = 0.05 / se = 3.3806, two-sided p = 0.000723.
        let test = RateTest.compare(affectedBase: 100, totalBase: 1000, affectedHead: 150, totalHead: 1000)
        #expect(test.method == .twoProportionZ)
        #expect(abs((test.z ?? 0) - 3.3806) < 0.0001)
        #expect(abs(test.pValue - 0.000723) < 0.000005)
        let same = RateTest.compare(affectedBase: 50, totalBase: 500, affectedHead: 100, totalHead: 1000)
        #expect(same.z == 0 && same.pValue == 1)
    }

    @Test func fisherExactMatchesKnownTables() {
        // Fisher's tea-tasting table: two-sided p = 34/70 = 0.4857.
        #expect(abs(RateTest.fisherExact(a: 3, b: 1, c: 1, d: 3) - 0.485714) < 0.00001)
        // [[1, 9], [11, 3]]: two-sided p = 0.002759 (R: fisher.test).
        #expect(abs(RateTest.fisherExact(a: 1, b: 9, c: 11, d: 3) - 0.002759) < 0.000005)
        // A rare rule: 0 of 400 vs 4 of 400 has expected counts of 2, so the exact test is used.
        let rare = RateTest.compare(affectedBase: 0, totalBase: 400, affectedHead: 4, totalHead: 400)
        #expect(rare.method == .fisherExact)
        #expect(abs(rare.pValue - 0.1237) < 0.0005)
    }

    /// A store with 1000 sessions of 5.1 and of 5.2; forced-tab-switch in 100 vs 150 sessions,
    /// modal-depth in 40 vs 38.
    @Test func theComparisonTableFlagsOnlyTheRealChange() throws {
        let directory = try LogFixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = try ResultsStore(writingAt: path)
        try store.queue.write { db in
            try db.execute(sql: "INSERT INTO runs (id, started_at, finished_at, close_open, files, files_skipped, files_changed, compressed_bytes, decompressed_bytes, frames, lines, events, sessions, sessions_closed, open_sessions, malformed_lines, late_events, duplicate_events, unknown_types, skipped_bytes, truncated_files, unbalanced_dismisses, faults, violations) VALUES (1, 0, 0, 1, 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)")
            for rule in ["forced-tab-switch", "modal-depth"] {
                try db.execute(sql: "INSERT INTO rules VALUES (?, 'warning')", arguments: [rule])
            }
            for (version, tabs, modals) in [("5.1", 100, 40), ("5.2", 150, 38)] {
                for index in 0..<1000 {
                    let session = "\(version)-\(index)"
                    try db.execute(
                        sql: """
                            INSERT INTO sessions (session, device, app_version, first_ts, last_ts, events, violations, run_id)
                            VALUES (?, 'd', ?, 0, 1, 1, 0, 1)
                            """,
                        arguments: [session, version])
                    var rules: [String] = []
                    if index < tabs { rules += ["forced-tab-switch", "forced-tab-switch"] }
                    if index >= 500, index < 500 + modals { rules.append("modal-depth") }
                    for rule in rules {
                        try db.execute(
                            sql: """
                                INSERT INTO violations (run_id, rule, severity, session, device, app_version, screen, start_ts,
                                    end_ts, count, detail, source, source_file, source_line)
                                VALUES (1, ?, 'warning', ?, 'd', ?, '', 0, 0, 1, '', 'f:1', 1, 1)
                                """,
                            arguments: [rule, session, version])
                    }
                }
            }
        }
        let table = try ResultsStore(readingAt: path).read { try ReleaseComparison.table($0, base: "5.1", head: "5.2") }
        let rows = table.materializedRows.map { $0.map(\.plainText) }
        #expect(table.columnNames == [
            "rule", "base_sessions", "base_affected", "base_pct", "head_sessions", "head_affected",
            "head_pct", "change_pct", "test", "z", "p_value", "verdict",
        ])
        #expect(rows[0] == ["forced-tab-switch", "1000", "100", "10.00", "1000", "150", "15.00", "5.00", "z-test", "3.38", "7.2e-4", "worse"])
        #expect(rows[1][0] == "modal-depth")
        #expect(rows[1][7] == "-0.20")
        #expect(rows[1][11] == "noise")
        #expect(ReleaseComparison.worseRules(in: table) == ["forced-tab-switch"])
        #expect(throws: StoreError.self) { try ResultsStore(readingAt: path).read { try ReleaseComparison.table($0, base: "5.1", head: "9.9") } }
    }

    /// A rule that judged no session of one side (its sessions lack full touch coverage) has no percent
    /// there: no change, no test, and the verdict `untested`, never a change of -100 points.
    @Test func aSideTheRuleJudgedNoSessionOfIsUntested() {
        let base = ComparisonCounts(sessions: 2, affected: ["forced-tab-switch": 1, "modal-depth": 1], judged: ["forced-tab-switch": 1])
        let head = ComparisonCounts(sessions: 1, affected: [:], judged: ["forced-tab-switch": 0])
        let table = ReleaseComparison.table(rules: ["forced-tab-switch", "modal-depth"], base: base, head: head, pValues: .number)
        let rows = table.materializedRows.map { $0.map(\.plainText) }
        #expect(rows[0] == ["forced-tab-switch", "1", "1", "100.00", "0", "0", "", "", "", "", "", "untested"])
        #expect(rows[1].last == "noise" && rows[1][3] == "50.00" && rows[1][6] == "0.00", "\(rows[1])")
    }
}
