import GRDB

/// The nightly job's results store: one SQLite file (SPEC §1 "Nightly batch job", §5).
///
/// Every nightly run writes in one transaction, so a run killed at any moment (SIGKILL, power loss)
/// leaves the store as it was before the run; SQLite's journal takes care of that. Readers (`query`,
/// `compare`, `export`) open it read-only and read one consistent snapshot.
public final class ResultsStore {
    let queue: DatabaseQueue
    public let path: String

    /// Opens the store for a nightly run, creating it (and its tables) if it does not exist.
    public init(writingAt path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "hig-audit store"
        configuration.prepareDatabase { db in
            // A run inserts into seven indexes of `violations` in key order they do not share; with
            // SQLite's default 2 MiB page cache they thrash. 256 MiB at most, used only as needed.
            try db.execute(sql: "PRAGMA cache_size = -262144")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.path = path
        try StoreSchema.migrator.migrate(queue)
    }

    /// Opens an existing store read-only: queries and `--sql` can never change it.
    public init(readingAt path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.path = path
        let known = try queue.read { db in try StoreSchema.migrator.hasCompletedMigrations(db) }
        guard known else { throw StoreError.notAStore(path) }
    }

    /// Runs `body` on one consistent snapshot of the store.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }
}

/// Why the store could not be used; the message is for the person at the terminal.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case notAStore(String)
    case invalidQuery(String)

    public var description: String {
        switch self {
        case .notAStore(let path): "\(path) is not a hig-audit store (run `hig-audit nightly --store \(path) …` first)"
        case .invalidQuery(let why): why
        }
    }
}
