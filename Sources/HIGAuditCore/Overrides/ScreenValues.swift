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
    /// Where this rule's value sits in every `RuleValueSet` (its property's offset), and its bit
    /// among the rules.
    private let offset: Int
    private let bit: UInt32
    /// Whether the rule is on at the screen of the event being handed over.
    public let isEnabledHere: Bool

    /// The rule whose value is `value` in each set, with the run's ordinary set and its table.
    @inline(__always)
    init(
        ordinary: UnsafePointer<RuleValueSet>, table: Unmanaged<ScreenRuleTable>?, value: KeyPath<RuleValueSet, Rule>,
        bit: UInt32, isEnabledHere: Bool
    ) {
        offset = RuleValueSet.offset(of: value)
        self.ordinary = (UnsafeRawPointer(ordinary) + offset).assumingMemoryBound(to: Rule.self)
        self.table = table
        self.bit = bit
        self.isEnabledHere = isEnabledHere
    }

    /// The values of a rule used on its own, outside an engine (tests): the ordinary ones everywhere.
    init(ordinary: UnsafePointer<Rule>) {
        self.ordinary = ordinary
        table = nil
        offset = 0
        bit = 0
        isEnabledHere = true
    }

    /// This rule's value in `set`.
    @inline(__always)
    func value(in set: UnsafePointer<RuleValueSet>) -> UnsafePointer<Rule> {
        (UnsafeRawPointer(set) + offset).assumingMemoryBound(to: Rule.self)
    }

    /// The rule's values where a violation would record `screen`.
    public func at(_ screen: String) -> Rule {
        guard let table else { return ordinary.pointee }
        return value(in: table._withUnsafeGuaranteedRef { $0.values(at: screen).storage }).pointee
    }

    /// Whether the rule is on where a violation would record `screen`.
    public func isEnabled(at screen: String) -> Bool {
        guard let table else { return true }
        return table._withUnsafeGuaranteedRef { $0.values(at: screen).enabledBits } & bit != 0
    }

    /// Each parameter at the largest value it has at any screen: how much history to keep.
    public var widest: Rule {
        guard let table else { return ordinary.pointee }
        return value(in: table._withUnsafeGuaranteedRef { $0.widest.storage }).pointee
    }
}
