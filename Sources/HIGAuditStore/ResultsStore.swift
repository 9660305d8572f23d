import Foundation
import GRDB

/// The nightly job's results store: one SQLite file (SPEC §1 "Nightly batch job", §5).
///
/// Every nightly run writes in one transaction, so a run killed at any moment (SIGKILL, power loss)
/// leaves the store as it was before the run; SQLite's journal takes care of that. Readers (`query`,
/// `compare`, `export`) open it read-only and read one consistent snapshot.
///
/// A store carries `StoreSchema.applicationID` in its header, so that no other SQLite file is taken
/// for one and given tables. A store is checked (`PRAGMA quick_check`) when it is opened, for a read
/// only up to `quickCheckLimit` bytes, and any SQLite corruption error later is reported as a damaged
/// store (`StoreError.damaged`), never as an answer.
public final class ResultsStore {
    let queue: DatabaseQueue
    public let path: String
    /// A reader's quick check, running beside its first reads; no answer (`read`, `runReadOnlySQL`) is
    /// returned before it passed.
    let integrityCheck: IntegrityCheck?

    /// The largest store a reader checks when it opens it; a nightly run always checks.
    public static let quickCheckLimit: Int64 = 512 << 20

    /// Opens the store for a nightly run, creating it (and its tables) if it does not exist.
    ///
    /// The store is checked (`WriterIntegrity`), then brought up to date by the migrations it lacks
    /// (`StoreMigrations`), each in a `BEGIN IMMEDIATE` transaction: two first runs on a new store take
    /// turns as any two runs do (the second waits for the first, up to the busy timeout), instead of
    /// both creating the tables.
    public init(writingAt path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "hig-audit store"
        self.path = path
        integrityCheck = nil
        try StorePath.checkForWriting(path)
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try StoreSchema.checkIdentity(db, path: path, creating: true) }
            // The check reads pages through SQLite's default cache of 2 MiB, not the run's below,
            // which it would fill with the store.
            try queue.read { db in try WriterIntegrity.check(db, path: path) }
            try StoreMigrations.migrate(queue, path: path)
            try queue.inTransaction(.immediate) { db in
                try StoreSchema.completeForWriting(db)
                return .commit
            }
            try queue.writeWithoutTransaction { db in try RunCache.rows.apply(db) }
        } catch {
            throw StoreError.describing(error, store: path)
        }
    }

    /// Opens an existing store read-only: queries and `--sql` can never change it.
    public init(readingAt path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        self.path = path
        try StorePath.checkForReading(path)
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try StoreSchema.checkIdentity(db, path: path) }
        } catch {
            throw StoreError.describing(error, store: path)
        }
        integrityCheck = Self.fileSize(path) <= Self.quickCheckLimit ? IntegrityCheck(path: path, configuration: configuration) : nil
    }

    /// Runs `body` on one consistent snapshot of the store; a corruption error becomes
    /// `StoreError.damaged`.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let result: Result<T, any Error>
        do {
            result = .success(try queue.read(body))
        } catch {
            result = .failure(StoreError.describing(error, store: path))
        }
        // Waited for outside the read transaction: the check's own read never waits on this one.
        try integrityCheck?.verdict()
        return try result.get()
    }

    /// Runs `first` on this connection and `second` on a connection of its own at the same time,
    /// both reading one snapshot (`SnapshotLane`); `second` runs here after `first` when the store
    /// is in WAL mode, where a second reader could see a later commit, or when the lane cannot start.
    public func read<A, B: Sendable>(
        _ first: (Database) throws -> A, alongside second: @escaping @Sendable (Database) throws -> B
    ) throws -> (A, B) {
        try read { db in
            // A read of the schema takes this transaction's SHARED lock before the lane starts.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
            let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode")
            let lane = journal?.lowercased() == "wal" ? nil : SnapshotLane(path: path, body: second)
            let a: A
            do {
                a = try first(db)
            } catch {
                // The lane holds its own lock: it ends before this read does, whatever happened here.
                _ = try? lane?.finish()
                throw error
            }
            if let b = try lane?.finish() { return (a, b) }
            return (a, try second(db))
        }
    }

    /// The runs committed to the store.
    public func runCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") ?? 0 }
    }

    /// Cuts the SQL statement running on this store short when called (it fails with
    /// `SQLITE_INTERRUPT`, and the run's transaction is rolled back); for Ctrl-C during a nightly run.
    /// Safe from any thread.
    public var interrupter: @Sendable () -> Void {
        let queue = self.queue
        return { queue.interrupt() }
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}

/// The page cache of a nightly run's connection, by what the run is doing.
enum RunCache: Int {
    /// Inserting sessions and violations: a run inserts into seven indexes of `violations` in key
    /// orders they do not share, and with the default cache they thrash. 256 MiB at most, used only as
    /// needed.
    case rows = -262_144
    /// Reading or writing the open sessions' checkpoint: each row once, in key order. A large cache
    /// would only keep them, up to 256 MiB of a large checkpoint beside the engine that holds the
    /// sessions anyway (issue 46: 300,000 open sessions). Pages written beyond it are spilled to the
    /// file inside the run's transaction, which a failed run still rolls back.
    case checkpoint = -16_384

    func apply(_ db: Database) throws {
        try db.execute(sql: "PRAGMA cache_size = \(rawValue)")
    }
}

/// Why the store could not be used; the message is for the person at the terminal.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// A file that is not SQLite at all (a log named as the store), or SQLite without a store's schema.
    case notAStore(String)
    /// A store to read that is not there (a typo, another working directory).
    case missing(String)
    /// A folder named where the store file belongs.
    case folder(String)
    /// A FIFO, device or socket: SQLite would block on it, or read it for ever.
    case notARegularFile(String, kind: String)
    /// A new store whose folder does not exist.
    case missingFolder(store: String, folder: String)
    case invalidQuery(String)
    /// SQLite found the file damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, a failing quick check).
    case damaged(store: String, detail: String)
    /// `--sql` ran past its time limit and was stopped.
    case queryTimedOut(seconds: Double)
    /// The store records schema migrations this version does not know (a later hig-audit made it):
    /// those, and the ones this version knows.
    case otherSchemaVersion(store: String, migrations: [String], known: [String])

    public var description: String {
        switch self {
        case .notAStore(let path):
            "\(path) is not a hig-audit store (not a results file that `hig-audit nightly` wrote); check the path, "
                + "or give a new path to `hig-audit nightly --store` to create a store"
        case .missing(let path):
            "\(path) does not exist; check the path (`hig-audit nightly --store \(path) …` creates a store)"
        case .folder(let path):
            "\(path) is a folder, not a store; name the store file itself (e.g. \(path.hasSuffix("/") ? path : path + "/")results.sqlite)"
        case .notARegularFile(let path, let kind):
            "\(path) is \(kind), not a store file; name the store file itself"
        case .missingFolder(let store, let folder):
            "the folder \(folder) of the new store \(store) does not exist; create it first"
        case .invalidQuery(let why): why
        case .damaged(let store, let detail):
            "the store \(store) is damaged (\(detail)); nothing was written to it. Restore it from the last backup "
                + "and run nightly again, as \"A damaged store\" in Pipelines/README.md describes"
        case .otherSchemaVersion(let store, let migrations, let known):
            "the store \(store) has a schema this version of hig-audit does not know (migrations "
                + migrations.joined(separator: ", ") + "): a later version wrote it, and this one knows only "
                + known.joined(separator: ", ") + ". Nothing was read or written; use the hig-audit that wrote it, or a later one"
        case .queryTimedOut(let seconds):
            "--sql: the query ran for more than \(Self.seconds(seconds)) s and was stopped (raise --sql-timeout if it is expected to take longer)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// `error` as the store's error: SQLite's corruption codes become `damaged`, others stay as they are.
    public static func describing(_ error: any Error, store: String) -> any Error {
        guard let database = error as? DatabaseError else { return error }
        switch database.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StoreError.damaged(store: store, detail: "SQLite: \(database.message ?? "\(database.resultCode)")")
        default:
            if database.extendedResultCode == .SQLITE_IOERR_SHORT_READ {
                return StoreError.damaged(store: store, detail: "SQLite: the file is shorter than its pages say")
            }
            return error
        }
    }
}
