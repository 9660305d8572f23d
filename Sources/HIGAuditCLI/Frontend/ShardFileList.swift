#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `nightly --shard-files`: the files one shard reads, in the run's order, and which of them it counts
/// (`count<TAB>path`) or only reads for its sessions (`read<TAB>path`). Written by the Spark job's
/// planner; a list file keeps the command line short for shards of many thousand files. The path is a
/// JSON string (`count<TAB>"uploads/a\nb.zst"`), so that any name, a line break or tab in it included,
/// fits one line; a path written plainly (not starting with `"`) is read as it stands.
///
/// The list and every file it names must be regular files: the planner lists log files only, so a
/// device (`/dev/zero`, read for ever), a FIFO (blocks) or a folder in it is a mistake, reported with
/// its line before any work.
struct ShardFileList {
    var paths: [String]
    var counted: Set<String>

    /// Far more than a list of a million paths needs; a bigger file is not a list.
    static let maximumSize = 1 << 30

    static func read(_ path: String) throws -> ShardFileList {
        if let problem = notARegularFile(path, largest: maximumSize) { throw UsageError("--shard-files \(path) \(problem)") }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("cannot read --shard-files \(path): \(error.localizedDescription)")
        }
        var list = ShardFileList(paths: [], counted: [])
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, fields[0] == "count" || fields[0] == "read", !fields[1].isEmpty else {
                throw UsageError("--shard-files \(path):\(index + 1): expected `count<TAB>path` or `read<TAB>path`")
            }
            guard let file = Self.path(in: fields[1]) else {
                throw UsageError("--shard-files \(path):\(index + 1): the path is not a valid JSON string")
            }
            // A missing file is the run's to report (status 66, or read past with --allow-missing).
            if FileManager.default.fileExists(atPath: file), let problem = notARegularFile(file) {
                throw UsageError("--shard-files \(path):\(index + 1): \(file) \(problem); the list names log files only")
            }
            list.paths.append(file)
            if fields[0] == "count" { list.counted.insert(file) }
        }
        guard !list.paths.isEmpty else { throw UsageError("--shard-files \(path) lists no file") }
        return list
    }

    /// The path a list line names: a JSON string decoded, or the field as it stands.
    private static func path(in field: Substring) -> String? {
        guard field.first == "\"" else { return String(field) }
        return try? JSONDecoder().decode(String.self, from: Data(field.utf8))
    }

    /// Why `path` is not a regular file (of at most `largest` bytes), or nil when it is one (links followed).
    private static func notARegularFile(_ path: String, largest: Int = .max) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "cannot be read: \(String(cString: strerror(errno)))" }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return status.st_size > largest ? "is larger than \(largest >> 30) GiB: not a file list" : nil
        case S_IFDIR: return "is a folder, not a file"
        case S_IFIFO: return "is a FIFO, not a regular file"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
        case S_IFSOCK: return "is a socket, not a regular file"
        default: return "is not a regular file"
        }
    }
}
