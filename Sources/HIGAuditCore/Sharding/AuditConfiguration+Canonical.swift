extension AuditConfiguration {
    /// Every setting that decides a run's results, as one line of text: the engine's time bounds, then
    /// each rule of the registry with whether it runs, its severity and every parameter's value (defaults
    /// resolved). Two configurations give the same tables exactly when their texts are equal, so that
    /// partial stores made with different rules are told apart before they are merged. `idle_runs` is
    /// left out: a partial store closes every session at its end. `max_pending_events` is named only
    /// when it is not the default, and override entries follow, in order, only when there are some, so
    /// that the text of every configuration that existed before them is unchanged.
    public var canonicalText: String {
        var parts = ["max_lateness_ms=\(maxLatenessMs)", "session_gap_ms=\(sessionGapMs)"]
        if maxPendingEvents != Self.defaultMaxPendingEvents { parts.append("max_pending_events=\(maxPendingEvents)") }
        for description in RuleRegistry.descriptions {
            var rule = "\(description.identifier):\(isEnabled(description) ? "on" : "off"):\(description.severity.rawValue)"
            for parameter in description.parameters {
                rule += ",\(parameter.name)=\(value(of: parameter, for: description))"
            }
            parts.append(rule)
        }
        for entry in overrides {
            var text = "override:" + entry.screens.map(\.pattern.debugDescription).joined(separator: ",")
            for (rule, settings) in entry.rules.sorted(by: { $0.key < $1.key }) {
                text += "|\(rule)"
                if let enabled = settings.enabled { text += ":\(enabled ? "on" : "off")" }
                for (name, value) in settings.parameters.sorted(by: { $0.key < $1.key }) { text += ",\(name)=\(value)" }
            }
            parts.append(text)
        }
        return parts.joined(separator: ";")
    }
}
