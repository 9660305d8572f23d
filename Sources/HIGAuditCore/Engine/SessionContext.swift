/// What the engine knows about one session in `ts` order, shared by all rules: settings from
/// `session.start`, the visible screen and how many events showed one, the modal stack, and the
/// violations found so far. A rule reads here what it needs of the events it does not ask for.
///
/// It is a plain value so an open session can be checkpointed and restored as it is.
public struct SessionContext: Sendable, Equatable, Codable {
    public let session: String
    /// Settings of the session's first `session.start` (in `ts` order), or the defaults before it.
    public internal(set) var settings: SessionSettings
    /// `ts` of the session's first `session.start`, once seen.
    public internal(set) var sessionStartTs: Int64?
    /// `ts` of the session's first `session.start` that is not `synthetic`, once seen: the launch.
    /// An importer's synthetic start marks where the source's data begins, not a launch, so the rules
    /// timed from the launch (`slow-launch`, `early-rating-prompt`, `forced-tab-switch`'s restore
    /// grace) read this, not `sessionStartTs`.
    public internal(set) var launchTs: Int64?
    /// The screen for the event being observed: its own `screen`, else the latest before it, else "".
    public internal(set) var screen: String
    public internal(set) var modals: ModalStack
    /// The first `device` and `app_version` in `ts` order.
    public internal(set) var device: String?
    public internal(set) var appVersion: String?
    public internal(set) var firstTs: Int64?
    public internal(set) var lastTs: Int64
    public internal(set) var acceptedEvents: Int
    /// Haptics played so far, per kind (the kinds played at least once).
    public internal(set) var hapticCounts: [HapticKind: Int] {
        get { SessionHaptics.counts(hapticTally) }
        set { hapticTally = SessionHaptics.tally(newValue) }
    }
    /// `hapticCounts` as a count at each kind's place in `HapticKind.allCases`, empty until the first
    /// haptic: a haptic event is counted by an index (`apply`), not by hashing its kind into a
    /// dictionary.
    var hapticTally: [Int] = []
    public internal(set) var violations: [Violation]
    /// Events with a `screen` so far, the one being observed included: a rule that only wants some
    /// events can tell whether any event between two of them showed a screen.
    public internal(set) var screenSightings = 0
    /// `screen` before its latest change, and the value of `screenSightings` at that change (see
    /// `screen(beforeObserved:)`).
    var replacedScreen = ""
    var screenChangedAtSighting = 0

    public init(session: String) {
        self.session = session
        settings = .defaults
        sessionStartTs = nil
        launchTs = nil
        screen = ""
        modals = ModalStack()
        device = nil
        appVersion = nil
        firstTs = nil
        lastTs = 0
        acceptedEvents = 0
        violations = []
    }

    /// The screen before the event being observed was applied: its `screen` unless that event has a
    /// screen that changed it.
    public func screen(beforeObserved event: Event) -> String {
        event.texts.has(.screen) && screenChangedAtSighting == screenSightings ? replacedScreen : screen
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

/// Checkpoints written before `screenSightings` lack the three screen-tracking keys; such a session
/// continues from zero sightings, as must every rule state that counts them (its `settle` wrote the
/// state such a reader expects). Those written before `launchTs` lack it (see `init(from:)`).
extension SessionContext {
    private enum CodingKeys: String, CodingKey {
        case session, settings, sessionStartTs, launchTs, screen, modals, device, appVersion, firstTs, lastTs
        case acceptedEvents, hapticCounts, violations, screenSightings, replacedScreen, screenChangedAtSighting
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String.self, forKey: .session)
        settings = try container.decode(SessionSettings.self, forKey: .settings)
        sessionStartTs = try container.decodeIfPresent(Int64.self, forKey: .sessionStartTs)
        // Written as null when unknown; a checkpoint from before synthetic starts lacks the key, and
        // its sessions' first start was their launch.
        launchTs = container.contains(.launchTs)
            ? try container.decodeIfPresent(Int64.self, forKey: .launchTs) : sessionStartTs
        screen = try container.decode(String.self, forKey: .screen)
        modals = try container.decode(ModalStack.self, forKey: .modals)
        device = try container.decodeIfPresent(String.self, forKey: .device)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        firstTs = try container.decodeIfPresent(Int64.self, forKey: .firstTs)
        lastTs = try container.decode(Int64.self, forKey: .lastTs)
        acceptedEvents = try container.decode(Int.self, forKey: .acceptedEvents)
        hapticTally = SessionHaptics.tally(try container.decode([HapticKind: Int].self, forKey: .hapticCounts))
        violations = try container.decode([Violation].self, forKey: .violations)
        screenSightings = try container.decodeIfPresent(Int.self, forKey: .screenSightings) ?? 0
        replacedScreen = try container.decodeIfPresent(String.self, forKey: .replacedScreen) ?? ""
        screenChangedAtSighting = try container.decodeIfPresent(Int.self, forKey: .screenChangedAtSighting) ?? 0
    }

    /// As the synthesised encoding, but with the haptic counts in kind order: a dictionary is encoded in
    /// its hash order, which changes from process to process, and a checkpoint must be the same bytes
    /// for the same sessions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(settings, forKey: .settings)
        try container.encodeIfPresent(sessionStartTs, forKey: .sessionStartTs)
        try container.encode(launchTs, forKey: .launchTs)
        try container.encode(screen, forKey: .screen)
        try container.encode(modals, forKey: .modals)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encodeIfPresent(firstTs, forKey: .firstTs)
        try container.encode(lastTs, forKey: .lastTs)
        try container.encode(acceptedEvents, forKey: .acceptedEvents)
        // The layout `[HapticKind: Int]` decodes: key, value, key, value, ….
        var haptics = container.nestedUnkeyedContainer(forKey: .hapticCounts)
        for (kind, count) in hapticCounts.sorted(by: { $0.key < $1.key }) {
            try haptics.encode(kind)
            try haptics.encode(count)
        }
        try container.encode(violations, forKey: .violations)
        try container.encode(screenSightings, forKey: .screenSightings)
        try container.encode(replacedScreen, forKey: .replacedScreen)
        try container.encode(screenChangedAtSighting, forKey: .screenChangedAtSighting)
    }
}

/// `SessionContext.hapticTally`: a count at each kind's place in `HapticKind.allCases`.
enum SessionHaptics {
    /// Counts one haptic of `kind`.
    @inline(__always)
    static func count(_ kind: HapticKind, in tally: inout [Int]) {
        if tally.isEmpty { tally = Array(repeating: 0, count: HapticKind.allCases.count) }
        tally[CaseNumbers.place(of: kind)] &+= 1
    }

    /// The kinds counted at least once, with their counts.
    static func counts(_ tally: [Int]) -> [HapticKind: Int] {
        // Made at its size: grown one kind at a time, the dictionary was reallocated and rehashed at
        // each doubling, for every closed session.
        var counts = [HapticKind: Int](minimumCapacity: tally.reduce(0) { $1 > 0 ? $0 &+ 1 : $0 })
        for (kind, count) in zip(HapticKind.allCases, tally) where count > 0 { counts[kind] = count }
        return counts
    }

    /// The tally of `counts`; empty when no kind has a count, as before the first haptic. A kind with a
    /// count of 0 is not played, and is left out as `counts` leaves it out.
    static func tally(_ counts: [HapticKind: Int]) -> [Int] {
        guard counts.values.contains(where: { $0 != 0 }) else { return [] }
        return HapticKind.allCases.map { counts[$0] ?? 0 }
    }
}
