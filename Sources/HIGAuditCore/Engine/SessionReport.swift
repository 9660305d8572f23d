/// Everything the tables need to know about one session, handed over once when it closes.
///
/// The engine releases a session's memory when it closes; this value is all that survives it, so the
/// table builders never need the events themselves.
public struct SessionReport: Sendable, Equatable {
    public var session: String
    /// The first `device` and `app_version` seen in the session, or empty.
    public var device: String
    public var appVersion: String
    public var firstTs: Int64
    public var lastTs: Int64
    /// Accepted events of the session.
    public var acceptedEvents: Int
    /// Haptics played, per kind.
    public var hapticCounts: [HapticKind: Int]
    /// The session's violations in SPEC §4 order (`start_ts`, `rule`, source).
    public var violations: [Violation]
    /// Which of its touches the session's log held: when not `all`, the rules that need every touch
    /// (`RuleDescription.needsEveryTouch`) did not judge it, and the tables count it apart.
    public var touches: TouchCoverage

    public init(
        session: String, device: String, appVersion: String, firstTs: Int64, lastTs: Int64,
        acceptedEvents: Int, hapticCounts: [HapticKind: Int], violations: [Violation],
        touches: TouchCoverage = .all
    ) {
        self.session = session
        self.device = device
        self.appVersion = appVersion
        self.firstTs = firstTs
        self.lastTs = lastTs
        self.acceptedEvents = acceptedEvents
        self.hapticCounts = hapticCounts
        self.violations = violations
        self.touches = touches
    }
}
