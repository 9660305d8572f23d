#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HIGAuditCore
import HIGAuditIO

/// Writes the store's tables as files (`nightly --out`, `export`): all from one read transaction, so
/// the files describe one consistent state even while a nightly run commits, and each file written to
/// a temporary name and renamed over the old one, so a reader never sees half a file (SPEC §5).
public enum StoreExport {
    /// Writes `<dir>/<table>.<ext>` for every exported table and format; returns the paths written.
    /// CSV is RFC 4180, formula-safe (cells from log data beginning with `= + - @` tab or CR get a `'`),
    /// UTF-8, with a byte order mark when `byteOrderMark` (what Excel needs to read UTF-8).
    @discardableResult
    public static func write(
        _ store: ResultsStore, to directory: String, formats: [OutputFormat] = [.csv, .json],
        byteOrderMark: Bool = false, selection: StoreSelection = .everything
    ) throws -> [String] {
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw ExportError(path: directory, message: String(cString: strerror(errno)))
        }
        let tables = try store.read { db in try StoredTables.load(db, selection: selection) }
        var written: [String] = []
        for name in StoredTables.exportedTables {
            let table = tables.table(name)
            for format in formats {
                let path = "\(directory)/\(name.rawValue).\(format.fileExtension)"
                do {
                    var file = try FileOutput.replacingFile(at: path)
                    let writer: any TableWriter = format == .csv ? CSVWriter(byteOrderMark: byteOrderMark) : format.writer()
                    writer.write(table, to: &file)
                    try file.close()
                } catch {
                    throw ExportError(path: path, message: "\(error)")
                }
                written.append(path)
            }
        }
        return written
    }
}

/// An export file or directory that could not be written.
public struct ExportError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "cannot write \(path): \(message)" }
}
