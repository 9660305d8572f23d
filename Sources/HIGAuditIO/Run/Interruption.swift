#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM for the commands that write (`analyze`, `nightly`): the command stops,
/// says what it left ("interrupted: nothing written", "interrupted: the store is unchanged"), removes
/// what it had begun (the `--out` folder it created, temporary files, the dashboard's staging folder)
/// and exits with 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, as a shell reports a
/// command a signal ended.
///
/// The signal handler only writes the signal's number to a pipe; a thread of its own reads it and acts
/// outside the handler, where removing files and taking locks is safe. What it does depends on the
/// mode: `exitAtOnce` (nothing the run holds needs undoing) removes the debris and exits from that
/// thread; `stopTheRun` (a nightly run's open transaction, which only its own thread can roll back)
/// sets `isRequested`, which the run's reading loop checks (`checkpoint()`), and calls the hooks that
/// cut a running SQL statement short; the run's thread then rolls back and calls `exit`. A second
/// signal exits at once in any mode.
public enum Interruption {
    public enum Mode: Sendable {
        /// Remove the debris, say "interrupted: MESSAGE" and exit, from the signal's thread.
        case exitAtOnce(message: String)
        /// Ask the run's thread to stop (`isRequested`); `hooks` run at once (e.g. interrupting SQLite).
        /// `otherwise` is said if a second signal comes before the run's thread has stopped.
        case stopTheRun(otherwise: String, hooks: [@Sendable () -> Void])
    }

    /// What `exitAtOnce` removes: files by path, and folders this run created, with what is in them.
    private enum Debris { case file, folder }

    private struct State {
        var installed = false
        var mode = Mode.exitAtOnce(message: "nothing written")
        var debris: [String: Debris] = [:]
        /// The first signal received; 0 before one came.
        var signal: Int32 = 0
    }

    private static let state = Mutex(State())
    private static let requested = Atomic<Bool>(false)
    /// The pipe's write end, for the handler (which may only make async-signal-safe calls).
    nonisolated(unsafe) private static var pipeWriteEnd: Int32 = -1

    /// Catches SIGINT and SIGTERM from now on, in `mode`. A signal the process was started to ignore
    /// (`nohup`, a background job of a shell without job control) stays ignored.
    public static func install(_ mode: Mode) {
        let alreadyInstalled = state.withLock { state in
            state.mode = mode
            defer { state.installed = true }
            return state.installed
        }
        guard !alreadyInstalled else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        pipeWriteEnd = ends[1]
        let readEnd = ends[0]
        let watcher = Thread { watch(readEnd) }
        watcher.name = "hig-audit signals"
        watcher.start()
        // A process may start with them blocked (a parent's mask survives exec: a test runner's,
        // for one); unblocked on this thread, and on the threads it starts from now on.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in [SIGINT, SIGTERM] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(Interruption.pipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
            sigaddset(&unblocked, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Changes what a signal does from now on (say, once a nightly run has committed).
    public static func setMode(_ mode: Mode) {
        state.withLock { $0.mode = mode }
    }

    /// Whether a signal asked the run to stop (`stopTheRun`).
    public static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Throws `InterruptedRun` when a signal asked the run to stop: the reading loops call it between
    /// inputs and batches, so that the run's transaction is rolled back by its own thread.
    public static func checkpoint() throws(InterruptedRun) {
        if isRequested { throw InterruptedRun() }
    }

    /// A file to remove if the command is interrupted (a temporary file being written).
    public static func track(file path: String) {
        state.withLock { $0.debris[path] = .file }
    }

    /// A folder this run created, to remove with its content if the command is interrupted.
    public static func track(createdFolder path: String) {
        state.withLock { $0.debris[path] = .folder }
    }

    /// No longer debris: renamed into place, removed, or kept.
    public static func untrack(_ path: String) {
        state.withLock { _ = $0.debris.removeValue(forKey: path) }
    }

    /// Removes the debris, says "interrupted: MESSAGE" on standard error and exits with 128 + the
    /// signal (130 when none came, as for Ctrl-C). For the run's thread, after it stopped.
    public static func exit(saying message: String) -> Never {
        state.withLock { state in end(&state, saying: message) }
    }

    private static func watch(_ readEnd: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return }
            let signal = Int32(byte)
            let hooks: [@Sendable () -> Void]? = state.withLock { state in
                let second = state.signal != 0
                if !second { state.signal = signal }
                switch state.mode {
                case .exitAtOnce(let message):
                    end(&state, saying: message)
                case .stopTheRun(let otherwise, let hooks):
                    if second { end(&state, saying: otherwise) }
                    requested.store(true, ordering: .relaxed)
                    return hooks
                }
            }
            for hook in hooks ?? [] { hook() }
        }
    }

    /// Called with the state locked, so that no thread adds debris while it is removed.
    private static func end(_ state: inout State, saying message: String) -> Never {
        for (path, kind) in state.debris.sorted(by: { $0.key > $1.key }) {
            switch kind {
            case .file: unlink(path)
            case .folder: try? FileManager.default.removeItem(atPath: path)
            }
        }
        var text = "hig-audit: interrupted: \(message)\n"
        // A progress line on a terminal is cleared first.
        if isatty(STDERR_FILENO) != 0 { text = "\r\u{1B}[K" + text }
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        _exit(128 + (state.signal == 0 ? SIGINT : state.signal))
    }
}

/// Thrown by `Interruption.checkpoint()` when a signal asked the run to stop.
public struct InterruptedRun: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted" }
}
