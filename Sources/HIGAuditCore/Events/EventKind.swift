/// The event types of SPEC §2, by their wire name. Rules declare the kinds they want with `EventKindSet`.
public enum EventKind: UInt8, CaseIterable, Sendable, Hashable {
    case sessionStart, sessionEnd, touch, pencilDoubleTap, haptic, outcome
    case tabSwitch, navPush, navPop, modalPresent, modalDismiss, contentMutation
    case loadingStart, loadingEnd, captureStart, captureStop
    case appReady, permissionRequest, ratingPrompt, widgetDisplay

    /// The `type` string in the log.
    public var wireName: String { wireNameLiteral.description }

    /// `wireName` as a literal, for comparing bytes without building a `String`.
    public var wireNameLiteral: StaticString {
        switch self {
        case .sessionStart: "session.start"
        case .sessionEnd: "session.end"
        case .touch: "touch"
        case .pencilDoubleTap: "pencil.double_tap"
        case .haptic: "haptic"
        case .outcome: "outcome"
        case .tabSwitch: "nav.tab_switch"
        case .navPush: "nav.push"
        case .navPop: "nav.pop"
        case .modalPresent: "modal.present"
        case .modalDismiss: "modal.dismiss"
        case .contentMutation: "content.mutation"
        case .loadingStart: "loading.start"
        case .loadingEnd: "loading.end"
        case .captureStart: "capture.start"
        case .captureStop: "capture.stop"
        case .appReady: "app.ready"
        case .permissionRequest: "permission.request"
        case .ratingPrompt: "rating.prompt"
        case .widgetDisplay: "widget.display"
        }
    }

    public init?(wireName: String) {
        guard let kind = EventKind.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = kind
    }
}

/// A set of event kinds as a bit mask, so the engine can hand each event only to the rules that asked.
///
/// Touches, most of the events in a log, can also be asked for by phase (`touches(_:)`): a rule that
/// only reacts to a touch's start or end is then not handed the strokes in between. `touch` itself
/// stands for touches in every phase.
public struct EventKindSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ kinds: EventKind...) {
        self.init(kinds)
    }

    public init(_ kinds: some Sequence<EventKind>) {
        var raw: UInt32 = 0
        for kind in kinds { raw |= 1 << UInt32(kind.rawValue) }
        self.init(rawValue: raw)
    }

    /// Touches in the given phases only.
    public static func touches(_ phases: TouchPhase...) -> EventKindSet {
        var raw: UInt32 = 0
        for phase in phases { raw |= phaseBit(phase) }
        return EventKindSet(rawValue: raw)
    }

    /// Whether every event of `kind` is in the set (for `touch`: touches in every phase).
    public func contains(_ kind: EventKind) -> Bool {
        rawValue & (1 << UInt32(kind.rawValue)) != 0
    }

    /// Whether touches in `phase` are in the set, by themselves or with every touch.
    public func contains(touchesIn phase: TouchPhase) -> Bool {
        contains(.touch) || rawValue & Self.phaseBit(phase) != 0
    }

    /// The phases' bits follow the kinds' (`EventKind` has 20 cases, `TouchPhase` 4: 24 of the 32 bits).
    private static func phaseBit(_ phase: TouchPhase) -> UInt32 {
        1 << UInt32(EventKind.allCases.count + phase.ordinal)
    }

    public static let all = EventKindSet(EventKind.allCases)
}
