/// One generated log file: its decompressed contents and how the device uploaded them as zstd frames.
///
/// The generator decides everything here (deterministically); a `SampleLogSink` only compresses and
/// stores, so the same seed gives the same frames whatever the sink.
public struct SampleLogFile: Sendable, Equatable {
    /// Relative to the output directory, `/`-separated, e.g. `2026-11-20/2140/ipad-0042.ndjson.zst`.
    public var path: String
    /// The device whose uploads the file holds: every file holds one device's lines, in every layout
    /// but `stream`, whose files hold every device's lines of their period (`""` there).
    public var device: String
    /// The NDJSON text of the whole file.
    public var contents: [UInt8]
    /// The file's frames in order; data frames together cover `contents` exactly.
    public var chunks: [UploadChunk]
}

/// One zstd frame of an upload.
public enum UploadChunk: Sendable, Equatable {
    /// A data frame with `contents[range]`; an upload chunk may end in the middle of a line.
    case frame(range: Range<Int>, checksum: Bool, contentSize: Bool)
    /// A skippable frame (magic `0x184D2A50 + variant`) carrying upload metadata that readers ignore.
    case skippable(variant: UInt8, payload: [UInt8])
}

/// Where generated files go: a directory of zstd files, memory, or a byte counter.
public protocol SampleLogSink {
    mutating func write(_ file: SampleLogFile) throws
}

/// Keeps generated files in memory (tests, small benchmarks).
public struct InMemorySampleLogSink: SampleLogSink {
    public private(set) var files: [SampleLogFile] = []

    public init() {}

    public mutating func write(_ file: SampleLogFile) throws {
        files.append(file)
    }
}
