import Foundation
import GRDB
import HIGAuditCore

/// `compare`: per rule, how often sessions of two app versions broke it, and whether the difference is
/// beyond noise (SPEC §1: "whether a release made it better or worse").
public enum ReleaseComparison {
    /// The default significance level. With fifteen rules compared at once, about one rule in two
    /// comparisons of identical releases would be flagged at 0.05; 0.01 keeps false alarms rare.
    public static let defaultAlpha = 0.01

    /// One row per recorded rule (id order): sessions and sessions affected in each version, rate per
    /// 1,000 sessions in each, the change (head − base), the test used, z, the two-sided p-value, and
    /// `verdict`: `worse` or `better` when p < `alpha`, else `noise`.
    public static func table(_ db: Database, base: String, head: String, alpha: Double = defaultAlpha) throws -> HIGAuditCore.Table {
        let totals = try sessionCounts(db, versions: [base, head])
        let affected = try affectedCounts(db, versions: [base, head])
        let rules = try String.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
        let totalBase = totals[base] ?? 0, totalHead = totals[head] ?? 0
        for (version, total) in [(base, totalBase), (head, totalHead)] where total == 0 {
            throw StoreError.invalidQuery(
                "the store has no sessions of app version '\(version)' (or one extending it); \(try closestVersions(db, to: version))")
        }
        let rows = rules.map { rule -> [TableCell] in
            let a = affected[[base, rule]] ?? 0, b = affected[[head, rule]] ?? 0
            let rateBase = FixedDecimal.ratio(a, totalBase, scale: 1000)
            let rateHead = FixedDecimal.ratio(b, totalHead, scale: 1000)
            let test = RateTest.compare(affectedBase: a, totalBase: totalBase, affectedHead: b, totalHead: totalHead)
            let change = FixedDecimal(units: rateHead.units &- rateBase.units, places: 2)
            let verdict = test.pValue < alpha ? (rateHead.units > rateBase.units ? "worse" : "better") : "noise"
            return [
                .label(rule), .integer(totalBase), .integer(a), .decimal(rateBase), .integer(totalHead), .integer(b),
                .decimal(rateHead), .decimal(change), .label(test.method.rawValue),
                test.z.map { .decimal(FixedDecimal(units: Int64(($0 * 100).rounded()), places: 2)) } ?? .empty,
                .label(Self.format(test.pValue)), .label(verdict),
            ]
        }
        let columns: [TableColumn] = [
            .text("rule"), .integer("base_sessions"), .integer("base_affected"), .decimal("base_rate_per_1000"),
            .integer("head_sessions"), .integer("head_affected"), .decimal("head_rate_per_1000"), .decimal("change_per_1000"),
            .text("test"), .decimal("z"), TableColumn("p_value", kind: .text, alignment: .right), .text("verdict"),
        ]
        return HIGAuditCore.Table(name: "compare", columns: columns, rows: rows)
    }

    /// p-values in plain notation with four significant digits (no exponent, which spreadsheets misread).
    /// Below 10⁻¹⁶ the normal approximation says nothing more precise, so the value is given as a bound.
    static func format(_ p: Double) -> String {
        if p >= 0.0001 { return String(format: "%.4f", p) }
        if p < 1e-16 { return "<0.0000000000000001" }
        let digits = Int((-p.log10()).rounded(.up)) + 3
        return String(format: "%.\(min(digits, 20))f", p)
    }

    /// Sessions of each version, a version taking every one that extends it (`VersionPrefix`).
    private static func sessionCounts(_ db: Database, versions: [String]) throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for version in versions {
            var sql: [String] = []
            var arguments = StatementArguments()
            StoreSelection.versions("app_version", [version], &sql, &arguments)
            counts[version] = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions WHERE " + sql[0], arguments: arguments)
        }
        return counts
    }

    private static func affectedCounts(_ db: Database, versions: [String]) throws -> [[String]: Int64] {
        var counts: [[String]: Int64] = [:]
        for version in versions {
            var sql: [String] = []
            var arguments = StatementArguments()
            StoreSelection.versions("app_version", [version], &sql, &arguments)
            for row in try Row.fetchAll(
                db, sql: "SELECT rule, COUNT(DISTINCT session) FROM violations WHERE \(sql[0]) GROUP BY rule",
                arguments: arguments) {
                counts[[version, row[0]]] = row[1]
            }
        }
        return counts
    }

    /// The versions in the store closest to `version`, for an error that names what exists.
    static func closestVersions(_ db: Database, to version: String) throws -> String {
        let existing = try String.fetchAll(db, sql: "SELECT DISTINCT app_version FROM sessions")
        let closest = ClosestValues.to(version, among: existing)
        return closest.isEmpty ? "the store has no sessions yet" : "versions in the store: " + closest.joined(separator: ", ")
    }
}

private extension Double {
    func log10() -> Double { Foundation.log10(self) }
}
