import HIGAuditCore

/// One input as a run prepared it for reading: where its events go in the file table, and, for the
/// nightly job, where an earlier run stopped in it.
public struct FileRead: @unchecked Sendable {
    public var source: InputSource
    /// The input's index in the run's `SourceFileTable` (the `file` of its events' `SourceLocation`).
    public var file: Int32
    /// Where an earlier read stopped (`FileReadSummary.resumePoint`); nil reads from the start.
    public var resume: FileReadSummary.ResumePoint?
    /// Set when an unterminated last line must be held back (`TailHoldingSink`): the nightly job's reads.
    public var tail: TailHandling?
    /// Handed every stored byte read, in order (the nightly job hashes a file while reading it). Called
    /// on the thread that reads the input, which with `--jobs` is not the run's.
    public var storedBytes: ((UnsafeRawBufferPointer) -> Void)?

    public init(
        source: InputSource, file: Int32, resume: FileReadSummary.ResumePoint? = nil, tail: TailHandling? = nil,
        storedBytes: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) {
        self.source = source
        self.file = file
        self.resume = resume
        self.tail = tail
        self.storedBytes = storedBytes
    }
}

/// How the nightly job treats the lines at both ends of a file it reads again (SPEC §5).
public struct TailHandling: Sendable {
    /// Lines up to this number reached the engine in an earlier run: dropped.
    public var countedThrough: Int64
    /// End of input (`--close-open`): a held unterminated last line goes to the engine after all.
    public var forward: Bool

    public init(countedThrough: Int64, forward: Bool) {
        self.countedThrough = countedThrough
        self.forward = forward
    }
}

/// What reading one input gave besides its events.
public struct FileReadResult: Sendable {
    public var summary: FileReadSummary
    /// The reader's and decoder's counters of this input. Lines an earlier run counted, and a line
    /// held back, are not in `lines`: the run that reads them again counts them.
    public var statistics: IngestStatistics
    /// An unterminated last line was held back for a later run.
    public var heldBack: Bool
    /// The last line number that reached the engine (or the `countedThrough` it started from).
    public var forwardedThrough: Int64
}

/// An input in the order a run reads them: what to say about it first (in input order, also when
/// `--jobs` reads it ahead), and what to read, if anything (nil: an input already counted, empty, …).
public struct PreparedInput {
    public var notes: [() -> Void]
    public var read: FileRead?
    /// Set when what to do with the input depends on inputs before it not concluded yet: asked on the
    /// run's thread when its turn comes, for the input as it is then (`notes` and `read` unused). A
    /// run reading ahead asks for no input after it until then.
    public var atTurn: (() throws -> PreparedInput)?

    public init(notes: [() -> Void] = [], read: FileRead?) {
        self.notes = notes
        self.read = read
    }
}
