import Foundation
import GRDB
import HIGAuditCore

/// The open sessions a nightly run leaves for the next, as rows: one per device with open sessions
/// (`checkpoint_devices`) and one per open session (`checkpoint_sessions`, keyed by the session, its
/// state in `StoredSession`'s form since `v9`, `PackedCheckpoint`'s from `v8`, as JSON before), read
/// and written one session at a time.
///
/// One value for the whole checkpoint grew past SQLite's limit on a value (a million open sessions):
/// the run could not commit, and neither could any later one. A row per session keeps every value the
/// size of one session (its pending events are bounded by `max_pending_events`), and the memory of
/// writing or reading it that of one session beside the engine.
///
/// A run rewrites only what changed (`CheckpointWriter`): a session that received nothing keeps its
/// row, a session that closed loses it, and a new or changed one is upserted; so a night of few
/// uploads over many idle open sessions writes few pages. `engine_checkpoint` keeps its one row (the
/// run, the newest device clock, the count of open sessions, which readers show) with an empty
/// `state`; a store written before `v2` holds its checkpoint there as JSON, read once and then
/// rewritten as rows by the next run.
enum StoredCheckpoint {
    /// The checkpoint tables as `v2` made them, `checkpoint_sessions` in write order (`position`).
    static let tablesOfV2 = """
        CREATE TABLE IF NOT EXISTS checkpoint_devices (
            device TEXT PRIMARY KEY,
            clock INTEGER NOT NULL,
            idle_runs INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS checkpoint_sessions (
            position INTEGER PRIMARY KEY,
            session TEXT NOT NULL,
            device TEXT NOT NULL,
            state BLOB NOT NULL
        );
        """

    /// `v5-checkpoint-sessions-by-session`: `checkpoint_sessions` keyed by the session, so that a run
    /// finds, keeps, replaces or deletes one session's row without rewriting the others. Rows move over
    /// in their order; a session listed twice (a table edited by hand) keeps its later row, the one the
    /// engine restored.
    static func keyBySession(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE checkpoint_sessions_by_session (
                session TEXT NOT NULL PRIMARY KEY,
                device TEXT NOT NULL,
                state BLOB NOT NULL
            );
            INSERT OR REPLACE INTO checkpoint_sessions_by_session (session, device, state)
                SELECT session, device, state FROM checkpoint_sessions ORDER BY position;
            DROP TABLE checkpoint_sessions;
            ALTER TABLE checkpoint_sessions_by_session RENAME TO checkpoint_sessions;
            """)
    }

    /// `v8-checkpoint-sessions-packed`: each open session's JSON state rewritten in `PackedCheckpoint`'s
    /// form, a session at a time (in batches of keys, never the whole table in memory), so that the
    /// next run reads no JSON. A version before `v8` cannot read the packed rows: the migration's
    /// record makes it refuse the store (`StoreMigrations.refuseUnknown`) instead of failing on them.
    static func packSessions(_ db: Database) throws {
        guard try db.tableExists("checkpoint_sessions") else { return }
        let decoder = JSONDecoder()
        try rewriteRows(db) { session, state in
            guard !PackedCheckpoint.isPacked(state) else { return nil }
            return Data(try PackedCheckpoint.encode(try decode(state, session: session, decoder)))
        }
    }

    /// `v9-checkpoint-sessions-explicit`: each open session's state rewritten in `StoredSession`'s form
    /// (from `PackedCheckpoint`'s, or JSON in a store whose `v8` step found none), a batch of keys at a
    /// time, so that a run reads every row by its fields. A version before `v9` cannot read the new rows:
    /// the migration's record makes it refuse the store (`StoreMigrations.refuseUnknown`).
    static func storeSessionsExplicitly(_ db: Database) throws {
        guard try db.tableExists("checkpoint_sessions") else { return }
        let decoder = JSONDecoder()
        try rewriteRows(db) { session, state in
            guard !StoredSession.isStored(state) else { return nil }
            return Data(try StoredSession.encode(try decode(state, session: session, decoder)))
        }
    }

    /// Gives each checkpoint row the state `rewritten` returns for it (nil: the row stays), a batch of
    /// 500 keys at a time in key order, so that a migration never holds the whole table in memory.
    private static func rewriteRows(_ db: Database, _ rewritten: (String, Data) throws -> Data?) throws {
        let update = try RowStatement(db, sql: "UPDATE checkpoint_sessions SET state = ? WHERE session = ?")
        var after = ""
        var first = true
        while true {
            let rows = try Row.fetchAll(
                db, sql: "SELECT session, state FROM checkpoint_sessions WHERE ? OR session > ? ORDER BY session LIMIT 500",
                arguments: [first, after])
            guard let last = rows.last else { return }
            for row in rows {
                let session: String = row["session"]
                if let state = try rewritten(session, row["state"]) { try update.execute(state, session) }
            }
            after = last["session"]
            first = false
        }
    }

    /// An engine holding the stored open sessions, restored one session at a time, in session order.
    static func engine(
        _ db: Database, configuration: AuditConfiguration, onLate: @escaping SessionEngine.LateSink,
        onReport: @escaping SessionEngine.ReportSink
    ) throws -> SessionEngine {
        if let legacy = try legacyCheckpoint(db) {
            return SessionEngine(configuration: configuration, checkpoint: legacy, onLate: onLate, onReport: onReport)
        }
        let engine = SessionEngine(
            configuration: configuration, checkpointDevices: try devices(db), onLate: onLate, onReport: onReport)
        let decoder = JSONDecoder()
        let rows = try Row.fetchCursor(db, sql: "SELECT session, state FROM checkpoint_sessions ORDER BY session")
        while let row = try rows.next() {
            let session: String = row["session"]
            engine.restore(try decode(row["state"], session: session, decoder))
        }
        engine.finishRestoring()
        return engine
    }

    /// The whole stored checkpoint at once, in any of its forms: for tests and tools, not for runs.
    static func load(_ db: Database) throws -> EngineCheckpoint {
        if let legacy = try legacyCheckpoint(db) { return legacy }
        guard try db.tableExists("checkpoint_sessions") else { return EngineCheckpoint() }
        let decoder = JSONDecoder()
        // `v2`'s rows are in session order too: its positions followed the sessions' order.
        let sessions = try Row.fetchAll(db, sql: "SELECT session, state FROM checkpoint_sessions ORDER BY session")
            .map { try decode($0["state"], session: $0["session"], decoder) }
        return EngineCheckpoint(devices: try devices(db), sessions: sessions)
    }

    /// One session's stored state, in `StoredSession`'s form or (a row not yet migrated to `v9`)
    /// `PackedCheckpoint`'s or JSON; a state that does not decode names its session.
    static func decode(_ state: Data, session: String, _ decoder: JSONDecoder) throws -> SessionCheckpoint {
        do {
            if StoredSession.isStored(state) {
                return try StoredSession.decode([UInt8](state))
            }
            if PackedCheckpoint.isPacked(state) {
                return try PackedCheckpoint.decode(SessionCheckpoint.self, from: [UInt8](state))
            }
            return try decoder.decode(SessionCheckpoint.self, from: state)
        } catch {
            throw StoredCheckpointError.unreadableSession(session, String(describing: error))
        }
    }

    /// The checkpoint as a store written before the rows held it: one JSON value in
    /// `engine_checkpoint.state`; nil when the value is empty (rows) or there is none.
    static func legacyCheckpoint(_ db: Database) throws -> EngineCheckpoint? {
        guard let state = try Data.fetchOne(db, sql: "SELECT state FROM engine_checkpoint WHERE id = 1"), !state.isEmpty else {
            return nil
        }
        do {
            return try JSONDecoder().decode(EngineCheckpoint.self, from: state)
        } catch {
            throw StoredCheckpointError.unreadableSession("(the checkpoint of a store before v2)", String(describing: error))
        }
    }

    private static func devices(_ db: Database) throws -> [DeviceCheckpoint] {
        guard try db.tableExists("checkpoint_devices") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT device, clock, idle_runs FROM checkpoint_devices ORDER BY device").map {
            DeviceCheckpoint(device: $0["device"], clock: $0["clock"], idleRuns: $0["idle_runs"])
        }
    }
}

/// A stored checkpoint that this version cannot read back (a row edited by hand, or damaged).
enum StoredCheckpointError: Error, CustomStringConvertible, Equatable {
    case unreadableSession(String, String)
    /// An imported SDK session's launch ids (`StoredImportedSessions`): its format and session.
    case unreadableImportedSession(String, String)

    var description: String {
        switch self {
        case .unreadableSession(let session, let why):
            "the stored state of the open session \(session) cannot be read (\(why)); nothing was written. "
                + Self.restoreBackup
        case .unreadableImportedSession(let format, let session):
            "the stored launch ids of the \(format) session \(session) cannot be read; nothing was written. "
                + Self.restoreBackup
        }
    }

    private static let restoreBackup = "Restore the store from its last backup (Pipelines/README.md, \"A damaged store\")"
}

/// Writes a run's checkpoint into the rows of the one before: deletes the rows of the sessions that
/// closed (`sessionClosed`), then upserts each open session whose state differs from its row
/// (`finish`). Unchanged rows are not written, so the pages a run dirties follow what the night held,
/// not every session still open.
///
/// Closed sessions' rows are deleted in batches, in key order, through the checkpoint's small page
/// cache, not one by one as they close: deleted one at a time among the run's inserts, through the
/// rows' large cache, a night that closed 300,000 restored sessions held most of the checkpoint's pages
/// dirty at once (issue 46). A run that leaves no session open empties the table in one statement.
final class CheckpointWriter {
    /// The most closed sessions kept before their rows are deleted: it bounds what the list holds.
    static let deleteBatch = 50_000
    private let batch: Int
    /// Closed sessions whose rows, if the checkpoint held them, are not deleted yet.
    private var closed: [String] = []
    private let delete: RowStatement
    private let stored: Statement
    private let upsert: RowStatement
    private let legacy: Bool
    /// Open sessions written (new or changed) by `finish`.
    private(set) var sessionsWritten = 0

    init(_ db: Database, deleteBatch: Int = CheckpointWriter.deleteBatch) throws {
        batch = max(1, deleteBatch)
        delete = try RowStatement(db, sql: "DELETE FROM checkpoint_sessions WHERE session = ?")
        stored = try db.makeStatement(sql: "SELECT state FROM checkpoint_sessions WHERE session = ?")
        upsert = try RowStatement(db, sql: """
            INSERT INTO checkpoint_sessions (session, device, state) VALUES (?, ?, ?)
            ON CONFLICT (session) DO UPDATE SET device = excluded.device, state = excluded.state
            """)
        legacy = try StoredCheckpoint.legacyCheckpoint(db) != nil
    }

    /// A session closed this run: its row, if the checkpoint held it, goes (within the run's
    /// transaction, by `finish` at the latest).
    func sessionClosed(_ session: String, db: Database) throws {
        closed.append(session)
        guard closed.count >= batch else { return }
        try RunCache.checkpoint.apply(db)
        defer { try? RunCache.rows.apply(db) }
        try deleteClosed()
    }

    /// Deletes the rows of the sessions closed since the last batch, in the table's key order (SQLite's
    /// BINARY collation compares UTF-8 bytes), so that each page is visited once.
    private func deleteClosed() throws {
        closed.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for session in closed { try delete.execute(session) }
        closed.removeAll(keepingCapacity: true)
    }

    /// The engine's open sessions and devices in place of the stored ones, and the summary row.
    func finish(_ engine: SessionEngine, runID: Int64, db: Database) throws {
        // Before the upserts: a session that closed and is open again under its id keeps its new row.
        if engine.openSessionCount == 0 {
            closed.removeAll()
            try db.execute(sql: "DELETE FROM checkpoint_sessions")
        } else {
            try deleteClosed()
        }
        try db.execute(sql: "DELETE FROM checkpoint_devices")
        let devices = engine.checkpointDevices()
        let insertDevice = try RowStatement(
            db, sql: "INSERT INTO checkpoint_devices (device, clock, idle_runs) VALUES (?, ?, ?)")
        for device in devices {
            try insertDevice.execute(device.device, device.clock, device.idleRuns)
        }
        var open = 0
        try engine.forEachCheckpointSession { session in
            open += 1
            let state = Data(try StoredSession.encode(session))
            if !legacy, try Data.fetchOne(stored, arguments: [session.id]) == state { return }
            try upsert.execute(session.id, session.device ?? "", state)
            sessionsWritten += 1
        }
        // Every session the checkpoint held either closed (its row deleted) or is open (its row kept or
        // upserted); a table edited by hand may hold others, which go now.
        if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM checkpoint_sessions") != open {
            try db.execute(sql: "CREATE TEMP TABLE open_sessions (session TEXT PRIMARY KEY) WITHOUT ROWID")
            defer { try? db.execute(sql: "DROP TABLE temp.open_sessions") }
            let keep = try RowStatement(db, sql: "INSERT OR IGNORE INTO temp.open_sessions (session) VALUES (?)")
            try engine.forEachCheckpointSession { try keep.execute($0.id) }
            try db.execute(sql: "DELETE FROM checkpoint_sessions WHERE session NOT IN (SELECT session FROM temp.open_sessions)")
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO engine_checkpoint (id, run_id, stream_newest_ts, open_sessions, state)
                VALUES (1, ?, ?, ?, ?)
                """,
            arguments: [runID, devices.map(\.clock).max() ?? .min, open, Data()])
    }
}
