/// The counters of the `ingest` table (SPEC §4): what was read, and what was skipped and why.
///
/// The input reader, the decoder, the engine and the rules each fill their part; the sum tells an
/// operator whether a night's data arrived whole.
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

    public var unknownTypeEvents: Int64 { unknownTypes.values.reduce(0, +) }

    /// Takes the counters the session engine keeps (events, sessions, late, duplicate and unverified
    /// duplicate, unbalanced
    /// dismisses) from its statistics, leaving the reader's and decoder's counters as they are.
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
    public mutating func addInputCounters(of input: IngestStatistics) {
        files += input.files
        compressedBytes += input.compressedBytes
        decompressedBytes += input.decompressedBytes
        frames += input.frames
        lines += input.lines
        malformedLines += input.malformedLines
        for (name, count) in input.unknownTypes { unknownTypes[name, default: 0] += count }
        skippedBytes += input.skippedBytes
        truncatedFiles += input.truncatedFiles
        faults += input.faults
    }

    /// True when something was skipped: the run "finished but skipped input" (SPEC §5).
    public var skippedInput: Bool {
        malformedLines > 0 || skippedBytes > 0 || truncatedFiles > 0 || faults > 0
    }
}
