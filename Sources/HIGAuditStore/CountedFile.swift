import HIGAuditIO

/// An input file the store has counted, identified by content (SPEC §5), with where reading resumes.
///
/// `size` bytes of the file hashed to `contentSHA256` when it was last read; a file whose first
/// `size` bytes hash the same is this file (renamed, copied, or grown by appended frames). Lines up
/// to `countedLines` reached the engine; the reader restarts at `resume` (the last frame or line
/// boundary with no split line) and the lines it delivers again up to `countedLines` are dropped.
struct CountedFile: Sendable, Equatable {
    var id: Int64
    var displayPath: String
    /// The first `headLength` bytes (at most `FileIdentity.headBytes`) hash to `headSHA256`: the key a
    /// new file is looked up by.
    var headLength: Int
    var headSHA256: String
    var size: Int64
    var contentSHA256: String
    var resume: FileReadSummary.ResumePoint
    var countedLines: Int64
    /// The unterminated last line was held back for a later run (an upload still being written).
    var heldBack: Bool
    /// The SHA-256 of the first `FileIdentity.leadBytes` bytes, for a file whose head is longer
    /// (`input_files.lead_sha256`); nil when not known (counted by an earlier version).
    var leadSHA256: String? = nil
}
