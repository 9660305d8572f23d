import Dispatch
import Foundation
import HIGAuditCore
import Synchronization

/// One file of an output directory: where it goes, its table, and the writer of its format.
public struct TableFile: Sendable {
    public var path: String
    public var table: Table
    public var writer: any TableWriter

    public init(path: String, table: Table, writer: any TableWriter) {
        self.path = path
        self.table = table
        self.writer = writer
    }
}

/// A table file that could not be written, and why.
public struct TableFileError: Error, CustomStringConvertible {
    public var path: String
    public var underlying: FileOutputError
    public var description: String { underlying.description }
}

/// Writes the files of an output directory (`analyze --out`, `nightly --out`, `export`) several at a
/// time.
///
/// Each file is replaced whole (`FileOutput.replacingFile`: written under a temporary name, then
/// renamed over the old one). On ext4 and file systems like it, renaming over an existing file first
/// allocates the new file's blocks (the `auto_da_alloc` safeguard against empty files after a crash),
/// and that waits for the journal: milliseconds a file, for a few kilobytes of summary. With several
/// files in flight those waits overlap, and so does formatting the large tables on the cores the run
/// has finished with. Which thread writes which file changes nothing in any file.
///
/// Paths that are written through rather than replaced (a FIFO, a device, a symbolic link such as
/// `/dev/stdout`: see `FileOutput`) may share one stream, and opening a FIFO waits for its reader; when
/// any path is one of those, the files are written one after another in the list's order, and the
/// first failure stops the rest, so that a shared stream gets each file whole and in order.
public enum TableFiles {
    /// Files in flight at once: enough to overlap the renames' waits, which are not CPU work.
    public static let defaultWriters = 4

    /// Writes every file; then throws the error of the first file, in `files`' order, that could not
    /// be written, so that the error is the same whatever the timing. (When a path is written through,
    /// the files after a failure are not written.)
    public static func write(_ files: [TableFile], writers: Int = defaultWriters) throws(TableFileError) {
        guard files.allSatisfy({ FileOutput.replaces($0.path) }) else {
            for file in files {
                if let failure = write(file) { throw failure }
            }
            return
        }
        let outcome = Outcome(count: files.count)
        let next = Atomic<Int>(0)
        let work: @Sendable () -> Void = {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                outcome.record(write(files[index]), at: index)
            }
        }
        let helpers = min(writers, files.count) - 1
        let group = DispatchGroup()
        for _ in 0..<max(0, helpers) {
            group.enter()
            Thread {
                work()
                group.leave()
            }.start()
        }
        work()
        group.wait()
        if let failure = outcome.firstFailure { throw failure }
    }

    private static func write(_ file: TableFile) -> TableFileError? {
        do throws(FileOutputError) {
            var output = try FileOutput.replacingFile(at: file.path)
            file.writer.write(file.table, to: &output)
            try output.close()
            return nil
        } catch {
            return TableFileError(path: file.path, underlying: error)
        }
    }

    /// Each file's failure, if any, by its index in the list.
    private final class Outcome: Sendable {
        private let failures: Mutex<[TableFileError?]>

        init(count: Int) { failures = Mutex(Array(repeating: nil, count: count)) }

        func record(_ failure: TableFileError?, at index: Int) {
            guard let failure else { return }
            failures.withLock { $0[index] = failure }
        }

        var firstFailure: TableFileError? {
            failures.withLock { $0.lazy.compactMap { $0 }.first }
        }
    }
}
