import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO

/// `compare`: per rule, how often sessions of two sides (app versions, periods or runs) broke it, and
/// whether the difference is beyond noise (SPEC §1: "whether a release made it better or worse").
public enum ReleaseComparison {
    /// The default significance level. With fifteen rules compared at once, about one rule in two
    /// comparisons of identical releases would be flagged at 0.05; 0.01 keeps false alarms rare.
    public static let defaultAlpha = 0.01

    /// How the `p_value` column is written.
    public enum PValueStyle: Sendable {
        /// Text for people (terminal, Markdown, the dashboard): four decimals from 0.001 up, scientific
        /// notation with two significant digits below (`4.4e-16`), and below 10⁻¹⁶ the bound `<1e-16`.
        case readable
        /// A decimal number for programs and spreadsheets (JSON, CSV): the same digits without an
        /// exponent, and below 10⁻¹⁶ zero to 16 places, where the test says nothing more precise.
        case number
    }

    /// One row per recorded rule (id order): sessions and sessions affected on each side, the percent
    /// of sessions affected on each (`base_pct`, `head_pct`, as `summary`'s `pct_sessions_affected`),
    /// the change in percentage points (`change_pct`, head − base), the test used, z, the two-sided p-value, and
    /// `verdict`: `worse` or `better` when p < `alpha`, else `noise`; `untested` (the percent, change and
    /// test empty) where the rule judged no session of a side. Throws when a side has no sessions.
    public static func table(
        _ db: Database, base: ComparisonSide, head: ComparisonSide, alpha: Double = defaultAlpha,
        pValues: PValueStyle = .readable
    ) throws -> HIGAuditCore.Table {
        let counts = try [base, head].map { side in
            let counts = try side.counts(db)
            if counts.sessions == 0 { throw StoreError.invalidQuery(try side.emptyExplanation(db)) }
            return counts
        }
        let rules = try String.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
        return table(rules: rules, base: counts[0], head: counts[1], alpha: alpha, pValues: pValues)
    }

    /// The same table from two sides counted already, for a caller that compares one side with
    /// several others (the dashboard's consecutive versions) and counts each side once.
    public static func table(
        rules: [String], base: ComparisonCounts, head: ComparisonCounts, alpha: Double = defaultAlpha,
        pValues: PValueStyle = .readable
    ) -> HIGAuditCore.Table {
        let rows = rules.map { rule -> [TableCell] in
            let totalBase = base.sessions(judgedBy: rule), totalHead = head.sessions(judgedBy: rule)
            let a = base.affected[rule] ?? 0, b = head.affected[rule] ?? 0
            // A rule that judged no session of a side (SPEC §7 "Touch coverage") has no share there to
            // compare: its percent, the change and the test are left empty, and its verdict says so.
            guard totalBase > 0, totalHead > 0 else {
                func share(_ affected: Int64, _ total: Int64) -> TableCell {
                    total > 0 ? .decimal(FixedDecimal.ratio(affected, total, scale: 100)) : .empty
                }
                return [
                    .label(rule), .integer(totalBase), .integer(a), share(a, totalBase), .integer(totalHead), .integer(b),
                    share(b, totalHead), .empty, .empty, .empty, .empty, .label(Self.untested),
                ]
            }
            let rateBase = FixedDecimal.ratio(a, totalBase, scale: 100)
            let rateHead = FixedDecimal.ratio(b, totalHead, scale: 100)
            let test = RateTest.compare(affectedBase: a, totalBase: totalBase, affectedHead: b, totalHead: totalHead)
            let change = FixedDecimal(units: rateHead.units &- rateBase.units, places: 2)
            let verdict = test.pValue < alpha ? (rateHead.units > rateBase.units ? "worse" : "better") : "noise"
            let p: TableCell = switch pValues {
            case .readable: .label(Self.format(test.pValue))
            case .number: .decimal(Self.decimal(test.pValue))
            }
            return [
                .label(rule), .integer(totalBase), .integer(a), .decimal(rateBase), .integer(totalHead), .integer(b),
                .decimal(rateHead), .decimal(change), .label(test.method.rawValue),
                test.z.map { .decimal(FixedDecimal(units: Int64(($0 * 100).rounded()), places: 2)) } ?? .empty,
                p, .label(verdict),
            ]
        }
        let columns: [TableColumn] = [
            // A narrow terminal keeps the rates, the p-value and the verdict (`TerminalFit`).
            .text("rule"), TableColumn.integer("base_sessions").droppable(2), TableColumn.integer("base_affected").droppable(1),
            .decimal("base_pct"), TableColumn.integer("head_sessions").droppable(2),
            TableColumn.integer("head_affected").droppable(1), .decimal("head_pct"), .decimal("change_pct"),
            TableColumn.text("test").droppable(0), TableColumn.decimal("z").droppable(0),
            pValues == .number ? .decimal("p_value") : TableColumn("p_value", kind: .text, alignment: .right),
            .text("verdict"),
        ]
        return HIGAuditCore.Table(name: "compare", columns: columns, rows: rows)
    }

    /// The same table for two app versions, each taking every version that extends it (`VersionPrefix`).
    public static func table(_ db: Database, base: String, head: String, alpha: Double = defaultAlpha) throws -> HIGAuditCore.Table {
        try table(db, base: .version(base), head: .version(head), alpha: alpha)
    }

    /// The verdict of a rule that judged no session of a side.
    static let untested = "untested"

    /// The rules whose verdict in a table made by `table` is `worse`, in the table's order.
    public static func worseRules(in table: HIGAuditCore.Table) -> [String] {
        guard let rule = table.columnIndex(named: "rule"), let verdict = table.columnIndex(named: "verdict") else { return [] }
        return table.rows.filter { $0[verdict].plainText == "worse" }.map { $0[rule].plainText }
    }

    /// p-values below this are given as a bound (text) or as zero (number): the normal approximation
    /// says nothing more precise.
    static let smallestPValue = 1e-16

    /// p-values for people: `0.0123` from 0.001 up, `7.2e-4` … `4.4e-16` below (a run of zeros is
    /// unreadable), `<1e-16` below 10⁻¹⁶. Programs get `decimal(_:)`, without an exponent.
    static func format(_ p: Double) -> String {
        guard p.isFinite, p >= 0.001 else {
            if p < smallestPValue { return "<1e-16" }
            var exponent = Int(Foundation.floor(Foundation.log10(p)))
            var tenths = (p / Foundation.pow(10, Double(exponent)) * 10).rounded()
            if tenths >= 100 {
                exponent += 1
                tenths = (tenths / 10).rounded()
            }
            return "\(Int(tenths) / 10).\(Int(tenths) % 10)e\(exponent)"
        }
        return FixedDecimal(units: Int64((p * 10_000).rounded()), places: 4).description
    }

    /// `p` as a decimal with four significant digits (at least four places; at most 18, the most a
    /// `FixedDecimal` holds), and zero to 16 places below `smallestPValue`.
    static func decimal(_ p: Double) -> FixedDecimal {
        guard p.isFinite else { return FixedDecimal(units: 1, places: 0) }
        if p < smallestPValue { return FixedDecimal(units: 0, places: 16) }
        let places = p >= 0.0001 ? 4 : min(Int((-Foundation.log10(p)).rounded(.up)) + 3, 18)
        return FixedDecimal(units: Int64((p * Foundation.pow(10, Double(places))).rounded()), places: places)
    }

    /// The versions in the store closest to `version`, for an error that names what exists.
    static func closestVersions(_ db: Database, to version: String) throws -> String {
        let existing = try String.fetchAll(db, sql: "SELECT DISTINCT app_version FROM sessions")
        let closest = ClosestValues.to(version, among: existing)
        return closest.isEmpty ? "the store has no sessions yet" : "versions in the store: " + closest.map(TerminalText.visible).joined(separator: ", ")
    }
}
