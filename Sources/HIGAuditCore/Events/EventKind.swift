/// The event types of SPEC §2, by their wire name. Rules declare the kinds they want with `EventKindSet`.
public enum EventKind: UInt8, CaseIterable, Sendable, Hashable {
    case sessionStart, sessionEnd, touch, pencilDoubleTap, haptic, outcome
    case tabSwitch, navPush, navPop, modalPresent, modalDismiss, contentMutation
    case loadingStart, loadingEnd, captureStart, captureStop

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
        }
    }

    public init?(wireName: String) {
        guard let kind = EventKind.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = kind
    }
}

/// A set of event kinds as a bit mask, so the engine can hand each event only to the rules that asked.
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

    public func contains(_ kind: EventKind) -> Bool {
        rawValue & (1 << UInt32(kind.rawValue)) != 0
    }

    public static let all = EventKindSet(EventKind.allCases)
}
