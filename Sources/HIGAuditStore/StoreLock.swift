#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock on `STORE.lock` that serialises the writers which replace a store file whole
/// (`merge`), and which the nightly wrapper takes around its runs: two merges into one store would
/// each build on the store as it was and the last rename would win, losing the other's parts.
///
/// An advisory `flock` on a file of its own beside the store: SQLite's locks cannot serve, since the
/// store is replaced by a rename rather than written in place. The lock file stays (removing it could
/// let a waiting process and a new one lock two different files); the lock ends with the process, also
/// when it is killed.
final class StoreLock {
    private let descriptor: Int32

    /// Takes the lock, calling `waiting` once if another process holds it, then waiting for it.
    init(store: String, waiting: () -> Void) throws(StoreMergeError) {
        let path = store + ".lock"
        // Non-blocking: a FIFO put where the lock file goes must not hold the merge in open(2).
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { throw StoreMergeError.cannotLock(path, String(cString: strerror(errno))) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK else {
            let why = String(cString: strerror(errno))
            close(descriptor)
            throw StoreMergeError.cannotLock(path, why)
        }
        waiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let why = String(cString: strerror(errno))
                close(descriptor)
                throw StoreMergeError.cannotLock(path, why)
            }
        }
    }

    deinit {
        close(descriptor)
    }
}
