#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises an SQLite database by the 16 bytes every one starts with ("SQLite format 3" and a zero
/// byte), without opening it as a database: a results store named where a log belongs (`nightly
/// --store results.sqlite results.sqlite`) is refused instead of read as thousands of malformed lines,
/// and a log named where the store belongs is called what it is rather than a damaged store.
public enum SQLiteFileHeader {
    /// The header of SQLite 3 database files (sqlite.org/fileformat.html, §1.3).
    public static let bytes: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// Whether `path` is a regular file (links followed) that starts with SQLite's header.
    public static func isSQLite(_ path: String) -> Bool {
        firstBytes(of: path) == bytes
    }

    /// Whether `path` is a regular file that holds something other than an SQLite database: at least one
    /// byte, and not SQLite's header. An empty file is neither (SQLite takes it as an empty database).
    public static func holdsOtherThanSQLite(_ path: String) -> Bool {
        guard let first = firstBytes(of: path) else { return false }
        return !first.isEmpty && first != bytes
    }

    /// Up to `bytes.count` bytes from the start of the regular file at `path`; nil for anything else or
    /// a file that cannot be read.
    private static func firstBytes(of path: String) -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: bytes.count)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(buffer[..<filled])
    }
}
