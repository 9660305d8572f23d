/// The rule values of a run with `overrides:`, one set per combination of matching override entries,
/// found for a screen once and then remembered (SPEC §6: "each event … is judged with, for each
/// parameter, the value from the last entry that sets it and whose globs match").
///
/// Matching globs is the costly part, and a session shows one screen for many events: the latest
/// screen asked about is answered by one string comparison, other screens by one dictionary lookup,
/// and only a screen not seen before is matched against the entries. The screens remembered are
/// bounded (`screenLimit`), so that a log with endless distinct screens cannot make the table grow
/// without end; forgetting only costs matching again. The results never depend on what is remembered.
///
/// Used by one engine, on the engine's thread.
final class ScreenRuleTable {
    /// A set of rule values as the rules read them: where they lie, and which rules are on.
    struct Resolved {
        let storage: UnsafePointer<RuleValueSet>
        let enabledBits: UInt32
    }

    private let configuration: AuditConfiguration
    /// Every parameter at its largest (`ScreenValues.widest`).
    let widest: Resolved
    /// Whether some entry sets `enabled`: only then may a running rule be off at a screen, and the
    /// violations found need checking (`dropViolationsWhereOff`).
    let setsEnabled: Bool
    /// Each rule's bit, by id.
    private let bits: [String: UInt32]
    /// The values by the indices of the entries that match, each set built once and kept for the run.
    private var valuesByEntries: [[Int]: RuleValues] = [:]
    private var resolvedByScreen: [String: Resolved] = [:]
    private var latestScreen: String
    private var latest: Resolved
    private let keep: [RuleValues]

    static let screenLimit = 4096

    init(configuration: AuditConfiguration) {
        self.configuration = configuration
        let widestValues = RuleValues(configuration: configuration.widest)
        widest = Resolved(storage: UnsafePointer(widestValues.storage), enabledBits: widestValues.enabledBits)
        keep = [widestValues]
        setsEnabled = configuration.overridesEnabling
        var bits: [String: UInt32] = [:]
        for (index, description) in RuleRegistry.descriptions.enumerated() { bits[description.identifier] = 1 << UInt32(index) }
        self.bits = bits
        latestScreen = ""
        latest = widest
        latest = resolve("")
    }

    /// The rule values where a violation would record `screen`.
    @inline(__always)
    func values(at screen: String) -> Resolved {
        if screen == latestScreen { return latest }
        return lookUp(screen)
    }

    @inline(never)
    private func lookUp(_ screen: String) -> Resolved {
        let found = resolvedByScreen[screen] ?? resolve(screen)
        latestScreen = screen
        latest = found
        return found
    }

    private func resolve(_ screen: String) -> Resolved {
        let entries = configuration.overrides.indices.filter { configuration.overrides[$0].matches(screen: screen) }
        let values: RuleValues
        if let known = valuesByEntries[entries] {
            values = known
        } else {
            values = RuleValues(configuration: configuration.resolved(applying: entries))
            valuesByEntries[entries] = values
        }
        let resolved = Resolved(storage: UnsafePointer(values.storage), enabledBits: values.enabledBits)
        if resolvedByScreen.count >= Self.screenLimit { resolvedByScreen.removeAll(keepingCapacity: true) }
        resolvedByScreen[screen] = resolved
        return resolved
    }

    /// Removes the violations from `start` on whose rule is off at the screen they record: `enabled:
    /// false` in an entry silences the rule at its screens only, and a rule turned on by an entry
    /// reports only at the entry's screens.
    func dropViolationsWhereOff(_ violations: inout [Violation], from start: Int) {
        var index = start
        while index < violations.count {
            let violation = violations[index]
            if values(at: violation.screen).enabledBits & (bits[violation.rule] ?? 0) == 0 {
                violations.remove(at: index)
            } else {
                index += 1
            }
        }
    }
}
