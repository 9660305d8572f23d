import GRDB
import HIGAuditCore
import HIGAuditIO

/// The names of files counted by earlier runs, read one at a time when the run first cites each: a
/// violation or a late event of a session that began in an earlier night. Reading every counted file's
/// name at the start of each night made the night's cost grow with the nights kept (issue 46).
struct EarlierFileNames {
    /// The first id a file new in this run gets; every id below it is an earlier run's file.
    private let firstNewID: Int64
    private var named: Set<Int64> = []
    private let lookup: Statement

    init(_ db: Database, below firstNewID: Int64) throws {
        self.firstNewID = firstNewID
        lookup = try db.makeStatement(sql: "SELECT display_path FROM input_files WHERE id = ?")
    }

    /// Marks a file the run has named itself (it was listed again, maybe renamed): its stored name
    /// must not replace the one it is read under now.
    mutating func named(_ id: Int64) {
        if id < firstNewID { named.insert(id) }
    }

    /// Names `file` in the run's table from the store, once, if it is an earlier run's file.
    mutating func name(_ file: Int32, in files: RunFiles) throws {
        let id = Int64(file)
        guard id >= 0, id < firstNewID, named.insert(id).inserted else { return }
        if let path = try String.fetchOne(lookup, arguments: [id]) { files.table.name(Int(id), path) }
    }
}
