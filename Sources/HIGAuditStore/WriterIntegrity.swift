import GRDB

/// The check a nightly run (or `merge`) makes of the store before it writes to it, so that no run
/// commits on top of a damaged page.
///
/// `PRAGMA quick_check` of the whole file reads every page: on a store of many nights it cost more than
/// the night itself, and its cost grew with every night kept. So the writer checks:
/// - a store up to `wholeFileLimit` whole, as before (a few milliseconds);
/// - a larger one, the tables a run reads whole and rewrites (`tablesReadWhole`: the schema's record,
///   the runs, the open sessions and the imported SDK sessions still sending), whose size follows the
///   inputs and the open sessions rather than the closed history. The counted files are not among
///   them: a run looks each up by index and reads the name of an earlier one only when a violation
///   cites it, so their table grows with the history.
///
/// Every other page a run reads or writes (the rows its sessions and violations are inserted beside) is
/// checked by SQLite as it reads it: a damaged one fails the run with `SQLITE_CORRUPT`, its transaction
/// is rolled back and the store reported damaged (`StoreError.describing`). Pages of the history that no
/// run touches are checked whole by every reader (`query`, `compare`, `export`, `dashboard`) of a store
/// up to `ResultsStore.quickCheckLimit`, and by `sqlite3 STORE 'PRAGMA integrity_check'` beside the
/// backups (Pipelines/README.md, "A damaged store").
enum WriterIntegrity {
    /// The largest store checked whole before a run.
    static let wholeFileLimit: Int64 = 8 << 20

    /// The tables a run reads whole (or rewrites), checked with their indexes in a larger store.
    static let tablesReadWhole = [
        // `input_file_leads` is in a store not migrated yet: the check runs before the migrations.
        "grdb_migrations", "runs", "input_file_leads", "rules", "engine_checkpoint",
        "checkpoint_devices", "checkpoint_sessions", "checkpoint_import_sessions", "checkpoint_import_formats",
    ]

    static func check(_ db: Database, path: String) throws {
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        guard pages * pageSize > wholeFileLimit else {
            try StoreSchema.quickCheck(db, path: path)
            return
        }
        for table in tablesReadWhole where try db.tableExists(table) {
            try StoreSchema.quickCheck(db, path: path, table: table)
        }
    }
}
