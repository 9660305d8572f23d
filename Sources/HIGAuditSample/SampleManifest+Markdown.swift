/// Human-readable renderings of the manifest: the README's tables and the CLI's summary.
extension SampleManifest {
    /// One line of totals, then planted violations per rule and version.
    public func summary() -> String {
        var text = "\(sessions) sessions on \(devices) devices, \(events) events, \(lines) lines in \(files) files "
        text += "(\(frames) frames, \(uncompressedBytes) bytes, \(compressedBytes) compressed)\n"
        text += "planted violations per rule (" + versions.map(\.version).joined(separator: " / ") + "):\n"
        // The counts start in one column, two spaces past the longest rule id.
        let countsColumn = (sampleRuleIDs.map(\.count).max() ?? 0) + 2
        for rule in sampleRuleIDs {
            let counts = versions.map { String($0.violations(rule: rule)) }.joined(separator: " / ")
            text += "  " + rule.padding(toLength: countsColumn) + counts + "\n"
        }
        if noise != NoiseCounts() {
            text += "noise: \(noise.reorderedEvents) reordered, \(noise.duplicateEvents) duplicate, "
            text += "\(noise.lateEvents) late, \(noise.malformedLines) malformed, \(noise.unknownTypeEvents) unknown-type, "
            text += "\(noise.blankLines) blank lines; \(noise.framesEndingMidLine) frames end mid-line, "
            text += "\(noise.skippableFrames) skippable frames, \(noise.crlfFiles) CRLF files\n"
        }
        return text
    }

    /// The per-version injection table (rates from `AppVersionBehaviour`, counts from this run).
    public func plantedProblemsMarkdown() -> String {
        var text = "| problem | rule | opportunity |"
        for tally in versions { text += " \(tally.version) rate | \(tally.version) planted / opportunities |" }
        text += "\n|---|---|---|" + String(repeating: "---:|---:|", count: versions.count) + "\n"
        for problem in InjectedProblem.allCases {
            text += "| \(problem.name) | `\(problem.ruleID)` | \(problem.opportunity) |"
            for tally in versions {
                let rate = AppVersionBehaviour.releases.first { $0.version == tally.version }?.rate(problem) ?? 0
                text += " \(percent(rate)) | \(tally.injections(problem)) / \(tally.opportunities(problem)) |"
            }
            text += "\n"
        }
        return text
    }

    /// What `hig-audit analyze` must report per rule and version: violations, and in how many of the
    /// version's sessions (the `by_version` table's numbers).
    public func expectedViolationsMarkdown() -> String {
        var text = "| rule |"
        for tally in versions { text += " \(tally.version) (\(tally.sessions) sessions) |" }
        text += "\n|---|" + String(repeating: "---:|", count: versions.count) + "\n"
        for rule in sampleRuleIDs {
            text += "| `\(rule)` |"
            for tally in versions {
                let violations = tally.violations(rule: rule)
                let affected = tally.sessionsAffected(rule: rule)
                let share = tally.sessions > 0 ? Double(affected) / Double(tally.sessions) : 0
                let sessions = affected == 1 ? "session" : "sessions"
                text += violations == 0 ? " 0 |" : " \(violations) in \(affected) \(sessions) (\(percent(share))) |"
            }
            text += "\n"
        }
        return text
    }

    private func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1_000).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) %" : "\(tenths / 10).\(tenths % 10) %"
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
