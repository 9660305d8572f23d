/// One set of configured rule values: every registered rule's value, one stored property per rule,
/// named as its state is in `RuleStates` (`RuleRegistryTests` checks both lists). The compiler lays
/// it out; a visitor reaches the value of the rule it is handed through the key path `visitAll`
/// passes with it, and `ScreenValues` the same rule's value in another set through that property's
/// offset.
///
/// A run has one set (its ordinary values), plus one per combination of matching override entries
/// (`ScreenRuleTable`), each in one allocation of its own (`RuleValues`).
struct RuleValueSet {
    let destructiveDoubleTap: DestructiveDoubleTapRule
    let earlyRatingPrompt: EarlyRatingPromptRule
    let forcedTabSwitch: ForcedTabSwitchRule
    let hapticDuringCapture: HapticDuringCaptureRule
    let hapticMismatch: HapticMismatchRule
    let hapticOveruse: HapticOveruseRule
    let hapticWhenDisabled: HapticWhenDisabledRule
    let loadingWithoutIndicator: LoadingWithoutIndicatorRule
    let modalDepth: ModalDepthRule
    let modalOverPopover: ModalOverPopoverRule
    let pencilPreferenceIgnored: PencilPreferenceIgnoredRule
    let slowLaunch: SlowLaunchRule
    let tabStateLost: TabStateLostRule
    let unpromptedPermissionRequest: UnpromptedPermissionRequestRule
    let widgetPlaceholder: WidgetPlaceholderRule

    init(configuration: AuditConfiguration) {
        destructiveDoubleTap = DestructiveDoubleTapRule(configuration: configuration)
        earlyRatingPrompt = EarlyRatingPromptRule(configuration: configuration)
        forcedTabSwitch = ForcedTabSwitchRule(configuration: configuration)
        hapticDuringCapture = HapticDuringCaptureRule(configuration: configuration)
        hapticMismatch = HapticMismatchRule(configuration: configuration)
        hapticOveruse = HapticOveruseRule(configuration: configuration)
        hapticWhenDisabled = HapticWhenDisabledRule(configuration: configuration)
        loadingWithoutIndicator = LoadingWithoutIndicatorRule(configuration: configuration)
        modalDepth = ModalDepthRule(configuration: configuration)
        modalOverPopover = ModalOverPopoverRule(configuration: configuration)
        pencilPreferenceIgnored = PencilPreferenceIgnoredRule(configuration: configuration)
        slowLaunch = SlowLaunchRule(configuration: configuration)
        tabStateLost = TabStateLostRule(configuration: configuration)
        unpromptedPermissionRequest = UnpromptedPermissionRequestRule(configuration: configuration)
        widgetPlaceholder = WidgetPlaceholderRule(configuration: configuration)
    }

    /// Where `value` lies in every set. Every rule value is a stored property, so the offset exists;
    /// for the literal key paths of `visitAll` the compiler folds it to a constant.
    @inline(__always)
    static func offset<Rule>(of value: KeyPath<RuleValueSet, Rule>) -> Int {
        MemoryLayout<RuleValueSet>.offset(of: value)!
    }
}

/// One set of configured rule values (a run's ordinary ones, or those at some screens) in one
/// allocation that does not move, so that the per-event path reads them through a plain pointer;
/// immutable once built (hence `@unchecked Sendable`).
final class RuleValues: @unchecked Sendable {
    let storage: UnsafeMutablePointer<RuleValueSet>
    /// One bit per rule enabled by this set's configuration, by visiting position.
    let enabledBits: UInt32

    init(configuration: AuditConfiguration) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: RuleValueSet(configuration: configuration))
        var survey = EnabledSurvey(configuration: configuration)
        var states = RuleStates()
        states.visitAll(&survey)
        enabledBits = survey.enabledBits
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    private struct EnabledSurvey: RuleVisitor {
        let configuration: AuditConfiguration
        var slot = 0
        var enabledBits: UInt32 = 0

        mutating func visit<Rule: SessionRule>(
            _ rule: Rule.Type, state: inout Rule.State, value: KeyPath<RuleValueSet, Rule>, event: borrowing Event,
            session: inout SessionContext
        ) {
            if configuration.isEnabled(Rule.description) { enabledBits |= 1 << UInt32(slot) }
            slot += 1
        }
    }
}
