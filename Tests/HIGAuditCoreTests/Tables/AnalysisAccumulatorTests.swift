import Testing
@testable import HIGAuditCore

@Suite struct AnalysisAccumulatorTests {
    typealias F = TableFixtures

    @Test func summaryHasOneRowPerEnabledRuleInIdOrderWithZeroRows() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("a", violations: [F.violation("modal-depth", session: "a"), F.violation("modal-depth", session: "a", line: 2)]))
        accumulator.add(F.report("b"))
        accumulator.add(F.report("c", violations: [F.violation("modal-depth", session: "c")]))
        let table = accumulator.summaryTable()
        #expect(table.columnNames == [
            "rule", "severity", "violations", "sessions_affected", "sessions_total", "sessions_not_judged", "pct_sessions_affected",
        ])
        #expect(F.texts(table) == [
            ["forced-tab-switch", "error", "0", "0", "3", "0", "0.00"],
            ["haptic-overuse", "warning", "0", "0", "3", "0", "0.00"],
            ["modal-depth", "warning", "3", "2", "3", "0", "66.67"],
        ])
    }

    @Test func summaryWithoutSessionsHasZeroPercent() {
        let accumulator = AnalysisAccumulator(rules: F.rules)
        #expect(F.texts(accumulator.summaryTable()).map(\.last) == ["0.00", "0.00", "0.00"])
    }

    @Test func sessionsWithoutAcceptedEventsAreNotCounted() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("a", events: 0))
        accumulator.add(F.report("b"))
        #expect(accumulator.sessionsTotal == 1)
    }

    @Test func violationsAreOrderedBySessionStartRuleAndSource() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        // Sessions close in another order than their names sort.
        accumulator.add(F.report("s2", violations: [F.violation("modal-depth", session: "s2", start: 5)]))
        accumulator.add(F.report("s1", violations: [
            F.violation("modal-depth", session: "s1", start: 7, file: 1, line: 3),
            F.violation("modal-depth", session: "s1", start: 7, file: 0, line: 9),
            F.violation("forced-tab-switch", session: "s1", start: 7, severity: .error, file: 2, line: 1),
            F.violation("haptic-overuse", session: "s1", start: 6, end: 9),
        ]))
        let sources = SourceFileTable(paths: ["logs/a.zst", "logs/b.zst", "-"])
        let rows = F.texts(accumulator.violationsTable(sources: sources))
        #expect(rows.map { [$0[0], $0[2], $0[10]] } == [
            ["haptic-overuse", "s1", "logs/a.zst:1"],
            ["forced-tab-switch", "s1", "-:1"],
            ["modal-depth", "s1", "logs/a.zst:9"],
            ["modal-depth", "s1", "logs/b.zst:3"],
            ["modal-depth", "s2", "logs/a.zst:1"],
        ])
        #expect(rows[0] == [
            "haptic-overuse", "warning", "s1", "dev", "5.2", "home", "1970-01-01T00:00:00.006Z",
            "1970-01-01T00:00:00.009Z", "1", "detail", "logs/a.zst:1",
        ])
    }

    @Test func violationCellsFromLogDataAreMarkedForFormulaEscaping() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("=cmd", violations: [F.violation("modal-depth", session: "=cmd")]))
        let row = accumulator.violationsTable(sources: SourceFileTable(paths: ["f"])).row(0)
        #expect(row[0] == .label("modal-depth"))
        #expect(row[2] == .input("=cmd"))
        #expect(row[6] == .timestamp(1000))
        #expect(row[8] == .integer(1))
    }

    @Test func notKeepingViolationsStillCounts() {
        var accumulator = AnalysisAccumulator(rules: F.rules, keepsViolations: false)
        accumulator.add(F.report("a", violations: [F.violation("modal-depth", session: "a")]))
        #expect(accumulator.violationsTable(sources: SourceFileTable()).rowCount == 0)
        #expect(F.texts(accumulator.summaryTable())[2][2] == "1")
    }

    @Test func byVersionOrdersVersionsNumericallyAndIncludesZeroRows() {
        var accumulator = AnalysisAccumulator(rules: [F.rule("modal-depth")])
        accumulator.add(F.report("a", version: "5.10", violations: [F.violation("modal-depth", session: "a")]))
        accumulator.add(F.report("b", version: "5.9"))
        accumulator.add(F.report("c", version: "5.10"))
        accumulator.add(F.report("d", version: "5.10", violations: [F.violation("modal-depth", session: "d"), F.violation("modal-depth", session: "d")]))
        let table = accumulator.byVersionTable()
        #expect(table.columnNames == [
            "app_version", "rule", "severity", "violations", "sessions_affected", "sessions_total", "pct_sessions_affected",
        ])
        #expect(F.texts(table) == [
            ["5.9", "modal-depth", "warning", "0", "0", "1", "0.00"],
            ["5.10", "modal-depth", "warning", "3", "2", "3", "66.67"],
        ])
    }

    @Test func byScreenCountsPerScreenAndRule() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("a", violations: [
            F.violation("modal-depth", session: "a", screen: "editor"),
            F.violation("modal-depth", session: "a", screen: "editor", line: 2),
            F.violation("modal-depth", session: "a", screen: "home", line: 3),
        ]))
        accumulator.add(F.report("b", violations: [F.violation("modal-depth", session: "b", screen: "editor")]))
        #expect(F.texts(accumulator.byScreenTable()) == [
            ["editor", "modal-depth", "warning", "3", "2", "75.00"],
            ["home", "modal-depth", "warning", "1", "1", "25.00"],
        ])
        #expect(F.texts(accumulator.worstScreensTable(limit: 1)) == [["editor", "3", "2", "modal-depth", "3"]])
    }

    @Test func hapticsPercentilesAreNearestRankOverSessionsThatPlayedTheKind() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        // Rates per minute: 1, 2, ..., 10 (one-minute sessions), plus a session without selections.
        for index in 1...10 {
            accumulator.add(F.report("s\(index)", first: 0, last: 60_000, haptics: [.selection: index]))
        }
        accumulator.add(F.report("none", haptics: [.impactLight: 3]))
        // A 0.2 s session counts as one second: 1 haptic → 60 per minute.
        accumulator.add(F.report("short", first: 500, last: 700, haptics: [.notificationError: 1]))
        let rows = F.texts(accumulator.hapticsTable())
        #expect(rows.count == HapticKind.allCases.count)
        let byKind = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0) })
        #expect(byKind["selection"] == ["selection", "55", "10", "5.00", "9.00", "10.00"])
        #expect(byKind["impact.light"] == ["impact.light", "3", "1", "3.00", "3.00", "3.00"])
        #expect(byKind["notification.error"] == ["notification.error", "1", "1", "60.00", "60.00", "60.00"])
        #expect(byKind["custom"] == ["custom", "0", "0", "", "", ""])
        #expect(rows.map(\.[0]) == rows.map(\.[0]).sorted())
    }

    @Test(arguments: [(50, [Int64]([1]), Int64(1)), (50, [1, 2], 1), (90, [1, 2], 2), (99, Array(1...100), 99), (100, [3, 4], 4)])
    func nearestRank(percentile: Int, values: [Int64], expected: Int64) {
        #expect(AnalysisAccumulator.nearestRank(percentile, in: values) == expected)
    }

    @Test func sessionFiltersNarrowThePopulation() {
        var accumulator = AnalysisAccumulator(rules: F.rules, filter: TableFilter(appVersions: ["5.2"]))
        accumulator.add(F.report("a", version: "5.2", violations: [F.violation("modal-depth", session: "a")]))
        accumulator.add(F.report("b", version: "5.3", violations: [F.violation("modal-depth", session: "b")]))
        #expect(accumulator.sessionsTotal == 1)
        #expect(F.texts(accumulator.summaryTable())[2] == ["modal-depth", "warning", "1", "1", "1", "0", "100.00"])
    }

    @Test func ruleAndScreenFiltersOnlyNarrowViolations() {
        let filter = TableFilter(rules: ["modal-depth"], screens: ["editor"])
        var accumulator = AnalysisAccumulator(rules: F.rules, filter: filter)
        accumulator.add(F.report("a", violations: [
            F.violation("modal-depth", session: "a", screen: "editor"),
            F.violation("modal-depth", session: "a", screen: "home"),
            F.violation("haptic-overuse", session: "a", screen: "editor"),
        ]))
        accumulator.add(F.report("b"))
        #expect(F.texts(accumulator.summaryTable()) == [["modal-depth", "warning", "1", "1", "2", "0", "50.00"]])
        #expect(accumulator.violationsTable(sources: SourceFileTable(paths: ["f"])).rowCount == 1)
    }

    @Test func ruleFilterLimitsVersionRows() {
        var accumulator = AnalysisAccumulator(rules: F.rules, filter: TableFilter(rules: ["forced-tab-switch"]))
        accumulator.add(F.report("a", version: "1.0"))
        #expect(F.texts(accumulator.byVersionTable()) == [["1.0", "forced-tab-switch", "error", "0", "0", "1", "0.00"]])
    }

    @Test func equalDetailsAreKeptIntact() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("a", violations: (1...3).map { F.violation("modal-depth", session: "a", line: Int64($0), detail: $0 == 2 ? "other" : "same") }))
        let details = F.texts(accumulator.violationsTable(sources: SourceFileTable(paths: ["f"]))).map(\.[9])
        #expect(details == ["same", "other", "same"])
    }

    @Test func deviceAndSessionFiltersNarrowThePopulation() {
        var accumulator = AnalysisAccumulator(rules: F.rules, filter: TableFilter(sessions: ["a", "b"], devices: ["iPad"]))
        accumulator.add(F.report("a", device: "iPad"))
        accumulator.add(F.report("b", device: "iPhone"))
        accumulator.add(F.report("c", device: "iPad"))
        #expect(accumulator.sessionsTotal == 1)
    }

    @Test func timeWindowSelectsOverlappingSessionsAndViolationsByStart() {
        let filter = TableFilter(since: 1000, until: 2000)
        var accumulator = AnalysisAccumulator(rules: F.rules, filter: filter)
        accumulator.add(F.report("before", first: 0, last: 999))
        accumulator.add(F.report("overlap", first: 500, last: 1500, violations: [
            F.violation("modal-depth", session: "overlap", start: 600),
            F.violation("modal-depth", session: "overlap", start: 1000),
        ]))
        accumulator.add(F.report("at-until", first: 2000, last: 3000))
        accumulator.add(F.report("inside", first: 1999, last: 2500, violations: [F.violation("modal-depth", session: "inside", start: 2000)]))
        #expect(accumulator.sessionsTotal == 2)
        #expect(accumulator.violationsTotal == 1)
    }

    @Test func ingestTableIsOneRowAndTransposesForTerminals() {
        var statistics = IngestStatistics()
        statistics.files = 2
        statistics.unknownTypes = ["x.new": 3, "a.new": 1]
        statistics.unbalancedDismisses = 7
        let table = IngestTables.ingestTable(statistics)
        #expect(table.columnNames == [
            "files", "compressed_bytes", "decompressed_bytes", "frames", "lines", "events", "sessions",
            "malformed_lines", "late_events", "duplicate_events", "unverified_duplicates", "unknown_types", "skipped_bytes",
            "truncated_files", "unbalanced_dismisses", "faults",
        ])
        #expect(F.texts(table) == [["2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "4", "0", "0", "7", "0"]])
        let transposed = table.transposed(name: "ingest")
        #expect(transposed.rowCount == 16)
        #expect(F.texts(transposed)[0] == ["files", "2"])
        #expect(F.texts(IngestTables.unknownTypesTable(statistics)) == [["a.new", "1"], ["x.new", "3"]])
    }

    @Test func everyTableIsNamedAsItsName() {
        let accumulator = AnalysisAccumulator(rules: F.rules)
        for name in TableName.allCases {
            #expect(accumulator.table(name, ingest: IngestStatistics(), sources: SourceFileTable()).name == name.rawValue)
        }
    }

    @Test func overviewIsSummaryWorstScreensAndIngest() {
        let accumulator = AnalysisAccumulator(rules: F.rules)
        #expect(accumulator.overview(ingest: IngestStatistics()).map(\.name) == ["summary", "worst_screens", "ingest"])
    }

    /// SPEC §7 "Touch coverage": a session without every touch is not judged by the rules that need
    /// them: `sessions_not_judged` counts it and their `sessions_total` (and percent) leave it out, in
    /// `summary` and `by_version`; the other rules count it as before.
    @Test func sessionsWithoutEveryTouchAreNotJudgedByTheRulesNeedingThem() {
        var accumulator = AnalysisAccumulator(rules: F.rules)
        accumulator.add(F.report("a", violations: [F.violation("forced-tab-switch", session: "a", severity: .error)]))
        accumulator.add(F.report("b", touches: .sampled))
        accumulator.add(F.report("c", version: "5.3", touches: .none))
        accumulator.add(F.report("d", version: "5.3", violations: [F.violation("modal-depth", session: "d")]))
        accumulator.add(F.report("e", events: 0, touches: .none))
        let summary = accumulator.summaryTable()
        #expect(summary.columnNames == [
            "rule", "severity", "violations", "sessions_affected", "sessions_total", "sessions_not_judged",
            "pct_sessions_affected",
        ])
        #expect(F.texts(summary) == [
            ["forced-tab-switch", "error", "1", "1", "2", "2", "50.00"],
            ["haptic-overuse", "warning", "0", "0", "4", "0", "0.00"],
            ["modal-depth", "warning", "1", "1", "4", "0", "25.00"],
        ])
        #expect(F.texts(accumulator.byVersionTable()).map { [$0[0], $0[1], $0[5], $0[6]] } == [
            ["5.2", "forced-tab-switch", "1", "100.00"],
            ["5.2", "haptic-overuse", "2", "0.00"],
            ["5.2", "modal-depth", "2", "0.00"],
            ["5.3", "forced-tab-switch", "1", "0.00"],
            ["5.3", "haptic-overuse", "2", "0.00"],
            ["5.3", "modal-depth", "2", "50.00"],
        ])
        #expect(accumulator.sessionsTotal == 4)
    }

    @Test func mergedAccumulatorsCountUnjudgedSessionsAsOne() {
        let reports = [
            F.report("a", touches: .sampled), F.report("b"), F.report("c", version: "5.3", touches: .none),
            F.report("d", version: "5.3"),
        ]
        var whole = AnalysisAccumulator(rules: F.rules)
        for report in reports { whole.add(report) }
        var first = AnalysisAccumulator(rules: F.rules)
        var second = AnalysisAccumulator(rules: F.rules)
        for report in reports.prefix(2) { first.add(report) }
        for report in reports.dropFirst(2) { second.add(report) }
        first.merge(second)
        #expect(F.texts(first.summaryTable()) == F.texts(whole.summaryTable()))
        #expect(F.texts(first.byVersionTable()) == F.texts(whole.byVersionTable()))
    }
}

@Suite struct AccumulatorSuppressionTests {
    typealias F = TableFixtures

    /// Three sessions; session "a" has a modal-depth violation on Canvas/Draw and one on Home, "b" one on
    /// Canvas/Brush in 5.3, "c" none.
    private func filled(_ suppression: Suppression, showsSuppressed: Bool = false) -> AnalysisAccumulator {
        var accumulator = AnalysisAccumulator(rules: F.rules, suppression: suppression, showsSuppressed: showsSuppressed)
        accumulator.add(F.report("a", violations: [
            F.violation("modal-depth", session: "a", screen: "Canvas/Draw", start: 1),
            F.violation("modal-depth", session: "a", screen: "Home", start: 2),
            F.violation("haptic-overuse", session: "a", screen: "Canvas/Draw", start: 3),
        ]))
        accumulator.add(F.report("b", version: "5.3", violations: [
            F.violation("modal-depth", session: "b", screen: "Canvas/Brush", start: 1),
        ]))
        accumulator.add(F.report("c"))
        return accumulator
    }

    private static let today = CalendarDay("2026-06-01")!

    @Test func exclusionsRemoveExactlyTheMatchingViolationsAndCountThemAsSuppressed() {
        let entry = Exclusion(rules: ["modal-depth"], screens: [ScreenGlob("Canvas/*")], appVersions: ["5.2"], reason: "canvas")
        let accumulator = filled(Suppression([entry], today: Self.today))
        let summary = accumulator.summaryTable()
        #expect(summary.columnNames.last == "suppressed")
        #expect(F.texts(summary) == [
            ["forced-tab-switch", "error", "0", "0", "3", "0", "0.00", "0"],
            ["haptic-overuse", "warning", "1", "1", "3", "0", "33.33", "0"],
            ["modal-depth", "warning", "2", "2", "3", "0", "66.67", "1"],
        ])
        #expect(F.texts(accumulator.violationsTable(sources: SourceFileTable())).map { [$0[0], $0[2], $0[5]] } == [
            ["modal-depth", "a", "Home"], ["haptic-overuse", "a", "Canvas/Draw"], ["modal-depth", "b", "Canvas/Brush"],
        ])
        #expect(F.texts(accumulator.byScreenTable()).map { [$0[0], $0[1], $0[3]] } == [
            ["Canvas/Brush", "modal-depth", "1"], ["Canvas/Draw", "haptic-overuse", "1"], ["Home", "modal-depth", "1"],
        ])
        let byVersion = F.texts(accumulator.byVersionTable()).filter { $0[1] == "modal-depth" }.map { [$0[0], $0[3], $0[4], $0[5]] }
        #expect(byVersion == [["5.2", "1", "1", "2"], ["5.3", "1", "1", "1"]])
        #expect(accumulator.sessionsTotal == 3)
        #expect(accumulator.violationsTotal == 3)
    }

    @Test func suppressingEveryViolationOfASessionLeavesItCountedInSessionsTotal() {
        let accumulator = filled(Suppression([Exclusion(rules: nil, reason: "all")], today: Self.today))
        #expect(F.texts(accumulator.summaryTable()).map { Array($0[2...]) } == [
            ["0", "0", "3", "0", "0.00", "0"], ["0", "0", "3", "0", "0.00", "1"], ["0", "0", "3", "0", "0.00", "3"],
        ])
        #expect(accumulator.violationsTable(sources: SourceFileTable()).rowCount == 0)
        #expect(accumulator.worstScreensTable(limit: 10).rowCount == 0)
    }

    @Test func anExpiredEntryDoesNotApplyButStillShowsTheColumn() {
        let entry = Exclusion(rules: ["modal-depth"], reason: "old", until: CalendarDay("2026-05-31"))
        let expired = filled(Suppression([entry], today: Self.today))
        let without = filled(.none)
        #expect(F.texts(expired.summaryTable()).map { Array($0.dropLast()) } == F.texts(without.summaryTable()))
        #expect(F.texts(expired.summaryTable()).map(\.last) == ["0", "0", "0"])
        let lastDay = filled(Suppression([entry], today: CalendarDay("2026-05-31")!))
        #expect(F.texts(lastDay.summaryTable()).map(\.last) == ["0", "0", "3"])
    }

    @Test func withoutExclusionsTheTablesKeepTheirColumns() {
        let accumulator = filled(Suppression([], today: Self.today))
        #expect(!accumulator.summaryTable().columnNames.contains("suppressed"))
        #expect(!accumulator.violationsTable(sources: SourceFileTable()).columnNames.contains("suppressed"))
    }

    @Test func showSuppressedListsThemWithAFlag() {
        let entry = Exclusion(rules: ["haptic-overuse"], reason: "canvas haptics are deliberate")
        let accumulator = filled(Suppression([entry], today: Self.today), showsSuppressed: true)
        let table = accumulator.violationsTable(sources: SourceFileTable())
        #expect(table.columnNames.last == "suppressed")
        #expect(F.texts(table).map { [$0[0], $0[2], $0.last!] } == [
            ["modal-depth", "a", "false"], ["modal-depth", "a", "false"], ["haptic-overuse", "a", "true"],
            ["modal-depth", "b", "false"],
        ])
        #expect(F.texts(accumulator.summaryTable()).map { [$0[0], $0[2], $0.last!] } == [
            ["forced-tab-switch", "0", "0"], ["haptic-overuse", "0", "1"], ["modal-depth", "3", "0"],
        ])
    }

    @Test func mergingAddsSuppressedCounts() {
        let suppression = Suppression([Exclusion(rules: ["modal-depth"], reason: "r")], today: Self.today)
        var first = AnalysisAccumulator(rules: F.rules, suppression: suppression)
        var later = AnalysisAccumulator(rules: F.rules, suppression: suppression)
        first.add(F.report("a", violations: [F.violation("modal-depth", session: "a")]))
        later.add(F.report("b", violations: [F.violation("modal-depth", session: "b")]))
        first.merge(later)
        #expect(F.texts(first.summaryTable()).last == ["modal-depth", "warning", "0", "0", "2", "0", "0.00", "2"])
    }
}
