import GRDB

/// Migration "v3": how each nightly run judged its violations (SPEC §6), so that a later query sees
/// a night as it was judged then, even after the config or the baseline changed.
///
/// `StoreMigrations.all` runs `judgementsDDL` as its step "v3". A store without it was written by an
/// earlier version: every violation in it counts (none was suppressed), and its runs have no recorded
/// judgement. Columns are named; nothing here is written or read by position.
extension StoreSchema {
    /// `violations.suppressed`: 1 when an `exclude:` entry in force on the run's day matched the
    /// violation; it then counts only in `summary`'s `suppressed` column.
    ///
    /// `run_judgements`: one row per run of this version: the SHA-256 of the config file's content
    /// (NULL without `--config`), the `--baseline` file as given, its SHA-256 and number of pairs
    /// (NULL without one), and how many violations the run suppressed.
    ///
    /// `run_exclusions`: the run's `exclude:` entries in config order, with their config line, their
    /// lists as JSON (NULL for "any"), reason, `until`, and whether they were in force that day.
    static let judgementsDDL = """
        ALTER TABLE violations ADD COLUMN suppressed INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE run_judgements (
            run_id INTEGER PRIMARY KEY REFERENCES runs(id),
            config_sha256 TEXT,
            baseline_path TEXT,
            baseline_sha256 TEXT,
            baseline_pairs INTEGER,
            suppressed_violations INTEGER NOT NULL
        );
        CREATE TABLE run_exclusions (
            run_id INTEGER NOT NULL REFERENCES runs(id),
            entry INTEGER NOT NULL,
            location TEXT NOT NULL,
            rules TEXT,
            screens TEXT,
            app_versions TEXT,
            reason TEXT NOT NULL,
            until TEXT,
            in_force INTEGER NOT NULL,
            PRIMARY KEY (run_id, entry)
        );
        DROP VIEW IF EXISTS violations_readable;
        CREATE VIEW violations_readable AS
            SELECT rule, severity, session, device, app_version, screen,
                   strftime('%Y-%m-%dT%H:%M:%fZ', start_ts / 1000.0, 'unixepoch') AS start_ts,
                   strftime('%Y-%m-%dT%H:%M:%fZ', end_ts / 1000.0, 'unixepoch') AS end_ts,
                   count, detail, source, run_id, suppressed
            FROM violations;
        """

    /// Whether the store records suppression (migration v3): a store no run of this version has
    /// written is read as one where nothing was suppressed.
    static func recordsJudgements(_ db: Database) throws -> Bool {
        try db.tableExists("run_judgements")
    }
}
