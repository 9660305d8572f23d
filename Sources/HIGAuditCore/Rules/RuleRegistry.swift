/// Every rule hig-audit knows, in rule-id order: the single list behind the `rules` listing, the
/// summary table's rows, the config file's keys and the generic example test.
///
/// Adding a rule means: its file, a case in `RuleSlot`, a field in `RuleStates` and in
/// `ConfiguredRules`, and one line in each `switch` below. The hand-written dispatch keeps the
/// per-event path free of existentials (STYLE: "a hand-written registry array is enough").
public enum RuleRegistry {
    public static let descriptions: [RuleDescription] = RuleSlot.allCases.map(\.description)

    public static func description(of identifier: String) -> RuleDescription? {
        descriptions.first { $0.identifier == identifier }
    }
}

/// One registered rule; case order is rule-id order.
enum RuleSlot: Int, CaseIterable, Sendable {
    case destructiveDoubleTap
    case forcedTabSwitch
    case hapticDuringCapture
    case hapticMismatch
    case hapticOveruse
    case hapticWhenDisabled
    case loadingWithoutIndicator
    case modalDepth
    case modalOverPopover
    case pencilPreferenceIgnored
    case tabStateLost

    var description: RuleDescription {
        switch self {
        case .destructiveDoubleTap: DestructiveDoubleTapRule.description
        case .forcedTabSwitch: ForcedTabSwitchRule.description
        case .hapticDuringCapture: HapticDuringCaptureRule.description
        case .hapticMismatch: HapticMismatchRule.description
        case .hapticOveruse: HapticOveruseRule.description
        case .hapticWhenDisabled: HapticWhenDisabledRule.description
        case .loadingWithoutIndicator: LoadingWithoutIndicatorRule.description
        case .modalDepth: ModalDepthRule.description
        case .modalOverPopover: ModalOverPopoverRule.description
        case .pencilPreferenceIgnored: PencilPreferenceIgnoredRule.description
        case .tabStateLost: TabStateLostRule.description
        }
    }

    var interests: EventKindSet {
        switch self {
        case .destructiveDoubleTap: DestructiveDoubleTapRule.interests
        case .forcedTabSwitch: ForcedTabSwitchRule.interests
        case .hapticDuringCapture: HapticDuringCaptureRule.interests
        case .hapticMismatch: HapticMismatchRule.interests
        case .hapticOveruse: HapticOveruseRule.interests
        case .hapticWhenDisabled: HapticWhenDisabledRule.interests
        case .loadingWithoutIndicator: LoadingWithoutIndicatorRule.interests
        case .modalDepth: ModalDepthRule.interests
        case .modalOverPopover: ModalOverPopoverRule.interests
        case .pencilPreferenceIgnored: PencilPreferenceIgnoredRule.interests
        case .tabStateLost: TabStateLostRule.interests
        }
    }
}

/// Every rule's state for one session: a plain `Codable` value, so open sessions can be checkpointed.
/// Disabled rules keep their (empty) initial state.
public struct RuleStates: Sendable, Equatable, Codable {
    public var destructiveDoubleTap = DestructiveDoubleTapRule.State()
    public var forcedTabSwitch = ForcedTabSwitchRule.State()
    public var hapticDuringCapture = HapticDuringCaptureRule.State()
    public var hapticMismatch = HapticMismatchRule.State()
    public var hapticOveruse = HapticOveruseRule.State()
    public var hapticWhenDisabled = HapticWhenDisabledRule.State()
    public var loadingWithoutIndicator = LoadingWithoutIndicatorRule.State()
    public var modalDepth = ModalDepthRule.State()
    public var modalOverPopover = ModalOverPopoverRule.State()
    public var pencilPreferenceIgnored = PencilPreferenceIgnoredRule.State()
    public var tabStateLost = TabStateLostRule.State()

    public init() {}
}

extension RuleStates {
    /// The states as a checkpoint keeps them: those a rule takes in lazily brought up to date with
    /// the session (`TabStateLostRule.settle`).
    func settled(in context: SessionContext) -> RuleStates {
        var settled = self
        TabStateLostRule.settle(&settled.tabStateLost, in: context)
        return settled
    }
}

/// The rules of one run with their parameters read, and a table from event kind to the enabled rules
/// that want it.
struct ConfiguredRules: Sendable {
    let destructiveDoubleTap: DestructiveDoubleTapRule
    let forcedTabSwitch: ForcedTabSwitchRule
    let hapticDuringCapture: HapticDuringCaptureRule
    let hapticMismatch: HapticMismatchRule
    let hapticOveruse: HapticOveruseRule
    let hapticWhenDisabled: HapticWhenDisabledRule
    let loadingWithoutIndicator: LoadingWithoutIndicatorRule
    let modalDepth: ModalDepthRule
    let modalOverPopover: ModalOverPopoverRule
    let pencilPreferenceIgnored: PencilPreferenceIgnoredRule
    let tabStateLost: TabStateLostRule

    let enabled: [RuleSlot]
    /// Indexed by `EventKind.rawValue`: the enabled rules interested in that kind, one bit per
    /// `RuleSlot.rawValue`. Bits rather than an array of slots per kind: reading an inner array
    /// retained and released it on every event.
    private let dispatch: [UInt32]
    /// The same for touches, by `TouchPhase.ordinal`: most events are touches in mid-stroke, which the
    /// rules that only want a touch's start or end are then not handed.
    private let touchDispatch: [UInt32]

    init(configuration: AuditConfiguration) {
        destructiveDoubleTap = DestructiveDoubleTapRule(configuration: configuration)
        forcedTabSwitch = ForcedTabSwitchRule(configuration: configuration)
        hapticDuringCapture = HapticDuringCaptureRule(configuration: configuration)
        hapticMismatch = HapticMismatchRule(configuration: configuration)
        hapticOveruse = HapticOveruseRule(configuration: configuration)
        hapticWhenDisabled = HapticWhenDisabledRule(configuration: configuration)
        loadingWithoutIndicator = LoadingWithoutIndicatorRule(configuration: configuration)
        modalDepth = ModalDepthRule(configuration: configuration)
        modalOverPopover = ModalOverPopoverRule(configuration: configuration)
        pencilPreferenceIgnored = PencilPreferenceIgnoredRule(configuration: configuration)
        tabStateLost = TabStateLostRule(configuration: configuration)

        precondition(RuleSlot.allCases.count <= UInt32.bitWidth, "one dispatch bit per rule")
        let enabled = RuleSlot.allCases.filter { configuration.isEnabled($0.description) }
        self.enabled = enabled
        dispatch = EventKind.allCases.map { kind in
            enabled.filter { $0.interests.contains(kind) }.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        }
        touchDispatch = TouchPhase.allCases.map { phase in
            enabled.filter { $0.interests.contains(touchesIn: phase) }.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        }
        precondition(TouchPhase.allCases.map(\.ordinal) == Array(TouchPhase.allCases.indices), "ordinals index allCases")
    }

    var enabledDescriptions: [RuleDescription] { enabled.map(\.description) }

    /// Rule-id order. One test a rule rather than a `switch` on each pending rule in a loop: that one
    /// indirect jump took a different target on each turn (three rules an event on average) and was
    /// mispredicted ~3 times an event in cachegrind's model (46% of `analyze`'s mispredicted indirect
    /// branches, 9% of all its mispredictions); these tests follow the kind of event and are predicted.
    func observe(_ event: Event, states: inout RuleStates, in session: inout SessionContext) {
        let pending = slots(for: event)
        guard pending != 0 else { return }
        if pending & Self.bit(.destructiveDoubleTap) != 0 {
            destructiveDoubleTap.observe(event, state: &states.destructiveDoubleTap, in: &session)
        }
        if pending & Self.bit(.forcedTabSwitch) != 0 {
            forcedTabSwitch.observe(event, state: &states.forcedTabSwitch, in: &session)
        }
        if pending & Self.bit(.hapticDuringCapture) != 0 {
            hapticDuringCapture.observe(event, state: &states.hapticDuringCapture, in: &session)
        }
        if pending & Self.bit(.hapticMismatch) != 0 {
            hapticMismatch.observe(event, state: &states.hapticMismatch, in: &session)
        }
        if pending & Self.bit(.hapticOveruse) != 0 {
            hapticOveruse.observe(event, state: &states.hapticOveruse, in: &session)
        }
        if pending & Self.bit(.hapticWhenDisabled) != 0 {
            hapticWhenDisabled.observe(event, state: &states.hapticWhenDisabled, in: &session)
        }
        if pending & Self.bit(.loadingWithoutIndicator) != 0 {
            loadingWithoutIndicator.observe(event, state: &states.loadingWithoutIndicator, in: &session)
        }
        if pending & Self.bit(.modalDepth) != 0 {
            modalDepth.observe(event, state: &states.modalDepth, in: &session)
        }
        if pending & Self.bit(.modalOverPopover) != 0 {
            modalOverPopover.observe(event, state: &states.modalOverPopover, in: &session)
        }
        if pending & Self.bit(.pencilPreferenceIgnored) != 0 {
            pencilPreferenceIgnored.observe(event, state: &states.pencilPreferenceIgnored, in: &session)
        }
        if pending & Self.bit(.tabStateLost) != 0 {
            tabStateLost.observe(event, state: &states.tabStateLost, in: &session)
        }
    }

    /// The enabled rules that want `event`, one bit per `RuleSlot.rawValue`.
    @inline(__always)
    func slots(for event: Event) -> UInt32 {
        if case .touch(let touch) = event.payload { return touchDispatch[touch.phase.ordinal] }
        return dispatch[Int(event.kind.rawValue)]
    }

    @inline(__always)
    static func bit(_ slot: RuleSlot) -> UInt32 { 1 << UInt32(slot.rawValue) }

    func finish(states: inout RuleStates, in session: inout SessionContext) {
        for slot in enabled {
            switch slot {
            case .destructiveDoubleTap: destructiveDoubleTap.finish(state: &states.destructiveDoubleTap, in: &session)
            case .forcedTabSwitch: forcedTabSwitch.finish(state: &states.forcedTabSwitch, in: &session)
            case .hapticDuringCapture: hapticDuringCapture.finish(state: &states.hapticDuringCapture, in: &session)
            case .hapticMismatch: hapticMismatch.finish(state: &states.hapticMismatch, in: &session)
            case .hapticOveruse: hapticOveruse.finish(state: &states.hapticOveruse, in: &session)
            case .hapticWhenDisabled: hapticWhenDisabled.finish(state: &states.hapticWhenDisabled, in: &session)
            case .loadingWithoutIndicator:
                loadingWithoutIndicator.finish(state: &states.loadingWithoutIndicator, in: &session)
            case .modalDepth: modalDepth.finish(state: &states.modalDepth, in: &session)
            case .modalOverPopover: modalOverPopover.finish(state: &states.modalOverPopover, in: &session)
            case .pencilPreferenceIgnored:
                pencilPreferenceIgnored.finish(state: &states.pencilPreferenceIgnored, in: &session)
            case .tabStateLost: tabStateLost.finish(state: &states.tabStateLost, in: &session)
            }
        }
    }
}
