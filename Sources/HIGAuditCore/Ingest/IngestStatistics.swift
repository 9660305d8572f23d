/// The counters of the `ingest` table (SPEC §4): what was read, and what was skipped and why.
///
/// The input reader, the decoder, the engine and the rules each fill their part; the sum tells an
/// operator whether a night's data arrived whole. `IngestStatistics.counters` lists them once, and
/// the `ingest` table, the results store's `runs` columns and the engine's share follow from it.
public struct IngestStatistics: Sendable, Equatable, Codable {
    public var files = 0
    public var compressedBytes: Int64 = 0
    public var decompressedBytes: Int64 = 0
    public var frames = 0
    public var lines: Int64 = 0
    /// Accepted events (the ones the rules saw).
    public var events: Int64 = 0
    /// Sessions with at least one accepted event.
    public var sessions = 0
    public var malformedLines: Int64 = 0
    public var lateEvents: Int64 = 0
    public var duplicateEvents: Int64 = 0
    /// Duplicates (counted in `duplicateEvents` too) decided by a session's id filter, past the ids it
    /// keeps exactly (`SeenIds.exactLimit`): each may have been a new event, taken for a duplicate.
    public var unverifiedDuplicates: Int64 = 0
    /// Events of an unknown `type`, per type name.
    public var unknownTypes: [String: Int64] = [:]
    public var skippedBytes: Int64 = 0
    public var truncatedFiles = 0
    public var unbalancedDismisses: Int64 = 0
    /// Input that could not be read at all: unreadable files, corrupt frames, refused frames.
    public var faults = 0

    public init() {}

    public var unknownTypeEvents: Int64 { unknownTypes.values.reduce(0, &+) }

    /// Every counter, in the `ingest` table's column order (SPEC §4). A new counter is added here
    /// (and as a property above); the tables and the store follow.
    public static let counters: [IngestCounter] = [
        IngestCounter("files", \.files),
        IngestCounter("compressed_bytes", \.compressedBytes),
        IngestCounter("decompressed_bytes", \.decompressedBytes),
        IngestCounter("frames", \.frames),
        IngestCounter("lines", \.lines),
        IngestCounter("events", \.events, countedBy: .engine),
        IngestCounter("sessions", \.sessions, countedBy: .engine),
        IngestCounter("malformed_lines", \.malformedLines),
        IngestCounter("late_events", \.lateEvents, countedBy: .engine),
        IngestCounter("duplicate_events", \.duplicateEvents, countedBy: .engine),
        IngestCounter("unverified_duplicates", \.unverifiedDuplicates, countedBy: .engine),
        IngestCounter(sumOf: "unknown_types", \.unknownTypeEvents),
        IngestCounter("skipped_bytes", \.skippedBytes),
        IngestCounter("truncated_files", \.truncatedFiles),
        IngestCounter("unbalanced_dismisses", \.unbalancedDismisses, countedBy: .engine),
        IngestCounter("faults", \.faults),
    ]

    /// Takes the counters the session engine keeps from its statistics, leaving the reader's and
    /// decoder's counters as they are.
    ///
    /// Field by field, as `addInputCounters`, and for the same reason: a run asks for its statistics
    /// after every input (`--strict`'s check). `IngestStatisticsTests` checks it against `counters`.
    public mutating func takeEngineCounters(from engine: IngestStatistics) {
        events = engine.events
        sessions = engine.sessions
        lateEvents = engine.lateEvents
        duplicateEvents = engine.duplicateEvents
        unverifiedDuplicates = engine.unverifiedDuplicates
        unbalancedDismisses = engine.unbalancedDismisses
    }

    /// Adds the counters the reader and the decoder keep for one input (all but the engine's), so a
    /// run can count each input apart, on whichever thread read it, and sum them in input order.
    ///
    /// Field by field rather than through `counters`: a run calls it for every input, and the key
    /// paths' unspecialised reads and writes cost more than a small input's other bookkeeping (one file
    /// per upload). `IngestStatisticsTests` checks it against `counters`.
    public mutating func addInputCounters(of input: IngestStatistics) {
        files += input.files
        compressedBytes += input.compressedBytes
        decompressedBytes += input.decompressedBytes
        frames += input.frames
        lines += input.lines
        malformedLines += input.malformedLines
        skippedBytes += input.skippedBytes
        truncatedFiles += input.truncatedFiles
        faults += input.faults
        for (name, count) in input.unknownTypes { unknownTypes[name, default: 0] += count }
    }

    /// True when something was skipped: the run "finished but skipped input" (SPEC §5).
    public var skippedInput: Bool {
        malformedLines > 0 || skippedBytes > 0 || truncatedFiles > 0 || faults > 0
    }
}

/// One counter of `IngestStatistics`: its column name (in the `ingest` table and the store's `runs`
/// table alike) and how to read and set it.
public struct IngestCounter: Sendable {
    /// Who counts it: the input side (reader and decoder) or the session engine. A run merges the
    /// engine's counters into the input's (`IngestStatistics.takeEngineCounters`).
    public enum CountedBy: Sendable { case input, engine }

    public let name: String
    public let countedBy: CountedBy
    private let read: @Sendable (IngestStatistics) -> Int64
    private let write: (@Sendable (inout IngestStatistics, Int64) -> Void)?

    init<Value: BinaryInteger & SendableMetatype>(
        _ name: String, _ keyPath: any WritableKeyPath<IngestStatistics, Value> & Sendable, countedBy: CountedBy = .input
    ) {
        self.name = name
        self.countedBy = countedBy
        read = { Int64(clamping: $0[keyPath: keyPath]) }
        write = { $0[keyPath: keyPath] = Value(clamping: $1) }
    }

    /// A counter summed from finer ones kept elsewhere (the per-type counts of `unknown_types`): read
    /// only, restored from its parts.
    init(sumOf name: String, _ keyPath: any KeyPath<IngestStatistics, Int64> & Sendable) {
        self.name = name
        countedBy = .input
        read = { $0[keyPath: keyPath] }
        write = nil
    }

    public func value(in statistics: IngestStatistics) -> Int64 { read(statistics) }

    /// Whether the counter is a number of its own rather than a sum of finer counts.
    public var isSettable: Bool { write != nil }

    /// Sets the counter; a sum of finer counts is left as it is.
    public func set(_ statistics: inout IngestStatistics, _ value: Int64) {
        write?(&statistics, value)
    }
}
