import Foundation
import GRDB
import HIGAuditCore

/// The open sessions a nightly run leaves for the next, as rows: one per device with open sessions
/// (`checkpoint_devices`) and one per open session (`checkpoint_sessions`, its state as JSON), written
/// and read one session at a time.
///
/// One value for the whole checkpoint grew past SQLite's limit on a value (a million open sessions):
/// the run could not commit, and neither could any later one. A row per session keeps every value the
/// size of one session (its pending events are bounded by `max_pending_events`), and the memory of
/// writing or reading it that of one session beside the engine. `engine_checkpoint` keeps its one row
/// (the run, the newest device clock, the count of open sessions, which readers show) with an empty
/// `state`; a store written before holds its checkpoint there as JSON, read once and then rewritten
/// as rows by the next run.
enum StoredCheckpoint {
    static let tables = """
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

    /// The engine's open sessions and devices in place of the stored ones, and the summary row.
    static func write(_ engine: SessionEngine, runID: Int64, db: Database) throws {
        try db.execute(sql: "DELETE FROM checkpoint_devices")
        try db.execute(sql: "DELETE FROM checkpoint_sessions")
        let devices = engine.checkpointDevices()
        let insertDevice = try db.makeStatement(sql: "INSERT INTO checkpoint_devices VALUES (?, ?, ?)")
        for device in devices {
            try insertDevice.execute(arguments: [device.device, device.clock, device.idleRuns])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let insertSession = try db.makeStatement(sql: "INSERT INTO checkpoint_sessions VALUES (?, ?, ?, ?)")
        var position: Int64 = 0
        try engine.forEachCheckpointSession { session in
            position += 1
            try insertSession.execute(arguments: [position, session.id, session.device ?? "", try encoder.encode(session)])
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO engine_checkpoint VALUES (1, ?, ?, ?, ?)",
            arguments: [runID, devices.map(\.clock).max() ?? .min, position, Data()])
    }

    /// An engine holding the stored open sessions, restored one session at a time.
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
        let rows = try Data.fetchCursor(db, sql: "SELECT state FROM checkpoint_sessions ORDER BY position")
        while let state = try rows.next() {
            engine.restore(try decoder.decode(SessionCheckpoint.self, from: state))
        }
        engine.finishRestoring()
        return engine
    }

    /// The whole stored checkpoint at once, in either form: for tests and tools, not for runs.
    static func load(_ db: Database) throws -> EngineCheckpoint {
        if let legacy = try legacyCheckpoint(db) { return legacy }
        guard try db.tableExists("checkpoint_sessions") else { return EngineCheckpoint() }
        let decoder = JSONDecoder()
        let sessions = try Data.fetchAll(db, sql: "SELECT state FROM checkpoint_sessions ORDER BY position")
            .map { try decoder.decode(SessionCheckpoint.self, from: $0) }
        return EngineCheckpoint(devices: try devices(db), sessions: sessions)
    }

    /// The checkpoint as a store written before the rows held it: one JSON value in
    /// `engine_checkpoint.state`; nil when the value is empty (rows) or there is none.
    private static func legacyCheckpoint(_ db: Database) throws -> EngineCheckpoint? {
        guard let state = try Data.fetchOne(db, sql: "SELECT state FROM engine_checkpoint WHERE id = 1"), !state.isEmpty else {
            return nil
        }
        return try JSONDecoder().decode(EngineCheckpoint.self, from: state)
    }

    private static func devices(_ db: Database) throws -> [DeviceCheckpoint] {
        guard try db.tableExists("checkpoint_devices") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT device, clock, idle_runs FROM checkpoint_devices ORDER BY device").map {
            DeviceCheckpoint(device: $0["device"], clock: $0["clock"], idleRuns: $0["idle_runs"])
        }
    }
}
