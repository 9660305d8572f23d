/// The sessions that have events in one file, each with the device of its first event in the file,
/// in the order their first events come: what a planner needs to know of a file to decide which
/// shards must read it (Pipelines/spark/README.md "Planning").
///
/// Across files, a session's shard is that of its first file's device (SPEC §2 "Device clocks"), so
/// the planner takes, for each session, the entry of the first file, in the run's order, that has one.
public struct SessionFirstDevices: Sendable {
    public struct Entry: Sendable, Equatable {
        public var session: String
        public var device: String
    }

    private var seen: Set<CompactText> = []
    public private(set) var entries: [Entry] = []

    public init() {}

    /// Notes a decoded event: the first of its session in this file adds an entry.
    public mutating func note(_ event: borrowing Event) {
        guard seen.insert(event.sessionText).inserted else { return }
        entries.append(Entry(session: event.session, device: event.device ?? ""))
    }
}
