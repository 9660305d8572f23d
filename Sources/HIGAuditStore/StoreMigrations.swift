import GRDB

/// How the store's schema changes from one version of hig-audit to the next: GRDB's
/// `DatabaseMigrator`, which records each migration applied in `grdb_migrations`.
///
/// The policy, for a store made by another version:
/// - **older** (a migration of this list not recorded): a nightly run (or `merge`) applies the missing
///   migrations in order, each in an immediate transaction of its own, before its run; readers
///   (`query`, `compare`, `export`, `dashboard`) never write, and read an unmigrated store as it is
///   (every table they read is the first version's, and a counter column it lacks reads as 0).
/// - **newer** (a migration recorded that this list lacks): refused, by writers and readers alike,
///   naming the migrations (`StoreError.otherSchemaVersion`): this version would misread its tables
///   or write rows the newer one does not expect.
///
/// Adding a migration is one entry at the end of `all`. A migration is never changed once released:
/// stores that recorded it keep what it did.
enum StoreMigrations {
    /// One step of the schema: its identifier in `grdb_migrations`, and what it does.
    struct Step: Sendable {
        let identifier: String
        let migrate: @Sendable (Database) throws -> Void
    }

    /// Every migration, in the order they apply. `v1` and `v2` are the identifiers the versions before
    /// the migrator recorded for the same steps, so that their stores are recognised.
    static let all: [Step] = [
        Step(identifier: "v1") { db in
            try db.execute(sql: StoreSchema.firstVersionTables)
            try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
        },
        // Moved the open sessions' checkpoint from one value of `engine_checkpoint` into rows, and added
        // the files' leads beside them. A store of the first version may have either table already.
        Step(identifier: "v2") { db in
            try db.execute(sql: StoreSchema.runsReadable)
            try db.execute(sql: StoreSchema.inputFileLeadsOfV2)
            try db.execute(sql: StoredCheckpoint.tablesOfV2)
        },
        // How each run judged its violations (SPEC §6): `violations.suppressed`, `run_judgements`,
        // `run_exclusions` (`StoreSchema+Judgements.swift`).
        Step(identifier: "v3") { db in try db.execute(sql: StoreSchema.judgementsDDL) },
        Step(identifier: "v4-file-leads-in-input-files") { db in try foldFileLeads(db) },
        Step(identifier: "v5-checkpoint-sessions-by-session") { db in try StoredCheckpoint.keyBySession(db) },
        // Each session's touch coverage (`StoreSchema+Touches.swift`).
        Step(identifier: "v6-session-touches") { db in try db.execute(sql: StoreSchema.sessionTouchesDDL) },
        // The row indexes keyed by `run_id` after their leading columns, so that a night's rows append
        // instead of rewriting the pages of every earlier night (issue 46, `RowIndex`).
        Step(identifier: "v7-row-indexes-by-run") { db in try RowIndex.keyByRun(db) },
        // Open sessions' checkpoint rows in a binary form instead of JSON (issue 46, `PackedCheckpoint`).
        Step(identifier: "v8-checkpoint-sessions-packed") { db in try StoredCheckpoint.packSessions(db) },
        // Open sessions' checkpoint rows written field by field instead of through `Codable` (issue 46,
        // `StoredSession`).
        Step(identifier: "v9-checkpoint-sessions-explicit") { db in try StoredCheckpoint.storeSessionsExplicitly(db) },
        // What the importer of a `--from` run knows of each SDK session, for the next run
        // (`StoredImportedSessions`). A version before it, which would number a later night's launches
        // afresh, refuses the store by its record.
        Step(identifier: "v10-checkpoint-import-sessions") { db in try db.execute(sql: StoredImportedSessions.tablesOfV10) },
    ]

    /// The identifier of the first migration: a store that records it is a hig-audit store even
    /// without the application id (stores made before the id existed).
    static let first = all[0].identifier

    static var identifiers: [String] { all.map(\.identifier) }

    /// `input_file_leads` folded into a column of `input_files`: a lead is kept with the head it was
    /// recorded beside, so a lead whose head is no longer its file's (the file grew, or was renumbered
    /// by a `merge` of an earlier version) is left out, as readers of the side table ignored it. Two
    /// indexes let a run look counted files up by lead, and find the head lengths of those without
    /// one, instead of reading them all (`StoredFiles`).
    private static func foldFileLeads(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE input_files ADD COLUMN lead_sha256 TEXT;
            CREATE INDEX input_files_by_lead ON input_files(lead_sha256) WHERE lead_sha256 IS NOT NULL;
            CREATE INDEX input_files_unled_lengths ON input_files(head_length) WHERE lead_sha256 IS NULL;
            """)
        guard try db.tableExists("input_file_leads") else { return }
        try db.execute(sql: """
            UPDATE input_files SET lead_sha256 = (
                SELECT l.lead_sha256 FROM input_file_leads l
                WHERE l.file = input_files.id AND l.head_sha256 = input_files.head_sha256)
            """)
        try db.execute(sql: "DROP TABLE input_file_leads")
    }

    /// The migrator of `all`. Each migration runs with foreign keys checked as it goes (`.immediate`),
    /// not by GRDB's deferred `foreign_key_check` of the whole file, whose cost would grow with the
    /// store's history; none of them rebuilds a table that others reference.
    ///
    /// Two first runs may migrate the same store at once: each migration begins by looking, inside its
    /// own immediate transaction, whether the other run applied it meanwhile, and then steps back
    /// (`AppliedMeanwhile`) for `migrate(_:)` to start over.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in all {
            let identifier = step.identifier
            migrator.registerMigration(identifier, foreignKeyChecks: .immediate) { db in
                if try isApplied(identifier, db) { throw AppliedMeanwhile() }
                try step.migrate(db)
            }
        }
        return migrator
    }

    /// Applies the migrations the store lacks, after checking that it records none this version does
    /// not know.
    static func migrate(_ queue: DatabaseQueue, path: String) throws {
        let migrator = self.migrator
        // Each retry follows a migration another process applied: at most one per migration.
        for _ in 0...all.count {
            do {
                try queue.read { db in try refuseUnknown(db, path: path) }
                try migrator.migrate(queue)
                return
            } catch is AppliedMeanwhile {
                continue
            }
        }
        try migrator.migrate(queue)
    }

    /// Refuses a store that records migrations this version does not know (a later hig-audit made it).
    static func refuseUnknown(_ db: Database, path: String) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        let known = Set(identifiers)
        let unknown = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            .filter { !known.contains($0) }
        if !unknown.isEmpty { throw StoreError.otherSchemaVersion(store: path, migrations: unknown, known: identifiers) }
    }

    /// Whether the store records the first migration (and has its `runs`).
    static func hasFirst(_ db: Database) throws -> Bool {
        guard try db.tableExists("runs") else { return false }
        return try isApplied(first, db)
    }

    /// The migrations the store lacks, in order: what its next nightly run applies.
    static func missing(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return identifiers }
        let applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        return identifiers.filter { !applied.contains($0) }
    }

    private static func isApplied(_ identifier: String, _ db: Database) throws -> Bool {
        guard try db.tableExists("grdb_migrations") else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT 1 FROM grdb_migrations WHERE identifier = ?", arguments: [identifier]) ?? false
    }

    /// A migration found applied by another process when its turn came.
    private struct AppliedMeanwhile: Error {}
}
