/// Every rule hig-audit knows, in rule-id order: the single list behind the `rules` listing, the
/// summary table's rows, the config file's keys and the generic example test.
///
/// Adding a rule means its file, two lines in `RuleStates` (a stored property for its state and a
/// line in `visitAll`) and two in `RuleValueSet` (a stored property for its value, of the same name,
/// and its line in `init`). Everything else (descriptions, dispatch bits, checkpoint keys, observing
/// and finishing) is derived from that list, and `RuleRegistryTests` fails when a state or value
/// property has no line in it. The list hands each rule's type statically to a generic visitor, so the per-event
/// dispatch has no existentials (STYLE: "a hand-written registry array is enough").
public enum RuleRegistry {
    public static let descriptions: [RuleDescription] = {
        var collector = DescriptionCollector()
        var states = RuleStates()
        states.visitAll(&collector)
        return collector.descriptions
    }()

    public static func description(of identifier: String) -> RuleDescription? {
        descriptions.first { $0.identifier == identifier }
    }
}

/// Something done to every registered rule in turn, with its state for one session.
///
/// `visit` is called once per rule, in the order of `RuleStates.visitAll` (rule-id order); a visitor
/// numbers the rules by counting its calls, and that number is the rule's dispatch bit. `value` is
/// where the rule's configured value lies in a `RuleValueSet` (visitors that read none ignore it).
/// `event` and
/// `session` are the ones handed to `visitAll`, passed through rather than kept in the visitor so that
/// observing an event never copies it; visitors that need neither get placeholders.
protocol RuleVisitor {
    mutating func visit<Rule: SessionRule>(
        _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext)
}

/// Every rule's state for one session: a plain `Codable` value, so open sessions can be checkpointed.
/// Disabled rules keep their (empty) initial state.
///
/// A checkpoint keeps each state under the rule's id in camel case (`hapticOveruse`); a checkpoint
/// written before a rule existed has no key for it, and that rule starts from its initial state, as
/// it would have had the rule been disabled until then.
public struct RuleStates: Sendable, Equatable {
    public var destructiveDoubleTap = DestructiveDoubleTapRule.State()
    public var earlyRatingPrompt = EarlyRatingPromptRule.State()
    public var forcedTabSwitch = ForcedTabSwitchRule.State()
    public var hapticDuringCapture = HapticDuringCaptureRule.State()
    public var hapticMismatch = HapticMismatchRule.State()
    public var hapticOveruse = HapticOveruseRule.State()
    public var hapticWhenDisabled = HapticWhenDisabledRule.State()
    public var loadingWithoutIndicator = LoadingWithoutIndicatorRule.State()
    public var modalDepth = ModalDepthRule.State()
    public var modalOverPopover = ModalOverPopoverRule.State()
    public var pencilPreferenceIgnored = PencilPreferenceIgnoredRule.State()
    public var slowLaunch = SlowLaunchRule.State()
    public var tabStateLost = TabStateLostRule.State()
    public var unpromptedPermissionRequest = UnpromptedPermissionRequestRule.State()
    public var widgetPlaceholder = WidgetPlaceholderRule.State()

    public init() {}

    /// The registry: every rule with its state, in rule-id order (`RuleRegistryTests` checks the order
    /// and that every property above is visited).
    @inline(__always)
    mutating func visitAll<Visitor: RuleVisitor>(
        _ visitor: inout Visitor, event: borrowing Event, session: inout SessionContext
    ) {
        visitor.visit(DestructiveDoubleTapRule.self, state: &destructiveDoubleTap, value: \.destructiveDoubleTap, event: event, session: &session)
        visitor.visit(EarlyRatingPromptRule.self, state: &earlyRatingPrompt, value: \.earlyRatingPrompt, event: event, session: &session)
        visitor.visit(ForcedTabSwitchRule.self, state: &forcedTabSwitch, value: \.forcedTabSwitch, event: event, session: &session)
        visitor.visit(HapticDuringCaptureRule.self, state: &hapticDuringCapture, value: \.hapticDuringCapture, event: event, session: &session)
        visitor.visit(HapticMismatchRule.self, state: &hapticMismatch, value: \.hapticMismatch, event: event, session: &session)
        visitor.visit(HapticOveruseRule.self, state: &hapticOveruse, value: \.hapticOveruse, event: event, session: &session)
        visitor.visit(HapticWhenDisabledRule.self, state: &hapticWhenDisabled, value: \.hapticWhenDisabled, event: event, session: &session)
        visitor.visit(LoadingWithoutIndicatorRule.self, state: &loadingWithoutIndicator, value: \.loadingWithoutIndicator, event: event, session: &session)
        visitor.visit(ModalDepthRule.self, state: &modalDepth, value: \.modalDepth, event: event, session: &session)
        visitor.visit(ModalOverPopoverRule.self, state: &modalOverPopover, value: \.modalOverPopover, event: event, session: &session)
        visitor.visit(PencilPreferenceIgnoredRule.self, state: &pencilPreferenceIgnored, value: \.pencilPreferenceIgnored, event: event, session: &session)
        visitor.visit(SlowLaunchRule.self, state: &slowLaunch, value: \.slowLaunch, event: event, session: &session)
        visitor.visit(TabStateLostRule.self, state: &tabStateLost, value: \.tabStateLost, event: event, session: &session)
        visitor.visit(UnpromptedPermissionRequestRule.self, state: &unpromptedPermissionRequest, value: \.unpromptedPermissionRequest, event: event, session: &session)
        visitor.visit(WidgetPlaceholderRule.self, state: &widgetPlaceholder, value: \.widgetPlaceholder, event: event, session: &session)
    }

    /// `visitAll` for visitors that use neither an event nor a session (off the per-event path).
    mutating func visitAll<Visitor: RuleVisitor>(_ visitor: inout Visitor) {
        var scratch = SessionContext(session: "")
        visitAll(&visitor, event: Self.placeholderEvent, session: &scratch)
    }

    private static let placeholderEvent = Event(ts: 0, session: "", payload: .sessionEnd)

    /// How many rules `visitAll` visits.
    static let registeredCount = RuleRegistry.descriptions.count

    /// The key a rule's state has in a checkpoint: its id in camel case, the name of its property.
    static func codingKey(for identifier: String) -> String {
        var key = ""
        var upperNext = false
        for character in identifier {
            if character == "-" {
                upperNext = true
            } else {
                key += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        return key
    }
}

extension RuleStates {
    /// The states as a checkpoint keeps them: each brought up to date with the session by its rule's
    /// `settle`.
    func settled(in context: SessionContext) -> RuleStates {
        var settled = self
        var settling = Settling(context: context)
        settled.visitAll(&settling)
        return settled
    }

    private struct Settling: RuleVisitor {
        let context: SessionContext

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            Rule.settle(&state, in: context)
        }
    }
}

extension RuleStates: Codable {
    struct StateKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        var reader = StateDecoding(container: try decoder.container(keyedBy: StateKey.self))
        visitAll(&reader)
        if let error = reader.error { throw error }
    }

    public func encode(to encoder: any Encoder) throws {
        var writer = StateEncoding(container: encoder.container(keyedBy: StateKey.self))
        var states = self
        states.visitAll(&writer)
        if let error = writer.error { throw error }
    }

    /// Reads each rule's state that the checkpoint has; a missing one stays initial.
    private struct StateDecoding: RuleVisitor {
        let container: KeyedDecodingContainer<StateKey>
        var error: (any Error)?

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            guard error == nil else { return }
            do {
                let key = StateKey(stringValue: RuleStates.codingKey(for: Rule.identifier))
                if let decoded = try container.decodeIfPresent(Rule.State.self, forKey: key) { state = decoded }
            } catch {
                self.error = error
            }
        }
    }

    private struct StateEncoding: RuleVisitor {
        var container: KeyedEncodingContainer<StateKey>
        var error: (any Error)?

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            guard error == nil else { return }
            do {
                try container.encode(state, forKey: StateKey(stringValue: RuleStates.codingKey(for: Rule.identifier)))
            } catch {
                self.error = error
            }
        }
    }
}

private struct DescriptionCollector: RuleVisitor {
    var descriptions: [RuleDescription] = []

    mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
        descriptions.append(Rule.description)
    }
}

/// The rules of one run with their parameters read, and a table from event kind to the rules that
/// run and want it.
///
/// The configured rule values live in one allocation (`RuleValues`, a `RuleValueSet`), and a visitor
/// reads the value of the rule it is handed through the key path `visitAll` passes with it.
/// With `overrides:` (SPEC §6) there is one such allocation per combination of matching entries
/// (`ScreenRuleTable`), and each event is handed to the values at its screen; without, the one set of
/// ordinary values serves every event and no screen is looked at.
struct ConfiguredRules {
    private let values: RuleValues
    /// The per-screen values, or nil without overrides; `table` is the same, unretained, for the
    /// per-event path.
    private let tableOwner: ScreenRuleTable?
    private let table: Unmanaged<ScreenRuleTable>?
    /// One bit per rule that runs (enabled, or turned on somewhere by an override), by visiting position.
    let enabledBits: UInt32
    let enabledDescriptions: [RuleDescription]
    /// Indexed by `EventKind.rawValue`: the running rules interested in that kind, one bit per rule by
    /// visiting position. Bits rather than an array of rules per kind: reading an inner array retained
    /// and released it on every event.
    private let dispatch: [UInt32]
    /// The same for touches, by `TouchPhase.ordinal`: most events are touches in mid-stroke, which the
    /// rules that only want a touch's start or end are then not handed.
    private let touchDispatch: [UInt32]

    init(configuration: AuditConfiguration) {
        precondition(RuleStates.registeredCount <= UInt32.bitWidth, "one dispatch bit per rule")
        precondition(TouchPhase.allCases.map(\.ordinal) == Array(TouchPhase.allCases.indices), "ordinals index allCases")
        values = RuleValues(configuration: configuration)
        tableOwner = configuration.overrides.isEmpty ? nil : ScreenRuleTable(configuration: configuration)
        table = tableOwner.map { Unmanaged.passUnretained($0) }
        var survey = InterestSurvey(configuration: configuration)
        var states = RuleStates()
        states.visitAll(&survey)
        enabledBits = survey.enabledBits
        enabledDescriptions = survey.enabledDescriptions
        dispatch = survey.dispatch
        touchDispatch = survey.touchDispatch
    }

    /// Hands `event` to each running rule that wants it, in rule-id order. One test a rule rather than
    /// a `switch` on each pending rule in a loop: that one indirect jump would take a different target
    /// on each turn and be mispredicted; these tests follow the kind of event and are predicted.
    ///
    /// Out of line, so that the list (`visitAll`) is inlined here with its visitor a local value, which
    /// makes each rule's bit and value offset (its key path's) a constant. The event is passed through, never copied.
    @inline(never)
    func observe(_ event: borrowing Event, states: inout RuleStates, in session: inout SessionContext) {
        let pending = slots(for: event)
        guard pending != 0 else { return }
        // One call of `visitAll` whatever the configuration: with two (one per branch) the compiler kept
        // the list out of line, with its per-rule constants read at run time on every event.
        var observation: Observation
        if let table {
            let here = table._withUnsafeGuaranteedRef { $0.values(at: session.screen) }
            observation = Observation(
                values: here.storage, ordinary: UnsafePointer(values.storage), table: table, enabledHere: here.enabledBits, pending: pending)
        } else {
            observation = Observation(
                values: UnsafePointer(values.storage), ordinary: UnsafePointer(values.storage), table: nil, enabledHere: ~0, pending: pending)
        }
        let found = session.violations.count
        states.visitAll(&observation, event: event, session: &session)
        if table != nil { dropViolationsWhereOff(in: &session, from: found) }
    }

    /// The enabled rules that want `event`, one bit per rule by visiting position.
    @inline(__always)
    func slots(for event: borrowing Event) -> UInt32 {
        if case .touch(let touch) = event.payload { return touchDispatch[touch.phase.ordinal] }
        return dispatch[Int(event.kind.rawValue)]
    }

    /// The session closed: each running rule reports what it was waiting for, with the values at the
    /// session's last screen as `self` (a rule reporting an earlier event reads that event's screen's).
    func finish(states: inout RuleStates, in session: inout SessionContext) {
        let here = table.map { table in table._withUnsafeGuaranteedRef { $0.values(at: session.screen) } }
        var finishing = Finishing(
            values: here?.storage ?? UnsafePointer(values.storage), ordinary: UnsafePointer(values.storage), table: table,
            enabledHere: here?.enabledBits ?? ~0, enabled: enabledBits)
        let found = session.violations.count
        states.visitAll(&finishing, event: Self.closingEvent, session: &session)
        dropViolationsWhereOff(in: &session, from: found)
    }

    private func dropViolationsWhereOff(in session: inout SessionContext, from found: Int) {
        guard let table, session.violations.count > found else { return }
        table._withUnsafeGuaranteedRef { table in
            guard table.setsEnabled else { return }
            table.dropViolationsWhereOff(&session.violations, from: found)
        }
    }

    /// What `finish` hands the visitors for an event: none is observed there.
    private static let closingEvent = Event(ts: 0, session: "", payload: .sessionEnd)

    /// Hands one event to the rules whose bits are in `pending`.
    private struct Observation: RuleVisitor {
        /// The values at the event's screen, the ordinary ones, and the table (nil without overrides).
        let values: UnsafePointer<RuleValueSet>
        let ordinary: UnsafePointer<RuleValueSet>
        let table: Unmanaged<ScreenRuleTable>?
        let enabledHere: UInt32
        let pending: UInt32
        /// The visited rule's position: its dispatch bit.
        var slot = 0

        @inline(__always)
        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            let bit: UInt32 = 1 << UInt32(slot)
            slot += 1
            guard pending & bit != 0 else { return }
            let screens = ScreenValues<Rule>(
                ordinary: ordinary, table: table, value: value, bit: bit, isEnabledHere: enabledHere & bit != 0)
            screens.value(in: values).pointee.observe(event, state: &state, in: &session, screens: screens)
        }
    }

    private struct Finishing: RuleVisitor {
        let values: UnsafePointer<RuleValueSet>
        let ordinary: UnsafePointer<RuleValueSet>
        let table: Unmanaged<ScreenRuleTable>?
        let enabledHere: UInt32
        let enabled: UInt32
        var slot = 0

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            let bit: UInt32 = 1 << UInt32(slot)
            slot += 1
            guard enabled & bit != 0 else { return }
            let screens = ScreenValues<Rule>(
                ordinary: ordinary, table: table, value: value, bit: bit, isEnabledHere: enabledHere & bit != 0)
            screens.value(in: values).pointee.finish(state: &state, in: &session, screens: screens)
        }
    }

    /// Which rules run and which kinds each wants.
    private struct InterestSurvey: RuleVisitor {
        let configuration: AuditConfiguration
        var slot = 0
        var enabledBits: UInt32 = 0
        var enabledDescriptions: [RuleDescription] = []
        var dispatch = [UInt32](repeating: 0, count: EventKind.allCases.count)
        var touchDispatch = [UInt32](repeating: 0, count: TouchPhase.allCases.count)

        init(configuration: AuditConfiguration) {
            self.configuration = configuration
        }

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
        session: inout SessionContext
        ) {
            defer { slot += 1 }
            guard configuration.runs(Rule.description) else { return }
            let bit: UInt32 = 1 << UInt32(slot)
            enabledBits |= bit
            enabledDescriptions.append(Rule.description)
            for kind in EventKind.allCases where Rule.interests.contains(kind) {
                dispatch[Int(kind.rawValue)] |= bit
            }
            for phase in TouchPhase.allCases where Rule.interests.contains(touchesIn: phase) {
                touchDispatch[phase.ordinal] |= bit
            }
        }
    }
}
