#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a run's outputs against its inputs and prepares them before any work is done, so that an
/// operator's slip (an output path that is one of the logs, a file where a directory should be)
/// costs a usage error, not a log replaced by a report or a run that fails after it committed.
public enum OutputPaths {
    /// The files `--out DIR` writes: every exported table as CSV and JSON.
    public static func tableFiles(in directory: String, tables: [String]) -> [String] {
        tables.flatMap { name in ["csv", "json"].map { "\(directory)/\(name).\($0)" } }
    }

    /// The first output that is the same file as an input (same device and inode, links followed),
    /// with that input; nil when none is. Outputs that do not exist yet cannot be inputs.
    public static func firstInputReplaced(by outputs: [String], inputs: [String]) -> (output: String, input: String)? {
        // Only an output that exists can be an input: with none, the inputs (thousands, in a layout of
        // one file per upload) need no stat.
        var existing: [(path: String, device: UInt64, inode: UInt64)] = []
        for output in outputs {
            var status = stat()
            if stat(output, &status) == 0 { existing.append((output, UInt64(status.st_dev), UInt64(status.st_ino))) }
        }
        guard !existing.isEmpty else { return nil }
        var identities: [(device: UInt64, inode: UInt64, path: String)] = []
        for input in inputs {
            var status = stat()
            if stat(input, &status) == 0 { identities.append((UInt64(status.st_dev), UInt64(status.st_ino), input)) }
        }
        for output in existing {
            if let same = identities.first(where: { $0.device == output.device && $0.inode == output.inode }) {
                return (output.path, same.path)
            }
        }
        return nil
    }

    /// Makes `directory` (one level, as `mkdir`) if it is missing and checks that the run can write
    /// files in it; the reason it cannot otherwise.
    /// A directory it creates is removed again if the command is interrupted (`Interruption`).
    public static func prepareDirectory(_ directory: String) -> String? {
        if mkdir(directory, 0o755) == 0 {
            Interruption.track(createdFolder: directory)
        } else if errno != EEXIST {
            return "cannot create the output directory \(directory): \(String(cString: strerror(errno)))"
        }
        var status = stat()
        guard stat(directory, &status) == 0 else {
            return "cannot use the output directory \(directory): \(String(cString: strerror(errno)))"
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            return "the output directory \(directory) exists and is not a directory"
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            return "cannot write in the output directory \(directory): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
