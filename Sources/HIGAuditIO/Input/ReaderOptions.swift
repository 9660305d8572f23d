/// How `InputReader` reads: memory limits, dictionaries and buffer sizes.
public struct ReaderOptions: Sendable, Equatable {
    /// Frames whose window exceeds 2^maxWindowLog bytes are refused (SPEC §2: 27 unless a flag raises
    /// it), so that one hostile or odd upload cannot make the decoder allocate gigabytes.
    public var maxWindowLog: Int = 27
    /// Trained zstd dictionary files (`--dictionary FILE`), matched to frames by dictionary id.
    public var dictionaryFiles: [String] = []
    /// Lines longer than this (without their line ending) are reported as oversized: `logLineBytes`
    /// for this tool's own logs, `exportLineBytes` for exports.
    public var maxLineBytes: Int = Self.logLineBytes
    /// A log line's limit (SPEC §2: 1 MiB).
    public static let logLineBytes = 1 << 20
    /// An export line's limit (SPEC §7): one line may hold many events, an OpenTelemetry Collector's
    /// batch of thousands of records or a page of a thousand Datadog RUM events, megabytes each.
    public static let exportLineBytes = 64 << 20
    /// Bytes asked of storage per `read(2)`.
    public var readChunkBytes: Int = 128 << 10
    /// Bytes the line splitter takes into its own buffer per step: a plain file's reads, and the
    /// partial lines at the ends of zstd blocks (whose other lines are split where zstd decoded them,
    /// see `DecodingRing`).
    public var decodeChunkBytes: Int = 128 << 10
    /// Whether gzip input is read (exports read with `--from` and `import`, SPEC §7). Off for this
    /// tool's own logs, which are zstd or plain (SPEC §2), so a gzip log is still said to be one.
    public var readsGzip = false

    public init(
        maxWindowLog: Int = 27, dictionaryFiles: [String] = [], maxLineBytes: Int = Self.logLineBytes,
        readChunkBytes: Int = 128 << 10, decodeChunkBytes: Int = 128 << 10
    ) {
        self.maxWindowLog = maxWindowLog
        self.dictionaryFiles = dictionaryFiles
        self.maxLineBytes = maxLineBytes
        self.readChunkBytes = readChunkBytes
        self.decodeChunkBytes = decodeChunkBytes
    }

    /// The window sizes zstd can describe: 2^10 (its minimum) up to 2^31 (its maximum on 64-bit).
    public static let windowLogRange = 10...31
}

/// Options `InputReader` cannot work with; the only errors it throws (input problems are diagnostics).
public enum InputReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    case windowLogOutOfRange(Int)
    case invalidSize(option: String, value: Int)
    case unreadableDictionary(path: String, reason: String)
    /// A file without the zstd dictionary magic and id: frames cannot name it, so it cannot be matched.
    case notADictionary(path: String)
    case duplicateDictionaryID(UInt32, paths: [String])
    case decoderUnavailable(String)

    public var description: String {
        switch self {
        case .windowLogOutOfRange(let value):
            return "maximum window log \(value) is outside \(ReaderOptions.windowLogRange.lowerBound)"
                + "…\(ReaderOptions.windowLogRange.upperBound)"
        case .invalidSize(let option, let value):
            return "\(option) must be positive (got \(value))"
        case .unreadableDictionary(let path, let reason):
            return "\(path): cannot read dictionary: \(reason)"
        case .notADictionary(let path):
            return "\(path): not a trained zstd dictionary (no dictionary id)"
        case .duplicateDictionaryID(let id, let paths):
            return "dictionary id \(id) is given twice: \(paths.joined(separator: ", "))"
        case .decoderUnavailable(let reason):
            return "cannot set up the zstd decoder: \(reason)"
        }
    }
}
