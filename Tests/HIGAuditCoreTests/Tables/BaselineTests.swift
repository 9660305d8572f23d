import Testing
@testable import HIGAuditCore

/// A baseline labels violations known or new by their `(rule, screen)` pair and never changes a count
/// (SPEC §6): the pairs come from `by_screen`, `new_violations` sums its rows whose pair is missing.
@Suite struct BaselineTests {
    /// A `by_screen` table as the accumulator makes it: screen, rule, severity, violations, ….
    static func byScreen(_ rows: [(screen: String, rule: String, violations: Int64)]) -> Table {
        Table(
            name: "by_screen",
            columns: [.text("screen"), .text("rule"), .text("severity"), .integer("violations")],
            rows: rows.map { [.input($0.screen), .label($0.rule), .label("warning"), .integer($0.violations)] })
    }

    @Test func pairsAreTheByScreenRowsSortedByRuleThenScreenInByteOrder() {
        let table = Self.byScreen([("b", "modal-depth", 2), ("Z", "modal-depth", 1), ("a", "haptic-overuse", 4), ("", "slow-launch", 1)])
        let baseline = Baseline(byScreen: table)
        #expect(baseline.sortedPairs == [
            BaselinePair(rule: "haptic-overuse", screen: "a"), BaselinePair(rule: "modal-depth", screen: "Z"),
            BaselinePair(rule: "modal-depth", screen: "b"), BaselinePair(rule: "slow-launch", screen: ""),
        ])
    }

    @Test func aViolationIsNewExactlyWhenItsPairIsMissing() {
        let baseline = Baseline(pairs: [BaselinePair(rule: "modal-depth", screen: "settings")])
        #expect(!baseline.isNew(rule: "modal-depth", screen: "settings"))
        #expect(baseline.isNew(rule: "modal-depth", screen: "Settings"))
        #expect(baseline.isNew(rule: "haptic-overuse", screen: "settings"))
        #expect(baseline.isNew(rule: "modal-depth", screen: ""))
    }

    @Test func newViolationsCountOnlyThePairsMissingFromTheBaseline() {
        let table = Self.byScreen([("home", "modal-depth", 3), ("settings", "modal-depth", 2), ("home", "slow-launch", 5)])
        let baseline = Baseline(pairs: [BaselinePair(rule: "modal-depth", screen: "home")])
        #expect(baseline.newViolationsByRule(byScreen: table) == ["modal-depth": 2, "slow-launch": 5])
        #expect(Baseline(byScreen: table).newViolationsByRule(byScreen: table).isEmpty)
    }

    @Test func summaryGainsNewViolationsAfterViolationsAndKeepsEveryOtherCell() {
        let summary = Table(
            name: "summary", columns: [.text("rule"), .integer("violations"), .integer("sessions_affected")],
            rows: [[.label("modal-depth"), .integer(5), .integer(2)], [.label("slow-launch"), .integer(0), .integer(0)]])
        let table = Self.byScreen([("home", "modal-depth", 3), ("settings", "modal-depth", 2)])
        let marked = Baseline(pairs: [BaselinePair(rule: "modal-depth", screen: "home")]).marking(summary, byScreen: table)
        #expect(marked.columnNames == ["rule", "violations", "new_violations", "sessions_affected"])
        #expect(marked.materializedRows == [
            [.label("modal-depth"), .integer(5), .integer(2), .integer(2)], [.label("slow-launch"), .integer(0), .integer(0), .integer(0)],
        ])
    }

    @Test func violationsGainANewFlagAndOtherTablesAreUnchanged() {
        let violations = Table(
            name: "violations", columns: [.text("rule"), .text("screen")],
            rows: [[.label("modal-depth"), .input("home")], [.label("modal-depth"), .input("settings")]])
        let baseline = Baseline(pairs: [BaselinePair(rule: "modal-depth", screen: "home")])
        let marked = baseline.marking(violations, byScreen: Self.byScreen([]))
        #expect(marked.columnNames == ["rule", "screen", "new"])
        #expect(marked.materializedRows.map(\.last) == [.boolean(false), .boolean(true)])
        let haptics = Table(name: "haptics", columns: [.text("kind")], rows: [[.label("selection")]])
        #expect(baseline.marking(haptics, byScreen: Self.byScreen([])).columnNames == ["kind"])
    }
}
