import Foundation
import GRDB
import HIGAuditCore

/// What the importer of a nightly run with `--from` knows of each SDK session (its launches, their ids,
/// its tab, its synthetic start: `EventImporter.SessionLaunches`), kept for the next run beside the
/// engine's open sessions, so that a launch uploaded a night later is numbered after those of earlier
/// nights (SPEC §7 "Sessions"), as one run over every night's inputs numbers it.
///
/// Rows are keyed by format and SDK session. A run restores its format's rows before reading, then
/// writes the rows of the sessions it read: the whole state of those whose state changed, the run
/// only of the others. A session no run of its format has read for `idle_runs` runs in a row loses
/// its row, as a device idle that long loses its open sessions (SPEC §2), so that the table follows
/// the sessions still sending, not every session ever imported. Runs are counted per format
/// (`checkpoint_import_formats`): those that read input, as the engine counts a device's idle runs.
enum StoredImportedSessions {
    /// `v10-checkpoint-import-sessions`.
    static let tablesOfV10 = """
        CREATE TABLE checkpoint_import_sessions (
            format TEXT NOT NULL,
            session TEXT NOT NULL,
            launches INTEGER NOT NULL,
            launch_ids BLOB NOT NULL,
            tab_root TEXT,
            synthetic_start_ts INTEGER,
            last_run INTEGER NOT NULL,
            PRIMARY KEY (format, session)
        ) WITHOUT ROWID;
        CREATE INDEX checkpoint_import_sessions_by_last_run ON checkpoint_import_sessions(format, last_run);
        CREATE TABLE checkpoint_import_formats (
            format TEXT PRIMARY KEY,
            runs INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Gives `importer` the states earlier runs of its format left. Called on the run's thread before
    /// any input is read: the reader thread that then uses the importer never touches the store.
    static func restore(into importer: EventImporter, _ db: Database) throws {
        let rows = try Row.fetchCursor(
            db, sql: """
                SELECT session, launches, launch_ids, tab_root, synthetic_start_ts FROM checkpoint_import_sessions
                WHERE format = ?
                """,
            arguments: [importer.format.rawValue])
        while let row = try rows.next() {
            let session: String = row["session"]
            guard let ids = StoredLaunchIds.decode(row["launch_ids"]) else {
                throw StoredCheckpointError.unreadableImportedSession(importer.format.rawValue, session)
            }
            importer.restore(session: session, EventImporter.SessionLaunches(
                launches: row["launches"], launchIds: ids, tabRoot: row["tab_root"], syntheticStartTs: row["synthetic_start_ts"]))
        }
    }

    /// Writes what `importer` learned in this run (inside the run's transaction, so that the store's
    /// results and the states they were numbered by commit together), and deletes the rows of sessions
    /// idle for `idleRuns` runs of the format.
    static func save(from importer: EventImporter, idleRuns: Int, _ db: Database) throws {
        let format = importer.format.rawValue
        let runs = (try Int64.fetchOne(
            db, sql: "SELECT runs FROM checkpoint_import_formats WHERE format = ?", arguments: [format]) ?? 0) + 1
        try db.execute(
            sql: "INSERT OR REPLACE INTO checkpoint_import_formats (format, runs) VALUES (?, ?)", arguments: [format, runs])
        let upsert = try RowStatement(db, sql: """
            INSERT INTO checkpoint_import_sessions
                (format, session, launches, launch_ids, tab_root, synthetic_start_ts, last_run)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (format, session) DO UPDATE SET launches = excluded.launches, launch_ids = excluded.launch_ids,
                tab_root = excluded.tab_root, synthetic_start_ts = excluded.synthetic_start_ts, last_run = excluded.last_run
            """)
        let touch = try RowStatement(
            db, sql: "UPDATE checkpoint_import_sessions SET last_run = ? WHERE format = ? AND session = ?")
        var read: [(session: String, state: EventImporter.SessionLaunches, changed: Bool)] = []
        importer.forEachSessionRead { read.append(($0, $1, $2)) }
        // In the table's key order (SQLite's BINARY collation compares UTF-8 bytes): each page once.
        read.sort { $0.session.utf8.lexicographicallyPrecedes($1.session.utf8) }
        for (session, state, changed) in read {
            if changed {
                try upsert.execute(
                    format, session, state.launches, StoredLaunchIds.encode(state.launchIds), state.tabRoot,
                    state.syntheticStartTs, runs)
            } else {
                try touch.execute(runs, format, session)
            }
        }
        try db.execute(
            sql: "DELETE FROM checkpoint_import_sessions WHERE format = ? AND last_run <= ?",
            arguments: [format, runs - Int64(max(idleRuns, 1))])
    }
}
