/// Chooses the one session `show` records, from an id or a prefix of one, while the input streams by.
///
/// Every session whose id starts with the prefix is a candidate; the ids of candidates are kept (memory
/// grows with the sessions that match, never more than the engine's own set of closed session ids).
/// Events are recorded for one candidate at a time, so memory holds one session's events at most:
/// - the first candidate read is recorded;
/// - a candidate whose id *is* the prefix wins whenever it comes, and the one recorded before is dropped;
/// - a second candidate that is not the prefix makes the prefix ambiguous unless a whole id comes later:
///   the recording is dropped and only the candidates' ids are kept, for the usage error.
///
/// The answer is known only at end of input (`resolution`), because a later file may hold a session
/// whose id is the prefix, or a second candidate.
public struct SessionSelector {
    /// What to do with one event.
    public enum Step: Equatable {
        /// Not an event of the session recorded.
        case skip
        /// An event of the session recorded.
        case record
        /// The first event of a session that replaces whatever was recorded: drop that, record this.
        case recordAnew
        /// The prefix became ambiguous: drop what was recorded; this event is not recorded.
        case dropRecording
    }

    /// How the prefix resolved at end of input.
    public enum Resolution: Equatable {
        /// The session with this id (the prefix itself, or the only session it starts).
        case found(String)
        /// No session id starts with the prefix.
        case none
        /// Several session ids start with the prefix and none is it: the ids, sorted.
        case ambiguous([String])
    }

    public let prefix: String
    private let prefixBytes: [UInt8]
    /// Session ids read that start with the prefix, in the order first read.
    public private(set) var candidates: [String] = []
    private var candidateKeys: Set<CompactText> = []
    private var recordedKey: CompactText?
    private var recordedIsExact = false
    /// The session of the previous event, and whether it is the one recorded.
    private var lastKey: CompactText?
    private var lastRecorded = false

    public init(prefix: String) {
        self.prefix = prefix
        self.prefixBytes = Array(prefix.utf8)
    }

    /// The id of the session being recorded, if any.
    public var recordedSession: String? { recordedKey?.string }

    /// Sorts one decoded event (in input order) before the engine sees it.
    public mutating func step(for event: borrowing Event) -> Step {
        if event.texts.holds(lastKey, in: .session) { return lastRecorded ? .record : .skip }
        let key = event.sessionText
        lastKey = key
        lastRecorded = key == recordedKey
        if lastRecorded { return .record }
        guard !candidateKeys.contains(key) else { return .skip }
        let id = key.string
        guard id.utf8.starts(with: prefixBytes) else { return .skip }
        candidateKeys.insert(key)
        candidates.append(id)
        let isExact = id.utf8.count == prefixBytes.count
        if isExact || (recordedKey == nil && candidates.count == 1) {
            let hadRecording = recordedKey != nil
            recordedKey = key
            recordedIsExact = isExact
            lastRecorded = true
            return hadRecording ? .recordAnew : .record
        }
        if recordedKey != nil, !recordedIsExact {
            recordedKey = nil
            return .dropRecording
        }
        return .skip
    }

    /// The session the prefix names, known at end of input.
    public var resolution: Resolution {
        if let recordedKey, recordedIsExact || candidates.count == 1 { return .found(recordedKey.string) }
        if candidates.isEmpty { return .none }
        return .ambiguous(candidates.sorted())
    }
}
