/// What the engine knows about one session in `ts` order, shared by all rules: settings from
/// `session.start`, the visible screen, the modal stack, and the violations found so far.
///
/// It is a plain value so an open session can be checkpointed and restored as it is.
public struct SessionContext: Sendable, Equatable, Codable {
    public let session: String
    /// Settings of the session's first `session.start` (in `ts` order), or the defaults before it.
    public internal(set) var settings: SessionSettings
    /// `ts` of the session's first `session.start`, once seen.
    public internal(set) var sessionStartTs: Int64?
    /// The screen for the event being observed: its own `screen`, else the latest before it, else "".
    public internal(set) var screen: String
    public internal(set) var modals: ModalStack
    /// The first `device` and `app_version` in `ts` order.
    public internal(set) var device: String?
    public internal(set) var appVersion: String?
    public internal(set) var firstTs: Int64?
    public internal(set) var lastTs: Int64
    public internal(set) var acceptedEvents: Int
    /// Haptics played so far, per kind.
    public internal(set) var hapticCounts: [HapticKind: Int]
    public internal(set) var violations: [Violation]

    public init(session: String) {
        self.session = session
        settings = .defaults
        sessionStartTs = nil
        screen = ""
        modals = ModalStack()
        device = nil
        appVersion = nil
        firstTs = nil
        lastTs = 0
        acceptedEvents = 0
        hapticCounts = [:]
        violations = []
    }

    /// Records a violation of this session. `screen` defaults to the screen of the event being observed;
    /// a rule that reports an earlier event passes the screen it remembered for that event.
    public mutating func report(
        rule: String, severity: Severity, source: SourceLocation, screen: String? = nil,
        startTs: Int64, endTs: Int64, count: Int = 1, detail: String, related: RelatedSource? = nil
    ) {
        violations.append(Violation(
            rule: rule, severity: severity, session: session, screen: screen ?? self.screen,
            startTs: startTs, endTs: endTs, count: count, detail: detail, source: source, related: related
        ))
    }
}
