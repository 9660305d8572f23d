import GRDB
import HIGAuditIO

/// The files a store has counted, looked up by the keys `FileIdentity` asks for (a head, a lead, a
/// name) rather than all read when a run starts.
///
/// A store keeps a row for every file it ever counted: a fleet uploading a file per device per hour
/// adds tens of thousands a night. Read whole, they were most of what a night into a store of 30
/// nights cost beyond the same night into a new store (issue 46): time and memory grew with every
/// night kept. Each lookup here is one search of an index (`input_files_by_head`, `_by_path`,
/// `_by_lead`, `_unled_lengths`).
///
/// Lookups run on the run's thread, inside its transaction. `FileIdentity.examine` cannot throw a
/// store's error, so a failed lookup answers nothing and keeps its error in `failure`, which the run
/// checks after each examination (and fails with).
final class StoredFiles {
    private let db: Database
    private(set) var failure: (any Error)?

    static let columns = """
        id, display_path, head_length, head_sha256, size, content_sha256, resume_stored_offset,
        resume_decompressed_offset, resume_lines_before, counted_lines, held_back, lead_sha256
        """

    init(_ db: Database) {
        self.db = db
    }

    /// Counted files whose first `length` bytes hash to `hex`.
    func withHead(length: Int, hex: String) -> [CountedFile] {
        records("WHERE head_length = ? AND head_sha256 = ?", [length, hex])
    }

    /// Counted files whose lead is `hex`.
    func withLead(hex: String) -> [CountedFile] {
        records("WHERE lead_sha256 = ?", [hex])
    }

    /// The counted file of the lowest id last named `displayPath`.
    func firstNamed(_ displayPath: String) -> CountedFile? {
        records("WHERE display_path = ? ORDER BY id LIMIT 1", [displayPath]).first
    }

    /// The head lengths of the counted files without a lead, which every file is hashed at: one search
    /// of `input_files_unled_lengths` per length.
    func unledHeadLengths() -> [Int] {
        var lengths: [Int] = []
        var after = -1
        do {
            while let next = try Int.fetchOne(
                db, sql: "SELECT MIN(head_length) FROM input_files WHERE lead_sha256 IS NULL AND head_length > ?",
                arguments: [after])
            {
                lengths.append(next)
                after = next
            }
        } catch {
            failure = failure ?? error
        }
        return lengths
    }

    /// The id the next new file gets: one past the highest counted.
    func nextID() throws -> Int64 {
        (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM input_files") ?? 0) + 1
    }

    private func records(_ condition: String, _ arguments: StatementArguments) -> [CountedFile] {
        do {
            let statement = try db.cachedStatement(sql: "SELECT \(Self.columns) FROM input_files \(condition)")
            return try Row.fetchAll(statement, arguments: arguments).map(Self.countedFile)
        } catch {
            failure = failure ?? error
            return []
        }
    }

    static func countedFile(_ row: Row) -> CountedFile {
        CountedFile(
            id: row["id"], displayPath: row["display_path"], headLength: row["head_length"],
            headSHA256: row["head_sha256"], size: row["size"], contentSHA256: row["content_sha256"],
            resume: FileReadSummary.ResumePoint(
                storedOffset: row["resume_stored_offset"], decompressedOffset: row["resume_decompressed_offset"],
                linesBefore: row["resume_lines_before"]),
            countedLines: row["counted_lines"], heldBack: row["held_back"], leadSHA256: row["lead_sha256"])
    }
}
