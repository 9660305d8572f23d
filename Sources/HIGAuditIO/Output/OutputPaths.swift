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

    /// The first of `paths` that is `directory` itself or lies below it, links followed; nil when none
    /// does. A path that does not exist yet is placed by its parent directory.
    public static func firstPathInside(_ directory: String, of paths: [String]) -> String? {
        guard let folder = canonical(directory) else { return nil }
        return paths.first { path in
            guard let resolved = canonical(path) else { return false }
            return resolved == folder || resolved.hasPrefix(folder == "/" ? "/" : folder + "/")
        }
    }

    /// `path` with links, `.` and `..` resolved (`realpath`); for a path that does not exist, its
    /// parent's resolved path and its last component; nil when neither can be resolved.
    static func canonical(_ path: String) -> String? {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else {
            return canonical(".").map { $0 + "/" + trimmed }
        }
        let parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        let name = String(trimmed[trimmed.index(after: slash)...])
        guard !name.isEmpty, name != ".", name != "..", let base = realpath(parent, nil) else { return nil }
        defer { free(base) }
        let folder = String(cString: base)
        return (folder == "/" ? "" : folder) + "/" + name
    }

    /// Makes `directory` and its missing parents (as `mkdir -p`: `--out exports/5.2` in a folder with
    /// no `exports` yet) and checks that the run can write files in it; the reason it cannot otherwise.
    /// The folders it creates are removed again if the command is interrupted (`Interruption`).
    public static func prepareDirectory(_ directory: String) -> String? {
        let firstCreated = topmostMissing(directory)
        let failure = makeDirectory(directory)
        if failure != 0 {
            return "cannot create the output directory \(directory): \(String(cString: strerror(failure)))"
        }
        if let firstCreated { Interruption.track(createdFolder: firstCreated) }
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

    /// The outermost of `directory` and its parents that does not exist yet (what `makeDirectory`
    /// would create first, and removing it removes all it creates); nil when `directory` exists.
    static func topmostMissing(_ directory: String) -> String? {
        var missing: String?
        var current = Substring(directory)
        while current.count > 1, current.hasSuffix("/") { current = current.dropLast() }
        while !current.isEmpty {
            var status = stat()
            guard lstat(String(current), &status) != 0, errno == ENOENT else { break }
            missing = String(current)
            guard let slash = current.lastIndex(of: "/"), slash != current.startIndex else { break }
            current = current[..<slash]
        }
        return missing
    }

    /// Creates `directory` and any missing parents, as `mkdir -p`: 0 when it exists afterwards (or
    /// something else by that name does, which the caller checks), else the `errno` of the failure.
    public static func makeDirectory(_ directory: String) -> Int32 {
        if mkdir(directory, 0o755) == 0 { return 0 }
        let failure = errno
        guard failure == ENOENT else { return failure == EEXIST ? 0 : failure }
        var parent = Substring(directory)
        while parent.hasSuffix("/") { parent = parent.dropLast() }
        guard let slash = parent.lastIndex(of: "/") else { return failure }
        let parentPath = String(parent[..<slash])
        guard !parentPath.isEmpty else { return failure }
        let parentFailure = makeDirectory(parentPath)
        if parentFailure != 0 { return parentFailure }
        return mkdir(directory, 0o755) == 0 || errno == EEXIST ? 0 : errno
    }
}
