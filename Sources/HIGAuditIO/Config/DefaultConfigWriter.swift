import HIGAuditCore

/// Writes a complete config file with every setting at its default, each explained in a comment, for a
/// user to start from (`hig-audit rules --defaults`).
///
/// Every rule gets its name, default severity, summary and the guideline it enforces (in a sentence, and
/// the Apple Human Interface Guidelines page that states it), and every parameter its summary and minimum, so the file documents itself. Loading the
/// output back gives the defaults exactly (tested): the `exclude:`, `overrides:` and `import:` examples
/// at the end are commented out.
public enum DefaultConfigWriter {
    public static func render(rules: [RuleDescription]) -> String {
        var lines = [
            "# hig-audit configuration.",
            "#",
            "# Every setting is shown at its default. Delete what you keep as is, change what you need.",
            "# Times are whole milliseconds; `_` may group digits (1_800_000). A value below a setting's",
            "# minimum, an unknown key or a value of the wrong type is refused with its line number.",
            "",
            "# How far out of order a session's events may arrive. An event older than the newest of its",
            "# session minus this is counted as late and left out. Minimum 0.",
            "max_lateness_ms: \(AuditConfiguration.defaultMaxLatenessMs)",
            "",
            "# The most events one session holds waiting to be put in order. Past it the earliest goes to",
            "# the rules at once (a warning names the session), and a later event older than one gone",
            "# early is late. Only a broken or hostile writer reaches it. Minimum 1.",
            "max_pending_events: \(AuditConfiguration.defaultMaxPendingEvents)",
            "",
            "# Silence after which an open session is closed, measured on its device's clock (the time of",
            "# the device's latest event read). Minimum 1.",
            "session_gap_ms: \(AuditConfiguration.defaultSessionGapMs)",
            "",
            "# nightly only: a session left open whose device sends nothing for this many runs in a row",
            "# closes at the end of the last of them. Minimum 1.",
            "idle_runs: \(AuditConfiguration.defaultIdleRuns)",
            "",
        ]
        let sorted = rules.sorted { $0.identifier < $1.identifier }
        guard !sorted.isEmpty else {
            return (lines + ["rules: {}", ""] + exclusionExample(rules: sorted) + [""] + overrideExample(rules: sorted) + [""]
                + importExample + [""]).joined(separator: "\n")
        }
        lines.append("# One entry per rule: `enabled: false` turns a rule off; the other keys are its parameters.")
        lines.append("rules:")
        for (index, rule) in sorted.enumerated() {
            if index > 0 { lines.append("") }
            lines += comment("\(rule.name) (default severity: \(rule.severity.rawValue)).", indent: 2)
            lines += comment(rule.summary, indent: 2)
            lines += comment("Guideline: \(rule.citation.guideline)", indent: 2)
            lines += comment("Apple HIG, \(rule.citation.page.title): \(rule.citation.page.url)", indent: 2)
            lines.append("  \(key(rule.identifier)):")
            lines.append("    enabled: true")
            for parameter in rule.parameters {
                lines += comment("\(parameter.summary) Minimum \(parameter.minimum).", indent: 4)
                lines.append("    \(key(parameter.name)): \(parameter.defaultValue)")
            }
        }
        return (lines + [""] + exclusionExample(rules: sorted) + [""] + overrideExample(rules: sorted) + [""] + importExample + [""])
            .joined(separator: "\n")
    }

    /// A commented-out `import:` section (SPEC §7, docs/importing.md): uncommented, it is valid (tested).
    /// Its settings have no value of their own to show: no screen is a tab root until named, and each
    /// format has its own touch coverage.
    static let importExample = [
        "# Reading other tools' exports (--from posthog|datadog-rum|otlp, docs/importing.md). tab_roots:",
        "# the screens that are the roots of tabs (patterns as above), whose screen views are tab switches;",
        "# none by default. touches: all, sampled or none, the coverage of the sessions imported; by",
        "# default the format's own (sampled: SDKs capture only some touches).",
        "# import:",
        "#   tab_roots: [Library, Search, \"Settings*\"]",
        "#   touches: sampled",
    ]

    /// A commented-out `overrides:` entry: uncommented, it is valid for these rules (tested). It raises
    /// the first parameter of `haptic-overuse` (or of the first rule that has one) and turns off a rule.
    private static func overrideExample(rules: [RuleDescription]) -> [String] {
        var lines = [
            "# Per-screen settings: where a violation would be recorded on a matching screen, the event is",
            "# judged with these values instead (a drawing canvas where a burst of haptics is the point). Any",
            "# setting of `rules:` may appear; for each, the last matching entry that sets it wins, and",
            "# `enabled: false` turns the rule off on those screens only. Screens are patterns as above.",
            "# overrides:",
            "#   - screens: [\"Canvas/*\"]",
            "#     rules:",
        ]
        let tuned = rules.first { $0.identifier == "haptic-overuse" && !$0.parameters.isEmpty }
            ?? rules.first { !$0.parameters.isEmpty }
        if let tuned, let parameter = tuned.parameters.first {
            lines.append("#       \(key(tuned.identifier)):")
            lines.append("#         \(key(parameter.name)): \(max(parameter.defaultValue, parameter.minimum) * 2 + 1)")
        }
        if let silenced = rules.first(where: { $0.identifier != tuned?.identifier }) ?? rules.first {
            lines.append("#       \(key(silenced.identifier)):")
            lines.append("#         enabled: false")
        }
        return lines
    }

    /// A commented-out `exclude:` entry: uncommented, it is valid for these rules (tested).
    private static func exclusionExample(rules: [RuleDescription]) -> [String] {
        let rule = rules.first { $0.identifier == "haptic-overuse" } ?? rules.first
        return [
            "# Accepted findings: violations a team knows about and keeps on purpose. A matching violation is",
            "# suppressed: it counts in no table but summary's `suppressed` column (`analyze --show-suppressed`",
            "# lists it). An entry matches a violation when its rule is listed (\"*\": every rule) and each list",
            "# it gives matches: screens are whole-screen patterns (* any run of characters, / included; ? one",
            "# character), app_versions whole-component prefixes (5.2 is 5.2.1, not 5.20). `reason` is",
            "# required; after the `until` day (UTC, optional) the entry no longer applies and each run says so.",
            "# exclude:",
            "#   - rules: [\(rule.map { key($0.identifier) } ?? "\"*\"")]",
            "#     screens: [\"Canvas/*\"]",
            "#     app_versions: [\"5.2\"]",
            "#     reason: the drawing canvas plays haptics on purpose",
            "#     until: 2026-12-31",
        ]
    }

    /// Text as comment lines; line breaks and control characters cannot escape the comment.
    private static func comment(_ text: String, indent: Int) -> [String] {
        let prefix = String(repeating: " ", count: indent) + "#"
        return text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map { line in
            let clean = String(line.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
            return clean.isEmpty ? prefix : prefix + " " + clean
        }
    }

    /// A mapping key, double-quoted unless it is a plain identifier.
    private static func key(_ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
        } && name.first != "-" && name.first != "."
        guard !plain else { return name }
        var quoted = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}
