import GRDB

/// A secondary index of the `sessions` or `violations` table: what `query`, `compare`, `export` and the
/// dashboard look rows up by.
///
/// SQLite keeps every index on every insert, and the seven on `violations` are most of what a nightly
/// run spends storing a violation. Built once over rows already there, an index is sorted in one pass,
/// which costs less than keeping it row by row. So a run into a store that has no session and no
/// violation yet (a new store, a backfill, a shard's part) drops these indexes and builds them again
/// after its inserts, in the same transaction (`RowIndexes.deferredWhileEmpty`): a run that fails or is
/// killed rolls back to the store with its indexes, and a committed store has them all.
struct RowIndex: Sendable {
    let name: String
    /// What follows `CREATE INDEX name`, as the store's schema has it.
    let definition: String

    var creation: String { "CREATE INDEX \(name) \(definition)" }

    /// The indexes of `sessions` (migration `v7-row-indexes-by-run`). A filter's column leads, then
    /// `run_id`: a night's rows go at the right edge of each value's range (of every app version,
    /// device), instead of among the rows of every earlier night, whose pages it would all rewrite.
    static let onSessions = [
        RowIndex(name: "sessions_by_version", definition: "ON sessions(app_version, run_id)"),
        RowIndex(name: "sessions_by_device", definition: "ON sessions(device, run_id)"),
        RowIndex(name: "sessions_by_first_ts", definition: "ON sessions(first_ts)"),
        RowIndex(name: "sessions_by_run", definition: "ON sessions(run_id)"),
    ]

    /// The indexes of `violations` (migration `v7-row-indexes-by-run`), `run_id` before the session,
    /// for the same reason. App versions, screens and rules are few, so `(app_version, rule)` and
    /// `(screen, rule)` still lead, for the groupings by those pairs (`query --group-by`, the
    /// dashboard's worst screens); devices are many, so `run_id` follows the device alone: a night's
    /// rows then go to one place per device, not one per device and rule. `violations_by_session`
    /// stays keyed by the session: `StoredTables` reads every violation in session order through it.
    static let onViolations = [
        RowIndex(name: "violations_by_session", definition: "ON violations(session, start_ts)"),
        RowIndex(name: "violations_by_rule", definition: "ON violations(rule, run_id, session)"),
        RowIndex(name: "violations_by_version", definition: "ON violations(app_version, rule, run_id, session)"),
        RowIndex(name: "violations_by_screen", definition: "ON violations(screen, rule, run_id, session)"),
        RowIndex(name: "violations_by_device", definition: "ON violations(device, run_id, rule, session)"),
        RowIndex(name: "violations_by_start", definition: "ON violations(start_ts)"),
        RowIndex(name: "violations_by_run", definition: "ON violations(run_id)"),
    ]

    /// The indexes of `sessions` as the first version (`v1`) made them.
    static let onSessionsOfV1 = [
        RowIndex(name: "sessions_by_version", definition: "ON sessions(app_version)"),
        RowIndex(name: "sessions_by_device", definition: "ON sessions(device)"),
        RowIndex(name: "sessions_by_first_ts", definition: "ON sessions(first_ts)"),
        RowIndex(name: "sessions_by_run", definition: "ON sessions(run_id)"),
    ]

    /// The indexes of `violations` as the first version (`v1`) made them: each but the two on time
    /// ordered by the session after its leading columns, so that every night inserted among all the
    /// rows of the history.
    static let onViolationsOfV1 = [
        RowIndex(name: "violations_by_session", definition: "ON violations(session, start_ts)"),
        RowIndex(name: "violations_by_rule", definition: "ON violations(rule, session)"),
        RowIndex(name: "violations_by_version", definition: "ON violations(app_version, rule, session)"),
        RowIndex(name: "violations_by_screen", definition: "ON violations(screen, rule, session)"),
        RowIndex(name: "violations_by_device", definition: "ON violations(device, rule, session)"),
        RowIndex(name: "violations_by_start", definition: "ON violations(start_ts)"),
        RowIndex(name: "violations_by_run", definition: "ON violations(run_id)"),
    ]

    /// `indexes` as statements of the schema's script.
    static func creating(_ indexes: [RowIndex]) -> String {
        indexes.map { $0.creation + ";" }.joined(separator: "\n")
    }
}

/// The row indexes a run defers while the tables they index are empty (see `RowIndex`).
///
/// Each is built again from the SQL the store holds for it, so a store whose owner dropped or
/// redefined one keeps its schema. A run that reads nothing still drops and builds them (on empty
/// tables, at no cost worth a second path). The build's sorts may take memory up to the connection's
/// cache size (`ResultsStore`) on top of the pages cached, for a backfill of millions of rows; a run
/// into a store with rows never builds.
struct RowIndexes {
    /// Name and SQL of each index dropped, in the order of `RowIndex`'s lists.
    private let deferred: [(name: String, sql: String)]

    /// Drops the row indexes the store has when `sessions` and `violations` hold no row, inside `db`'s
    /// transaction.
    static func deferredWhileEmpty(_ db: Database) throws -> RowIndexes {
        let empty = try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM sessions) AND NOT EXISTS (SELECT 1 FROM violations)
            """) ?? false
        guard empty else { return RowIndexes(deferred: []) }
        var stored: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            stored[row[0]] = row[1]
        }
        let deferred = (RowIndex.onSessions + RowIndex.onViolations).compactMap { index in
            stored[index.name].map { (name: index.name, sql: $0) }
        }
        for index in deferred { try db.execute(sql: "DROP INDEX \(index.name)") }
        return RowIndexes(deferred: deferred)
    }

    /// Whether the run dropped the indexes and is to build them before it commits.
    var areDeferred: Bool { !deferred.isEmpty }

    /// Builds the dropped indexes over the rows inserted since.
    func build(_ db: Database) throws {
        for index in deferred { try db.execute(sql: index.sql) }
    }
}

extension RowIndex {
    /// Migration `v7-row-indexes-by-run`: every row index the store holds as `v1` made it is made again
    /// as `onSessions` and `onViolations` define it, over the rows already there (one sort each). An
    /// index its owner dropped stays dropped, and one redefined (another definition under our name)
    /// stays as its owner made it.
    static func keyByRun(_ db: Database) throws {
        var stored: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            stored[row[0]] = row[1]
        }
        let first = Dictionary(uniqueKeysWithValues: (onSessionsOfV1 + onViolationsOfV1).map { ($0.name, $0) })
        for index in onSessions + onViolations {
            guard let old = first[index.name], old.definition != index.definition, stored[index.name] == old.creation else { continue }
            try db.execute(sql: "DROP INDEX \(index.name)")
            try db.execute(sql: index.creation)
        }
    }
}
