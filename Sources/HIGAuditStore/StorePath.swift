import Foundation
import HIGAuditIO

/// What is at a store's path, checked before SQLite opens it: SQLite's own answers to the usual slips
/// ("unable to open database file" for a missing store, "disk I/O error" for a folder, "file is not a
/// database" for a log, which reads as a damaged store) name neither the path nor the mistake.
enum StorePath {
    /// A store to read must be a file, and an SQLite one; SQLite then checks the rest (the schema in
    /// `StoreSchema.checkIdentity`, damage in the quick check).
    static func checkForReading(_ path: String) throws(StoreError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing(path) }
        if isFolder.boolValue { throw .folder(path) }
        try checkRegularFile(path)
        if SQLiteFileHeader.holdsOtherThanSQLite(path) { throw .notAStore(path) }
    }

    /// A FIFO given as the store blocked every reader (`query`, `export`, `dashboard`, `compare`,
    /// `merge`) in SQLite's open: only a regular file (links followed) is opened.
    static func checkRegularFile(_ path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return
        case S_IFIFO: throw .notARegularFile(path, kind: "a FIFO")
        case S_IFCHR, S_IFBLK: throw .notARegularFile(path, kind: "a device")
        case S_IFSOCK: throw .notARegularFile(path, kind: "a socket")
        default: throw .notARegularFile(path, kind: "a special file")
        }
    }

    /// A nightly run's store is created when missing, in a folder that must exist; what exists must be
    /// an SQLite file (or an empty one, which SQLite takes as a new database).
    static func checkForWriting(_ path: String) throws(StoreError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            let folder = (path as NSString).deletingLastPathComponent
            var folderIsFolder: ObjCBool = false
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsFolder) || !folderIsFolder.boolValue {
                throw .missingFolder(store: path, folder: folder)
            }
            return
        }
        if isFolder.boolValue { throw .folder(path) }
        try checkRegularFile(path)
        if SQLiteFileHeader.holdsOtherThanSQLite(path) { throw .notAStore(path) }
    }
}
