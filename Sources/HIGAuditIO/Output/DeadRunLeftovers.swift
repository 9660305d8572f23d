#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What a run killed outright (`kill -9`, a lost machine) left beside its output: a temporary store, its
/// SQLite journal, a half-written page. Such names carry the writing process's id (`OUT.merge-tmp-PID`,
/// `.DIR.new-PID`), so the next run can tell a leftover from the work of a run still going: it removes
/// an entry only when no process has that id any more.
public enum DeadRunLeftovers {
    /// Removes every entry of `directory` named `stem + PID`, or `stem + PID` followed by one of
    /// `tails`, whose process is gone; returns the names removed. A process that exists but belongs to
    /// another user (`EPERM`) counts as running; an id reused by a new process keeps the leftover, which
    /// errs on the side of keeping.
    @discardableResult
    public static func remove(in directory: String, stem: String, tails: [String] = []) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(stem) {
            let rest = name.dropFirst(stem.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let pid = Int32(digits), pid > 0 else { continue }
            let tail = String(rest.dropFirst(digits.count))
            guard tail.isEmpty || tails.contains(tail), !isRunning(pid) else { continue }
            if (try? FileManager.default.removeItem(atPath: directory + "/" + name)) != nil { removed.append(name) }
        }
        return removed
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
