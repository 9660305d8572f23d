/// A rule's configured values at every screen (SPEC §6 overrides), handed to the rule with each event.
///
/// The rule value an event is handed to (`self` in `observe`) holds the values at that event's screen
/// (`SessionContext.screen`), which is where most rules record their violations. A rule that judges an
/// event whose violation would record another screen (a `forced-tab-switch` records the screen before
/// the switch; a `loading.start` is judged when its `loading.end` comes) reads that screen's values
/// with `at(_:)`, and a rule that keeps history for later events keeps as much as `widest` asks for.
/// Without `overrides:` every screen has the ordinary values and no lookup is made.
public struct ScreenValues<Rule: SessionRule> {
    /// The ordinary values, used when there are no overrides.
    private let ordinary: UnsafePointer<Rule>
    /// The run's per-screen values; nil without overrides. Unmanaged: the engine keeps it alive, and
    /// handing it to each rule with each event must cost no reference counting.
    private let table: Unmanaged<ScreenRuleTable>?
    /// Where this rule's value sits in each set of rule values, and its bit among the rules.
    private let offset: Int
    private let bit: UInt32
    /// Whether the rule is on at the screen of the event being handed over.
    public let isEnabledHere: Bool

    init(ordinary: UnsafePointer<Rule>, table: Unmanaged<ScreenRuleTable>?, offset: Int, bit: UInt32, isEnabledHere: Bool) {
        self.ordinary = ordinary
        self.table = table
        self.offset = offset
        self.bit = bit
        self.isEnabledHere = isEnabledHere
    }

    /// The values of a rule used on its own, outside an engine (tests): the ordinary ones everywhere.
    init(ordinary: UnsafePointer<Rule>) {
        self.init(ordinary: ordinary, table: nil, offset: 0, bit: 0, isEnabledHere: true)
    }

    /// The rule's values where a violation would record `screen`.
    public func at(_ screen: String) -> Rule {
        guard let table else { return ordinary.pointee }
        let storage = table._withUnsafeGuaranteedRef { $0.values(at: screen).storage }
        return (storage + offset).assumingMemoryBound(to: Rule.self).pointee
    }

    /// Whether the rule is on where a violation would record `screen`.
    public func isEnabled(at screen: String) -> Bool {
        guard let table else { return true }
        return table._withUnsafeGuaranteedRef { $0.values(at: screen).enabledBits } & bit != 0
    }

    /// Each parameter at the largest value it has at any screen: how much history to keep.
    public var widest: Rule {
        guard let table else { return ordinary.pointee }
        let storage = table._withUnsafeGuaranteedRef { $0.widest.storage }
        return (storage + offset).assumingMemoryBound(to: Rule.self).pointee
    }
}
