import GRDB
import HIGAuditCore

/// The results store's tables, as an analyst sees them in any SQLite client (Pipelines/README.md
/// documents each column). Timestamps are integers of milliseconds since the Unix epoch, as in the
/// engine; the `*_readable` views add RFC 3339 text.
enum StoreSchema {
    /// `PRAGMA application_id` of a hig-audit store ("HIGA"): the header says what the file is, so
    /// that another application's SQLite file is refused rather than given our tables.
    static let applicationID: Int32 = 0x4849_4741

    /// Refuses a file that is not a hig-audit store: another application id, or no id and not a
    /// store of the version before it. A file without any table is a store to create when
    /// `creating` (a nightly run), and not a store for a reader.
    static func checkIdentity(_ db: Database, path: String, creating: Bool = false) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard id == 0 || id == applicationID else { throw StoreError.notAStore(path) }
        if id == 0, try !(creating && isNew(db)), try !StoreMigrations.hasFirst(db) { throw StoreError.notAStore(path) }
        try StoreMigrations.refuseUnknown(db, path: path)
    }

    /// Whether the file holds no table, view or index of its own yet: a store to create. GRDB's
    /// `grdb_migrations` alone is a store whose first run is creating it.
    static func isNew(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'grdb_migrations'
            """) == 0
    }

    /// What a nightly run does after the migrations, in one immediate transaction: a column for every
    /// ingest counter the store's `runs` lacks (`IngestStatistics.counters`), appended in their order,
    /// and the application id of a store made before it. Counters are not migrations: adding one to
    /// `IngestStatistics` is all it takes, and readers of a store not run since take a missing column as 0.
    static func completeForWriting(_ db: Database) throws {
        let present = try runsColumns(db)
        for counter in IngestStatistics.counters where !present.contains(counter.name) {
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN \(counter.name) INTEGER NOT NULL DEFAULT 0")
        }
        if try Int32.fetchOne(db, sql: "PRAGMA application_id") != applicationID {
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        }
    }

    /// SQLite's quick check of the whole file (pages, records, free list; not index contents).
    static func quickCheck(_ db: Database, path: String) throws {
        try quickCheck(db, path: path, pragma: "PRAGMA quick_check(3)")
    }

    /// SQLite's quick check of `table` and its indexes alone.
    static func quickCheck(_ db: Database, path: String, table: String) throws {
        try quickCheck(db, path: path, pragma: "PRAGMA quick_check(\(table.quotedDatabaseIdentifier))")
    }

    private static func quickCheck(_ db: Database, path: String, pragma: String) throws {
        let verdict = try String.fetchAll(db, sql: pragma)
        guard verdict == ["ok"] else {
            throw StoreError.damaged(store: path, detail: "quick_check: " + verdict.prefix(3).joined(separator: "; "))
        }
    }

    /// The names of the `runs` table's columns.
    static func runsColumns(_ db: Database) throws -> Set<String> {
        Set(try db.columns(in: "runs").map(\.name))
    }

    /// `input_file_leads` as `v2` made it: the lead of each counted file, beside the head it was
    /// recorded with, in a table of its own so that the version before could still write its positional
    /// rows of `input_files`. `v4-file-leads-in-input-files` folds it into `input_files.lead_sha256`.
    static let inputFileLeadsOfV2 = """
        CREATE TABLE IF NOT EXISTS input_file_leads (
            file INTEGER PRIMARY KEY,
            head_sha256 TEXT NOT NULL,
            lead_sha256 TEXT NOT NULL
        )
        """

    /// The tables and views of the first version (`v1`). `runs` has the first version's columns: the
    /// counters added since come from `completeForWriting`, as they do for the stores it made.
    static let firstVersionTables = """
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
                \(RowIndex.creating(RowIndex.onSessionsOfV1))
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
                \(RowIndex.creating(RowIndex.onViolationsOfV1))
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
