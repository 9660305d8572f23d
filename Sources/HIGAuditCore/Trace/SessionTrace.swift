/// One session's events as `show` prints them: every event of the session read, with what the engine
/// decided for it, and the violations the rules reported at each accepted event.
///
/// Filled while the input streams by (`record`, then `close` with the session's report when the engine
/// closes it); holds one session's events, never the input's.
public struct SessionTrace: Sendable {
    /// One event of the session and its fate.
    public struct Entry: Sendable {
        public var event: Event
        public var disposition: EventDisposition
        /// The violations whose source is this event, in SPEC §4 order (accepted events only).
        public var violations: [Violation] = []
    }

    public let session: String
    /// In input order.
    public private(set) var entries: [Entry] = []
    /// The engine's report when the session closed (at the latest at end of input).
    public private(set) var report: SessionReport?
    /// The config's exclusions as judged on the run's day (SPEC §6): a violation they suppress is
    /// shown, flagged, and counts in no violations count.
    public var suppression: Suppression = .none

    /// Whether `violation` is suppressed by an exclusion in force.
    public func isSuppressed(_ violation: Violation) -> Bool {
        suppression.suppresses(rule: violation.rule, screen: violation.screen, appVersion: violation.appVersion)
    }

    public init(session: String) {
        self.session = session
    }

    public mutating func record(_ event: Event, _ disposition: EventDisposition) {
        entries.append(Entry(event: event, disposition: disposition))
    }

    /// Hangs each violation of the closed session on its source event.
    public mutating func close(with report: SessionReport) {
        self.report = report
        var bySource: [SourceLocation: Int] = [:]
        for index in entries.indices where entries[index].disposition == .accepted {
            bySource[entries[index].event.source] = index
        }
        for violation in report.violations {
            guard let index = bySource[violation.source] else { continue }
            entries[index].violations.append(violation)
        }
    }

    /// The accepted events in the order the rules saw them: `ts`, equal `ts` in input order (SPEC §2).
    public var accepted: [Entry] {
        let accepted = entries.filter { $0.disposition == .accepted }
        return accepted.enumerated().sorted { a, b in
            a.element.event.ts != b.element.event.ts ? a.element.event.ts < b.element.event.ts : a.offset < b.offset
        }.map(\.element)
    }

    /// Late and duplicate events, in input order.
    public var notAccepted: [Entry] { entries.filter { $0.disposition != .accepted } }

    /// Why an event was not accepted, in words; nil for an accepted one. A duplicate names the accepted
    /// event whose id it repeats, when that is among the session's events read.
    public func reason(for entry: Entry, sources: SourceFileTable) -> String? {
        switch entry.disposition {
        case .accepted:
            return nil
        case .late(let reason):
            return reason.description
        case .otherShard:
            return "its session belongs to another shard"
        case .duplicate:
            guard let id = entry.event.id else { return "its id was already seen in the session" }
            if let first = entries.first(where: { $0.disposition == .accepted && $0.event.id == id }) {
                return "id \(id) was already accepted at \(sources.describe(first.event.source))"
            }
            return "id \(id) was already seen in the session"
        }
    }
}

extension EventDisposition {
    /// `accepted`, `duplicate` or `late`, as `show` labels events.
    public var label: String {
        switch self {
        case .accepted: "accepted"
        case .duplicate: "duplicate"
        case .late: "late"
        case .otherShard: "other shard"
        }
    }
}
