/// A `(rule, screen)` pair: what a baseline records of a violation (SPEC §6). The screen is the
/// violation's `screen` as the tables print it, empty when no screen was known.
public struct BaselinePair: Hashable, Sendable {
    public let rule: String
    public let screen: String

    public init(rule: String, screen: String) {
        self.rule = rule
        self.screen = screen
    }

    /// Rule, then screen, each in byte order: the order of the baseline file, so that the same pairs
    /// are always written the same way whatever the locale or the order they were found in.
    public static func precedes(_ a: BaselinePair, _ b: BaselinePair) -> Bool {
        if a.rule != b.rule { return a.rule.precedesInByteOrder(b.rule) }
        return a.screen.precedesInByteOrder(b.screen)
    }
}

/// The accepted findings of SPEC §6: the `(rule, screen)` pairs that had at least one violation when
/// the baseline was taken. A violation whose pair is in the baseline is *known*, any other is *new*.
///
/// A baseline only labels violations; it never removes one or changes a count, so the tables built
/// with it are those without it plus a `new` column (`violations`) and a `new_violations` column
/// (`summary`). Reading and writing the file is `HIGAuditIO`'s `BaselineFile`.
public struct Baseline: Sendable, Equatable {
    public let pairs: Set<BaselinePair>

    public init(pairs: some Sequence<BaselinePair>) {
        self.pairs = Set(pairs)
    }

    /// The pairs of a `by_screen` table: one per screen and rule with at least one violation, which is
    /// exactly the set a baseline records.
    public init(byScreen table: Table) {
        guard let screen = table.columnIndex(named: "screen"), let rule = table.columnIndex(named: "rule") else {
            self.init(pairs: [])
            return
        }
        self.init(pairs: table.rows.map { BaselinePair(rule: $0[rule].plainText, screen: $0[screen].plainText) })
    }

    /// The pairs in file order (`BaselinePair.precedes`).
    public var sortedPairs: [BaselinePair] { pairs.sorted(by: BaselinePair.precedes) }

    /// Whether a violation of `rule` on `screen` is new: its pair is not in the baseline.
    public func isNew(rule: String, screen: String) -> Bool {
        !pairs.contains(BaselinePair(rule: rule, screen: screen))
    }

    /// Per rule, the violations whose pair is new, from a `by_screen` table (which holds every
    /// counted violation once, by screen and rule). Rules with none are absent.
    public func newViolationsByRule(byScreen table: Table) -> [String: Int64] {
        guard let screen = table.columnIndex(named: "screen"), let rule = table.columnIndex(named: "rule"),
              let violations = table.columnIndex(named: "violations")
        else { return [:] }
        var counts: [String: Int64] = [:]
        for row in table.rows {
            let ruleId = row[rule].plainText
            guard isNew(rule: ruleId, screen: row[screen].plainText), case .integer(let count) = row[violations] else { continue }
            counts[ruleId, default: 0] += count
        }
        return counts
    }

    /// `table` as it reads with this baseline: `summary` gains `new_violations` (per rule, from
    /// `byScreen`), `violations` gains `new`; every other table is returned unchanged.
    public func marking(_ table: Table, byScreen: Table) -> Table {
        switch table.name {
        case TableName.summary.rawValue: addingNewViolations(to: table, counts: newViolationsByRule(byScreen: byScreen))
        case TableName.violations.rawValue: addingNewFlag(to: table)
        default: table
        }
    }

    /// `summary` with a `new_violations` column after `violations`.
    func addingNewViolations(to summary: Table, counts: [String: Int64]) -> Table {
        guard let rule = summary.columnIndex(named: "rule"), let violations = summary.columnIndex(named: "violations") else {
            return summary
        }
        var columns = summary.columns
        columns.insert(.integer("new_violations"), at: violations + 1)
        return Table(name: summary.name, columns: columns, rowCount: summary.rowCount) { index in
            var row = summary.row(index)
            row.insert(.integer(counts[row[rule].plainText] ?? 0), at: violations + 1)
            return row
        }
    }

    /// `violations` with a `new` column (true or false) at the end.
    func addingNewFlag(to violations: Table) -> Table {
        guard let rule = violations.columnIndex(named: "rule"), let screen = violations.columnIndex(named: "screen") else {
            return violations
        }
        let baseline = self
        return Table(name: violations.name, columns: violations.columns + [.boolean("new")], rowCount: violations.rowCount) { index in
            let row = violations.row(index)
            return row + [.boolean(baseline.isNew(rule: row[rule].plainText, screen: row[screen].plainText))]
        }
    }
}
