import Foundation
import GRDB

/// A reader's `PRAGMA quick_check`, on a connection of its own and a thread of its own, so that the
/// check of a large store (a pass over every page) runs beside the reader's first queries instead
/// of before them. The reader asks for the verdict before it gives any answer (`ResultsStore.read`).
///
/// The check holds only its own read transaction and waits on nothing else, and the reader waits
/// for the verdict only after its own transaction ended: a writer waiting to commit between the
/// two can delay either, never both for each other.
final class IntegrityCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<Void, any Error>?

    init(path: String, configuration: Configuration) {
        let thread = Thread { [self] in
            let result = Result<Void, any Error> {
                do {
                    let connection = try DatabaseQueue(path: path, configuration: configuration)
                    try connection.read { db in try StoreSchema.quickCheck(db, path: path) }
                } catch {
                    throw StoreError.describing(error, store: path)
                }
            }
            lock.withLock { outcome = result }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the check; throws `StoreError.damaged` (or why the check could not run) if it failed.
    func verdict() throws {
        let known = lock.withLock { outcome }
        if let known { return try known.get() }
        done.wait()
        done.signal()
        try lock.withLock { outcome }!.get()
    }
}
