import GRDB
import HIGAuditCore

/// The results store's tables, as an analyst sees them in any SQLite client (Pipelines/README.md
/// documents each column). Timestamps are integers of milliseconds since the Unix epoch, as in the
/// engine; the `*_readable` views add RFC 3339 text.
enum StoreSchema {
    /// `PRAGMA application_id` of a hig-audit store ("HIGA"): the header says what the file is, so
    /// that another application's SQLite file is refused rather than given our tables.
    static let applicationID: Int32 = 0x4849_4741

    /// The migration the first version recorded (GRDB's `grdb_migrations`). Stores made before the
    /// application id have it and no id; new stores record it too, so that older readers know them.
    static let firstMigration = "v1"

    /// The migration that moved the open sessions' checkpoint from one value of `engine_checkpoint` into
    /// rows of `checkpoint_devices` and `checkpoint_sessions` (`StoredCheckpoint`). A version that
    /// knows only `v1` refuses such a store instead of reading an empty checkpoint from it.
    static let checkpointRowsMigration = "v2"

    /// The migration that records how each run judged its violations (SPEC §6): the `suppressed` flag
    /// of `violations`, and `run_judgements` and `run_exclusions` (`StoreSchema+Judgements.swift`).
    static let judgementsMigration = "v3"

    /// Checks, creates or completes the schema for a nightly run. Call it inside an immediate
    /// transaction: the decision to create the tables and their creation are then one step.
    static func prepareForWriting(_ db: Database, path: String) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard id == 0 || id == applicationID else { throw StoreError.notAStore(path) }
        try quickCheck(db, path: path)
        let objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") ?? 0
        if objects == 0 {
            try db.execute(sql: tables)
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [firstMigration])
        } else if id == 0, try !hasFirstMigration(db) {
            throw StoreError.notAStore(path)
        }
        try addMissingColumns(db)
        try migrateJudgements(db)
        if id != applicationID { try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
    }

    /// Refuses a file that is not a hig-audit store: another application id, or no id and not a
    /// store of the version before it.
    static func checkIdentity(_ db: Database, path: String) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let isStore = try id == applicationID || (id == 0 && hasFirstMigration(db))
        guard isStore else { throw StoreError.notAStore(path) }
        try checkSchemaVersion(db, path: path)
    }

    /// The migrations this version knows; a store that records another was made by a later version,
    /// whose tables this one would misread.
    static let knownMigrations: Set<String> = [firstMigration, checkpointRowsMigration, judgementsMigration]

    /// Refuses a store whose schema this version does not know.
    static func checkSchemaVersion(_ db: Database, path: String) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        let unknown = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            .filter { !knownMigrations.contains($0) }
        if !unknown.isEmpty { throw StoreError.otherSchemaVersion(store: path, migrations: unknown) }
    }

    /// SQLite's quick check of the whole file (pages, records, free list; not index contents).
    static func quickCheck(_ db: Database, path: String) throws {
        let verdict = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        guard verdict == ["ok"] else {
            throw StoreError.damaged(store: path, detail: "quick_check: " + verdict.joined(separator: "; "))
        }
    }

    private static func hasFirstMigration(_ db: Database) throws -> Bool {
        guard try db.tableExists("grdb_migrations"), try db.tableExists("runs") else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT 1 FROM grdb_migrations WHERE identifier = ?", arguments: [firstMigration]) ?? false
    }

    /// Columns and tables added after the first version, added to an older store by its next nightly
    /// run: a column for every ingest counter the first version's `runs` lacks
    /// (`IngestStatistics.counters`), appended in their order, and `input_file_leads`. Readers of a
    /// store not yet run take a missing column as 0. Files counted before have no lead, and are looked
    /// for by their head alone (`FileIdentity`).
    private static func addMissingColumns(_ db: Database) throws {
        try db.execute(sql: runsReadable)
        try db.execute(sql: inputFileLeads)
        try db.execute(sql: StoredCheckpoint.tables)
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        try db.execute(sql: "INSERT OR IGNORE INTO grdb_migrations VALUES (?)", arguments: [checkpointRowsMigration])
        let present = try runsColumns(db)
        for counter in IngestStatistics.counters where !present.contains(counter.name) {
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN \(counter.name) INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// The names of the `runs` table's columns.
    static func runsColumns(_ db: Database) throws -> Set<String> {
        Set(try db.columns(in: "runs").map(\.name))
    }

    /// The digest of the first `FileIdentity.leadBytes` bytes of each counted file whose head is
    /// longer and shorter than `FileIdentity.headBytes`, by `input_files.id`, with the head it was
    /// recorded beside. A table of its own rather than a column, so that an earlier version still
    /// writes to the store (its rows of `input_files` are positional); files it counts get no lead, and
    /// a row whose head is no longer its file's (the file was changed, or renumbered by an earlier
    /// version's `merge`) is ignored.
    static let inputFileLeads = """
        CREATE TABLE IF NOT EXISTS input_file_leads (
            file INTEGER PRIMARY KEY,
            head_sha256 TEXT NOT NULL,
            lead_sha256 TEXT NOT NULL
        )
        """

    /// The tables and views of a new store. `runs` is the first version's, which its stores have:
    /// the counters added since come from `addMissingColumns`, as they do for those stores.
    static let tables = """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    started_at INTEGER NOT NULL,
                    finished_at INTEGER NOT NULL,
                    close_open INTEGER NOT NULL,
                    files INTEGER NOT NULL, files_skipped INTEGER NOT NULL, files_changed INTEGER NOT NULL,
                    compressed_bytes INTEGER NOT NULL, decompressed_bytes INTEGER NOT NULL,
                    frames INTEGER NOT NULL, lines INTEGER NOT NULL, events INTEGER NOT NULL,
                    sessions INTEGER NOT NULL, sessions_closed INTEGER NOT NULL, open_sessions INTEGER NOT NULL,
                    malformed_lines INTEGER NOT NULL, late_events INTEGER NOT NULL,
                    duplicate_events INTEGER NOT NULL, unknown_types INTEGER NOT NULL,
                    skipped_bytes INTEGER NOT NULL, truncated_files INTEGER NOT NULL,
                    unbalanced_dismisses INTEGER NOT NULL, faults INTEGER NOT NULL,
                    violations INTEGER NOT NULL
                );
                CREATE TABLE input_files (
                    id INTEGER PRIMARY KEY,
                    display_path TEXT NOT NULL,
                    head_length INTEGER NOT NULL,
                    head_sha256 TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    content_sha256 TEXT NOT NULL,
                    resume_stored_offset INTEGER NOT NULL,
                    resume_decompressed_offset INTEGER NOT NULL,
                    resume_lines_before INTEGER NOT NULL,
                    counted_lines INTEGER NOT NULL,
                    held_back INTEGER NOT NULL,
                    first_run INTEGER NOT NULL REFERENCES runs(id),
                    last_run INTEGER NOT NULL REFERENCES runs(id)
                );
                CREATE INDEX input_files_by_head ON input_files(head_length, head_sha256);
                CREATE INDEX input_files_by_path ON input_files(display_path);
                CREATE TABLE sessions (
                    session TEXT PRIMARY KEY,
                    device TEXT NOT NULL,
                    app_version TEXT NOT NULL,
                    first_ts INTEGER NOT NULL,
                    last_ts INTEGER NOT NULL,
                    events INTEGER NOT NULL,
                    violations INTEGER NOT NULL,
                    run_id INTEGER NOT NULL REFERENCES runs(id)
                ) WITHOUT ROWID;
                \(RowIndex.creating(RowIndex.onSessions))
                CREATE TABLE session_haptics (
                    session TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (session, kind)
                ) WITHOUT ROWID;
                CREATE TABLE violations (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL REFERENCES runs(id),
                    rule TEXT NOT NULL,
                    severity TEXT NOT NULL,
                    session TEXT NOT NULL,
                    device TEXT NOT NULL,
                    app_version TEXT NOT NULL,
                    screen TEXT NOT NULL,
                    start_ts INTEGER NOT NULL,
                    end_ts INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    detail TEXT NOT NULL,
                    source TEXT NOT NULL,
                    source_file INTEGER NOT NULL,
                    source_line INTEGER NOT NULL
                );
                \(RowIndex.creating(RowIndex.onViolations))
                CREATE TABLE unknown_types (
                    run_id INTEGER NOT NULL REFERENCES runs(id),
                    type TEXT NOT NULL,
                    events INTEGER NOT NULL,
                    PRIMARY KEY (run_id, type)
                );
                CREATE TABLE rules (
                    rule TEXT PRIMARY KEY,
                    severity TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE engine_checkpoint (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    run_id INTEGER NOT NULL REFERENCES runs(id),
                    stream_newest_ts INTEGER NOT NULL,
                    open_sessions INTEGER NOT NULL,
                    state BLOB NOT NULL
                );
                CREATE VIEW violations_readable AS
                    SELECT rule, severity, session, device, app_version, screen,
                           strftime('%Y-%m-%dT%H:%M:%fZ', start_ts / 1000.0, 'unixepoch') AS start_ts,
                           strftime('%Y-%m-%dT%H:%M:%fZ', end_ts / 1000.0, 'unixepoch') AS end_ts,
                           count, detail, source, run_id
                    FROM violations;
                """ + "\n" + runsReadable

    /// `runs` with its two times as RFC 3339 text first; every column of `runs` follows, so that the view
    /// keeps up with columns added later.
    static let runsReadable = """
        CREATE VIEW IF NOT EXISTS runs_readable AS
            SELECT id AS run_id,
                   strftime('%Y-%m-%dT%H:%M:%fZ', started_at / 1000.0, 'unixepoch') AS started,
                   strftime('%Y-%m-%dT%H:%M:%fZ', finished_at / 1000.0, 'unixepoch') AS finished,
                   runs.*
            FROM runs
        """
}
