/// One entry of the config's `overrides:` list (SPEC §6): rule settings that apply where a violation
/// would be recorded on one of `screens`, such as a drawing canvas whose bursts of haptics are its
/// purpose.
///
/// Which entries apply is decided per screen, never per violation already found: an override changes
/// how an event is judged (a burst needs more haptics on `Canvas/*`), where an exclusion only hides
/// what was found. Entries apply in config order, so for each setting the last matching entry that
/// sets it wins.
public struct ScreenOverride: Sendable, Equatable {
    /// Whole-screen patterns (`ScreenGlob`); the entry applies where any of them matches.
    public var screens: [ScreenGlob]
    /// Settings by rule id: `enabled` and parameters, read as `rules.<id>` is.
    public var rules: [String: RuleSettings]
    /// Where the entry is written (`hig-audit.yml:12`), for people reading what a run was judged with.
    public var location: String

    public init(screens: [ScreenGlob], rules: [String: RuleSettings], location: String = "") {
        self.screens = screens
        self.rules = rules
        self.location = location
    }

    public func matches(screen: String) -> Bool {
        screens.contains { $0.matches(screen) }
    }
}

extension AuditConfiguration {
    /// The configuration an event is judged with when the violation it may source would record
    /// `screen`: the ordinary settings with every matching override entry applied in order. It has no
    /// overrides of its own.
    public func resolved(atScreen screen: String) -> AuditConfiguration {
        resolved(applying: overrides.indices.filter { overrides[$0].matches(screen: screen) })
    }

    /// The ordinary settings with the override entries at `entries` (indices, in config order) applied.
    func resolved(applying entries: [Int]) -> AuditConfiguration {
        var resolved = self
        resolved.overrides = []
        for index in entries {
            for (rule, settings) in overrides[index].rules {
                var merged = resolved.rules[rule] ?? RuleSettings()
                if let enabled = settings.enabled { merged.enabled = enabled }
                merged.parameters.merge(settings.parameters) { _, later in later }
                resolved.rules[rule] = merged
            }
        }
        return resolved
    }

    /// Every parameter at the largest value it has anywhere, ordinary or overridden: what a rule keeps
    /// history for, so that an event on any screen finds the earlier events its own values need.
    var widest: AuditConfiguration {
        var widest = self
        widest.overrides = []
        for entry in overrides {
            for (rule, settings) in entry.rules {
                var merged = widest.rules[rule] ?? RuleSettings()
                for (name, value) in settings.parameters {
                    let current = merged.parameters[name]
                        ?? RuleRegistry.description(of: rule)?.parameter(named: name)?.defaultValue ?? value
                    merged.parameters[name] = max(current, value)
                }
                widest.rules[rule] = merged
            }
        }
        return widest
    }

    /// Whether the rule runs at all: enabled, or turned on at some screens by an override entry (it
    /// then judges events everywhere, so that its history is whole, and reports only where it is on).
    public func runs(_ description: RuleDescription) -> Bool {
        isEnabled(description) || overrides.contains { $0.rules[description.identifier]?.enabled == true }
    }

    /// Whether some override entry sets `enabled`, so that a running rule may be off at some screens.
    var overridesEnabling: Bool {
        overrides.contains { entry in entry.rules.values.contains { $0.enabled != nil } }
    }
}
