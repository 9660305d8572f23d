/// What reading one input found, with the offsets an incremental (nightly) job needs to resume.
///
/// Stored offsets count bytes of the file as stored (compressed); decompressed offsets count bytes
/// after decompression. For plain NDJSON the two are the same.
public struct FileReadSummary: Sendable, Equatable {
    public enum Format: String, Sendable {
        /// One or more zstd or skippable frames.
        case zstd
        /// Plain NDJSON (no zstd magic number at the start).
        case plain
        /// One or more gzip members (an export read with `--from`, SPEC §7).
        case gzip
        /// Nothing to read: an empty file, or nothing after the starting offset.
        case empty
        /// The input could not be opened or read.
        case unreadable
    }

    /// A place where reading can start again without splitting a line: a frame boundary (zstd) or a
    /// line boundary (plain) with every line before it complete and delivered.
    public struct ResumePoint: Sendable, Equatable {
        /// Offset in the stored file; pass it to `InputReader.read(_:startingAt:…)`.
        public var storedOffset: Int64
        /// Offset in the decompressed file.
        public var decompressedOffset: Int64
        /// Lines before this point; the next line's number is this plus one.
        public var linesBefore: Int64

        public init(storedOffset: Int64, decompressedOffset: Int64, linesBefore: Int64) {
            self.storedOffset = storedOffset
            self.decompressedOffset = decompressedOffset
            self.linesBefore = linesBefore
        }
    }

    public var displayPath: String
    public var format: Format
    /// Where this read started in the stored file.
    public var startOffset: Int64
    /// Bytes read from storage by this read.
    public var storedBytes: Int64 = 0
    /// Bytes produced after decompression (plain files: `storedBytes`).
    public var decompressedBytes: Int64 = 0
    /// zstd data frames decoded to their end (skippable frames not counted).
    public var frames = 0
    /// Skippable frames passed over.
    public var skippableFrames = 0
    /// Lines delivered to the sink, oversized ones included.
    public var lines: Int64 = 0
    /// Stored offset just after the last frame (data, skippable or skipped-whole) that ended inside
    /// the file; `startOffset` when none did. For plain files, the stored end of the last complete line.
    public var completeFramesEnd: Int64
    /// Decompressed offset just after the last line ending (`\n`) read; for plain files this is also
    /// the stored offset where the last complete line ends.
    public var completeLinesEnd: Int64
    /// The latest point from which a later read can continue without splitting a line.
    public var resumePoint: ResumePoint
    /// The file ended inside a zstd frame (or its header, or a skippable frame): an upload in progress.
    public var endedInTruncatedFrame = false
    /// The data ended without a final `\n`: the last line was delivered (plain or complete frames) or,
    /// after a truncated frame, dropped.
    public var endedInUnterminatedLine = false
    /// Corrupt, refused and dictionary-less frames, garbage regions and read errors met.
    public var faults = 0
    /// Bytes skipped (see `IngestStatistics.skippedBytes` as filled by `InputReader`).
    public var skippedBytes: Int64 = 0

    public init(displayPath: String, format: Format, startOffset: Int64, firstLineNumber: Int64) {
        self.displayPath = displayPath
        self.format = format
        self.startOffset = startOffset
        self.completeFramesEnd = startOffset
        self.completeLinesEnd = 0
        self.resumePoint = ResumePoint(
            storedOffset: startOffset, decompressedOffset: 0, linesBefore: firstLineNumber - 1)
    }
}
