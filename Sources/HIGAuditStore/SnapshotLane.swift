import Foundation
import GRDB

/// A second read-only connection reading the snapshot of a read transaction already open on the
/// first, on a thread of its own, so that one answer's independent queries use two cores.
///
/// Why it is the same snapshot: in SQLite's rollback-journal mode (a store's) a reader holds a SHARED
/// lock for its whole transaction, and a writer commits only with the EXCLUSIVE lock, which no
/// SHARED lock allows. The lane is started after the first transaction took its lock and takes its
/// own before the first one ends, so no commit can fall between the two. A lane that cannot take
/// its lock at once (a writer is waiting to commit and holds PENDING) does not wait for it — the
/// first transaction, which the writer waits for, would be waiting for the lane — but reports that it
/// did not start, and the caller does the work on the first connection instead.
final class SnapshotLane<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Nil when the lane never read: its connection could not be opened or locked at once.
    private var outcome: Result<Value, any Error>?

    init(path: String, body: @escaping @Sendable (Database) throws -> Value) {
        let thread = Thread { [self] in
            defer { done.signal() }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .immediateError
            guard let connection = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            var locked = false
            do {
                let value = try connection.read { db -> Value in
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
                    locked = true
                    return try body(db)
                }
                outcome = .success(value)
            } catch {
                if locked { outcome = .failure(error) }
            }
        }
        thread.start()
    }

    /// The lane's value or error once it finished; nil when it never read.
    func finish() throws -> Value? {
        done.wait()
        return try outcome?.get()
    }
}
