/// What a generator run produced and planted: the ground truth tests and the README state.
///
/// `versions` holds, per app version, how many opportunities each problem had, how often it was
/// injected, and how many violations of each rule the rules must report (with or without noise:
/// noise never changes what the rules see). `noise` counts every kind of upload noise written.
public struct SampleManifest: Sendable, Equatable, Codable {
    public var seed: UInt64
    public var devices = 0
    public var sessions = 0
    /// Events the engine must accept: every generated event once (duplicates, late, unknown excluded).
    public var events = 0
    public var versions: [VersionTally]
    public var noise = NoiseCounts()
    public var files = 0
    /// zstd frames with data (skippable frames counted in `noise`).
    public var frames = 0
    /// Lines in the decompressed files, blank and broken ones included.
    public var lines = 0
    public var uncompressedBytes: Int64 = 0
    /// Filled in by the writer.
    public var compressedBytes: Int64 = 0

    public init(seed: UInt64, versions: [String]) {
        self.seed = seed
        self.versions = versions.map { VersionTally(version: $0) }
    }

    /// Expected violations of a rule over all versions.
    public func expectedViolations(rule: String) -> Int {
        versions.reduce(0) { $0 + $1.violations(rule: rule) }
    }

    mutating func add(_ other: SampleManifest) {
        devices += other.devices
        sessions += other.sessions
        events += other.events
        for index in versions.indices { versions[index].add(other.versions[index]) }
        noise.add(other.noise)
        files += other.files
        frames += other.frames
        lines += other.lines
        uncompressedBytes += other.uncompressedBytes
        compressedBytes += other.compressedBytes
    }
}

/// The planted ground truth of one app version.
public struct VersionTally: Sendable, Equatable, Codable {
    public var version: String
    public var sessions = 0
    public var events = 0
    /// Indexed by `InjectedProblem.rawValue`.
    public var opportunities = [Int](repeating: 0, count: InjectedProblem.allCases.count)
    public var injections = [Int](repeating: 0, count: InjectedProblem.allCases.count)
    /// Violations the rules must report, indexed like `sampleRuleIDs`.
    public var ruleViolations = [Int](repeating: 0, count: sampleRuleIDs.count)
    /// Sessions with at least one violation of the rule, indexed like `sampleRuleIDs`.
    public var ruleSessionsAffected = [Int](repeating: 0, count: sampleRuleIDs.count)

    public init(version: String) { self.version = version }

    public func opportunities(_ problem: InjectedProblem) -> Int { opportunities[problem.rawValue] }
    public func injections(_ problem: InjectedProblem) -> Int { injections[problem.rawValue] }

    public func violations(rule: String) -> Int {
        guard let index = sampleRuleIDs.firstIndex(of: rule) else { return 0 }
        return ruleViolations[index]
    }

    public func sessionsAffected(rule: String) -> Int {
        guard let index = sampleRuleIDs.firstIndex(of: rule) else { return 0 }
        return ruleSessionsAffected[index]
    }

    mutating func add(_ other: VersionTally) {
        sessions += other.sessions
        events += other.events
        for i in opportunities.indices {
            opportunities[i] += other.opportunities[i]
            injections[i] += other.injections[i]
        }
        for i in ruleViolations.indices {
            ruleViolations[i] += other.ruleViolations[i]
            ruleSessionsAffected[i] += other.ruleSessionsAffected[i]
        }
    }
}

/// Every kind of upload noise written, counted line by line.
public struct NoiseCounts: Sendable, Equatable, Codable {
    /// Events written 1–3 lines after where their timestamp puts them (within the lateness bound).
    public var reorderedEvents = 0
    /// Second copies of an event (same session and `id`).
    public var duplicateEvents = 0
    /// Extra events more than 10 s older than the newest event of their session before them.
    public var lateEvents = 0
    /// Lines that are not a valid event, per kind of breakage.
    public var malformedLines = 0
    public var malformedByKind: [String: Int] = [:]
    /// Events of a type not in SPEC §2, per type name.
    public var unknownTypes: [String: Int] = [:]
    public var blankLines = 0
    /// Timestamps per style: `rfc3339-<digits>`, `rfc3339-offset`, `epoch-ms`.
    public var timestampStyles: [String: Int] = [:]
    /// Uploads with CRLF line ends: files, in the layouts with a file per upload; in the `device`
    /// layout a file can mix uploads with either line end.
    public var crlfFiles = 0
    public var skippableFrames = 0
    /// Data frames whose last byte is not a line end (the line continues in the next frame).
    public var framesEndingMidLine = 0
    /// Frames written without a checksum / without a content size.
    public var framesWithoutChecksum = 0
    public var framesWithoutContentSize = 0

    public init() {}

    public var unknownTypeEvents: Int { unknownTypes.values.reduce(0, +) }

    mutating func add(_ other: NoiseCounts) {
        reorderedEvents += other.reorderedEvents
        duplicateEvents += other.duplicateEvents
        lateEvents += other.lateEvents
        malformedLines += other.malformedLines
        malformedByKind.merge(other.malformedByKind, uniquingKeysWith: +)
        unknownTypes.merge(other.unknownTypes, uniquingKeysWith: +)
        blankLines += other.blankLines
        timestampStyles.merge(other.timestampStyles, uniquingKeysWith: +)
        crlfFiles += other.crlfFiles
        skippableFrames += other.skippableFrames
        framesEndingMidLine += other.framesEndingMidLine
        framesWithoutChecksum += other.framesWithoutChecksum
        framesWithoutContentSize += other.framesWithoutContentSize
    }
}
