import GRDB
import HIGAuditCore

/// What the store says about how its runs judged their violations (`RunJudgement`, migration v3):
/// for `query --judgements`, the dashboard's exclusion reasons, and whether `summary` has its
/// `suppressed` column.
public enum RecordedJudgements {
    /// Whether the store records each violation's suppression (schema v3): in a store no run of this
    /// version has written, nothing was suppressed.
    public static func areRecorded(_ db: Database) throws -> Bool {
        try StoreSchema.recordsJudgements(db)
    }

    /// Suppressed violations per rule over the whole store; empty for a store without the record.
    public static func suppressedByRule(_ db: Database) throws -> [String: Int64] {
        guard try areRecorded(db) else { return [:] }
        return try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT rule, COUNT(*) FROM violations WHERE suppressed <> 0 GROUP BY rule")
                .map { ($0[0] as String, $0[1] as Int64) })
    }

    /// Whether any of `runs` (every run when empty) was judged with `exclude:` entries, expired or not.
    static func hadExclusions(_ db: Database, runs: Set<Int64>) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM run_exclusions \(condition(runs)))") ?? false
    }

    /// `judgements`: per run (of `runs`, every run when empty), newest first, the config fingerprint,
    /// the baseline, and the exclusions it was judged with. Empty for a store no run of this version
    /// has written.
    public static func judgementsTable(_ db: Database, runs: Set<Int64>) throws -> HIGAuditCore.Table {
        let columns: [TableColumn] = [
            .integer("run_id"), .timestamp("started_at"), .integer("violations"), .integer("suppressed"),
            .integer("exclusions_in_force"), .integer("exclusions_expired"), .text("config_sha256"),
            .text("baseline"), .text("baseline_sha256"), .integer("baseline_pairs"),
        ]
        guard try StoreSchema.recordsJudgements(db) else { return HIGAuditCore.Table(name: "judgements", columns: columns, rows: []) }
        let rows = try Row.fetchAll(db, sql: """
            SELECT j.run_id, r.started_at, r.violations, j.suppressed_violations,
                (SELECT COUNT(*) FROM run_exclusions e WHERE e.run_id = j.run_id AND e.in_force) AS in_force,
                (SELECT COUNT(*) FROM run_exclusions e WHERE e.run_id = j.run_id AND NOT e.in_force) AS expired,
                j.config_sha256, j.baseline_path, j.baseline_sha256, j.baseline_pairs
            FROM run_judgements j JOIN runs r ON r.id = j.run_id
            \(condition(runs, column: "j.run_id")) ORDER BY j.run_id DESC
            """).map { row -> [TableCell] in
                [
                    .integer(row[0]), .timestamp(row[1]), .integer(row[2]), .integer(row[3]), .integer(row[4]),
                    .integer(row[5]), optionalText(row[6]), (row[7] as String?).map(TableCell.input) ?? .empty,
                    optionalText(row[8]), (row[9] as Int64?).map(TableCell.integer) ?? .empty,
                ]
            }
        return HIGAuditCore.Table(name: "judgements", columns: columns, rows: rows)
    }

    /// `exclusions`: the `exclude:` entries of each run (of `runs`, every run when empty), newest run
    /// first, in config order, with where they were written, what they matched and why.
    public static func exclusionsTable(_ db: Database, runs: Set<Int64>) throws -> HIGAuditCore.Table {
        let columns: [TableColumn] = [
            .integer("run_id"), .integer("entry"), .text("location"), .text("rules"), .text("screens"),
            .text("app_versions"), .text("until"), .boolean("in_force"), .text("reason"),
        ]
        return HIGAuditCore.Table(name: "exclusions", columns: columns, rows: try entries(db, runs: runs).map { entry in
            [
                .integer(entry.runID), .int(entry.entry), .input(entry.location), .input(entry.rules), .input(entry.screens),
                .input(entry.appVersions), entry.until.map(TableCell.label) ?? .empty, .boolean(entry.inForce),
                .input(entry.reason),
            ]
        })
    }

    /// One recorded `exclude:` entry; lists are the JSON of the store, `*` for any.
    public struct Entry: Sendable, Equatable {
        public var runID: Int64
        public var entry: Int
        public var location: String
        public var rules: String
        public var screens: String
        public var appVersions: String
        public var reason: String
        public var until: String?
        public var inForce: Bool
    }

    /// The recorded entries of `runs` (every run when empty), newest run first, in config order.
    public static func entries(_ db: Database, runs: Set<Int64>) throws -> [Entry] {
        guard try StoreSchema.recordsJudgements(db) else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT run_id, entry, location, rules, screens, app_versions, reason, until, in_force
            FROM run_exclusions \(condition(runs)) ORDER BY run_id DESC, entry
            """).map { row in
                Entry(
                    runID: row[0], entry: row[1], location: row[2], rules: row[3] ?? "*", screens: row[4] ?? "*",
                    appVersions: row[5] ?? "*", reason: row[6], until: row[7], inForce: row[8])
            }
    }

    private static func optionalText(_ text: String?) -> TableCell { text.map(TableCell.label) ?? .empty }

    private static func condition(_ runs: Set<Int64>, column: String = "run_id") -> String {
        runs.isEmpty ? "" : "WHERE \(column) IN (\(runs.sorted().map(String.init).joined(separator: ",")))"
    }
}
