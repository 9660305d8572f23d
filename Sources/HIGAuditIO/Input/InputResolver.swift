import HIGAuditCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns command-line input arguments into the ordered list of sources one run reads.
public enum InputResolver {
    /// File name endings that mark a log inside a directory (compared ignoring case).
    public static let logExtensions = [".zst", ".ndjson", ".jsonl"]
    /// The endings of another tool's export files in a directory (`--from`, SPEC §7): JSON lines,
    /// plain, zstd or gzip.
    public static let exportExtensions = [".zst", ".ndjson", ".jsonl", ".gz"]

    /// Arguments as the user typed them: files (any extension), directories (every `.zst`, `.ndjson`,
    /// `.jsonl` file below, recursively, in lexicographic byte order of the path below the directory;
    /// `displayPath` = the directory as named joined with that path), `-` = standard input.
    ///
    /// Missing or unreadable paths and directories without logs become diagnostics, not failures, and
    /// so do logs in a directory that come in a container the reader does not read (`x.ndjson.gz`).
    /// Inside a directory only regular files and symbolic links to them are taken: a FIFO, a device or
    /// a socket there becomes an unreadable-file diagnostic (skipped input), so that a scan never
    /// blocks on one; named as an argument, any file is read. Symbolic links to files are followed; symbolic links to directories are not descended into
    /// (like `find`), so a link cycle cannot make the walk endless. Arguments keep their order.
    /// `endings` are the file name endings taken in a directory: `logExtensions`, or `exportExtensions`.
    public static func resolve(
        _ arguments: [String], endings: [String] = logExtensions
    ) -> (sources: [InputSource], diagnostics: [Diagnostic]) {
        var passedOver: [PassedOver] = []
        return resolve(arguments, endings: endings, passedOver: &passedOver)
    }

    /// The `.json` files a directory of exports holds, which are not read: such a name is as often a
    /// manifest (`sample` writes one beside its logs) as an export (an OpenTelemetry Collector's file
    /// exporter, a page of Datadog's events API saved by hand), so they are named to the user, who
    /// reads them by naming them (`DIR/*.json`), rather than passed over without a word.
    public struct PassedOver: Equatable, Sendable {
        /// The directory as named on the command line.
        public var directory: String
        /// Its `.json` files, in the order the directory's logs are read (paths as `displayPath`s are).
        public var paths: [String]

        public init(directory: String, paths: [String]) {
            self.directory = directory
            self.paths = paths
        }
    }

    /// The endings of files a directory of exports holds that are not read but said (`PassedOver`).
    public static let exportEndingsSaid = [".json"]

    /// `resolve`, also giving for each directory of exports (`endings` is `exportExtensions`) the
    /// files it holds that are not read but said (`PassedOver`).
    public static func resolve(
        _ arguments: [String], endings: [String], passedOver: inout [PassedOver]
    ) -> (sources: [InputSource], diagnostics: [Diagnostic]) {
        let said = endings == exportExtensions ? exportEndingsSaid : []
        var sources: [InputSource] = []
        var diagnostics: [Diagnostic] = []
        for argument in arguments {
            if argument == "-" {
                sources.append(.standardInput)
                continue
            }
            var status = stat()
            guard stat(argument, &status) == 0 else {
                diagnostics.append(Diagnostic(
                    .unreadableFile, at: argument, StoredFile.systemMessage(errno)))
                continue
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                sources.append(InputSource(path: argument))
                continue
            }
            var found: [String] = []
            var unread: [String] = []
            collectLogs(
                in: argument, below: "", endings: endings, said: said, into: &found, unread: &unread, diagnostics: &diagnostics)
            if found.isEmpty {
                let names = endings.dropLast().joined(separator: ", ") + " or " + endings.last!
                diagnostics.append(Diagnostic(
                    .emptyFile, at: argument, "no \(names) files in this directory"))
            }
            found.sort { $0.precedesInByteOrder($1) }
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            for relative in found {
                var source = InputSource(path: prefix + relative)
                source.pathInDirectory = relative
                sources.append(source)
            }
            if !unread.isEmpty {
                unread.sort { $0.precedesInByteOrder($1) }
                passedOver.append(PassedOver(directory: argument, paths: unread.map { prefix + $0 }))
            }
        }
        return (sources, diagnostics)
    }

    /// The arguments that name nothing: no such file or directory, or a path through something that is
    /// not a directory. Other failures (no permission) are unreadable input, not missing input.
    public static func missingPaths(_ arguments: [String]) -> [String] {
        arguments.filter { argument in
            guard argument != "-" else { return false }
            var status = stat()
            guard lstat(argument, &status) != 0 else {
                // A dangling symbolic link names nothing either.
                return status.st_mode & S_IFMT == S_IFLNK && stat(argument, &status) != 0 && errno == ENOENT
            }
            return errno == ENOENT || errno == ENOTDIR
        }
    }

    /// What a file that is not a regular one is, for the warning that skips it.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    static func isLogFileName(_ name: String, endings: [String] = logExtensions) -> Bool {
        let lowered = name.lowercased()
        return endings.contains { lowered.hasSuffix($0) && lowered.count > $0.count }
    }

    /// Compressions a log may come in that the reader does not read, by file name ending.
    static let foreignCompressions: [(ending: String, format: ForeignFormat)] = [
        (".gz", .gzip), (".gzip", .gzip), (".bz2", .bzip2), (".xz", .xz), (".lz4", .lz4), (".lzma", .lzma),
        (".br", .brotli), (".zip", .zip), (".snappy", .snappy), (".zstd", .zstdNamedZstd),
    ]

    /// Why a file in a directory that is named as a log in another container (`x.ndjson.gz`,
    /// `x.jsonl.zstd`) is not read, or nil for any other name. Such a file is log data the run would
    /// otherwise leave out without a word; other files (notes, manifests) are not logs and pass quietly.
    static func unreadLogReason(_ name: String) -> String? {
        let lowered = name.lowercased()
        for (ending, format) in foreignCompressions where lowered.hasSuffix(ending) {
            let stem = lowered.dropLast(ending.count)
            guard [".ndjson", ".jsonl"].contains(where: { stem.hasSuffix($0) && stem.count > $0.count }) else {
                return nil
            }
            if format == .zstdNamedZstd {
                return "a zstd log named .zstd: a directory's logs are its .zst, .ndjson and .jsonl files; "
                    + "skipped (rename it to .zst, or name it as an argument)"
            }
            return "a log compressed with \(format.name), which hig-audit does not read; skipped (recompress it with zstd)"
        }
        return nil
    }

    private static func collectLogs(
        in root: String, below relative: String, endings: [String], said: [String], into found: inout [String],
        unread: inout [String], diagnostics: inout [Diagnostic]
    ) {
        let directoryPath = relative.isEmpty ? root : (root.hasSuffix("/") ? root : root + "/") + relative
        guard let directory = opendir(directoryPath) else {
            diagnostics.append(Diagnostic(
                .unreadableFile, at: directoryPath, "cannot list directory: \(StoredFile.systemMessage(errno))"))
            return
        }
        defer { closedir(directory) }
        var entries: [(name: String, type: UInt8)] = []
        var misnamed: [String] = []
        while let entry = readdir(directory) {
            let (name, isUTF8, isDirectory) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: CChar.self).baseAddress!
                if let name = String(validatingCString: bytes) { return (name, true, false) }
                var status = stat()
                let isDirectory = fstatat(dirfd(directory), bytes, &status, AT_SYMLINK_NOFOLLOW) == 0
                    && status.st_mode & S_IFMT == S_IFDIR
                return (String(cString: bytes), false, isDirectory)
            }
            if name == "." || name == ".." { continue }
            guard isUTF8 else {
                // Other files that are not logs pass quietly, as they do with any name.
                if isDirectory || isLogFileName(name, endings: endings) || unreadLogReason(name) != nil {
                    misnamed.append(name)
                }
                continue
            }
            entries.append((name, entry.pointee.d_type))
        }
        // A name that is not UTF-8 cannot be carried in a path string and opened again: its repaired
        // form names no file. Such an entry is skipped input, said where, not a file missing later.
        misnamed.sort { $0.precedesInByteOrder($1) }
        for name in misnamed {
            let childPath = (root.hasSuffix("/") ? root : root + "/") + (relative.isEmpty ? name : relative + "/" + name)
            diagnostics.append(Diagnostic(
                .unreadableFile, at: childPath,
                "the name is not valid UTF-8, so hig-audit cannot open it (or any file below it); skipped "
                    + "(rename it to UTF-8, e.g. with convmv)"))
        }
        // In name order, so that the warnings come in the same order on every file system.
        entries.sort { $0.name.precedesInByteOrder($1.name) }
        for (name, type) in entries {
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            // The directory entry's type, where the file system gives it, spares a regular file (most
            // entries, thousands in a layout of one file per upload) its own lstat.
            if type == UInt8(DT_REG) {
                if isLogFileName(name, endings: endings) {
                    found.append(childRelative)
                } else if !said.isEmpty, isLogFileName(name, endings: said) {
                    unread.append(childRelative)
                } else if let reason = unreadLogReason(name) {
                    diagnostics.append(Diagnostic(.unreadableFile, at: (root.hasSuffix("/") ? root : root + "/") + childRelative, reason))
                }
                continue
            }
            let childPath = (root.hasSuffix("/") ? root : root + "/") + childRelative
            var status = stat()
            guard lstat(childPath, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFDIR {
                collectLogs(
                    in: root, below: childRelative, endings: endings, said: said, into: &found, unread: &unread,
                    diagnostics: &diagnostics)
            } else if !isLogFileName(name, endings: endings) {
                // Only a regular file, or a link to one, is log data in a foreign container; a link to
                // a directory, a dangling link or a FIFO with such a name is passed over as before.
                // Whether it is such a file is asked only of a name that calls for it (a link costs a stat).
                func isFile() -> Bool {
                    var target = status
                    return (kind == S_IFREG || kind == S_IFLNK && stat(childPath, &target) == 0) && target.st_mode & S_IFMT == S_IFREG
                }
                if !said.isEmpty, isLogFileName(name, endings: said) {
                    if isFile() { unread.append(childRelative) }
                } else if let reason = unreadLogReason(name), isFile() {
                    diagnostics.append(Diagnostic(.unreadableFile, at: childPath, reason))
                }
            } else {
                var target = status
                if kind == S_IFLNK {
                    // Follow links to files only; a dangling link is an unreadable file.
                    guard stat(childPath, &target) == 0 else {
                        diagnostics.append(Diagnostic(.unreadableFile, at: childPath, StoredFile.systemMessage(errno)))
                        continue
                    }
                    if target.st_mode & S_IFMT == S_IFDIR { continue }
                }
                // Opening a FIFO blocks until a writer comes, and a device may never end: only a named
                // argument (or `-`) is read whatever it is.
                guard target.st_mode & S_IFMT == S_IFREG else {
                    diagnostics.append(Diagnostic(
                        .unreadableFile, at: childPath,
                        "not a regular file (\(fileKind(target.st_mode))); skipped, name it explicitly to read it"))
                    continue
                }
                found.append(childRelative)
            }
        }
    }
}
