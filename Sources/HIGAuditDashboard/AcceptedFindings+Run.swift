import Foundation
import HIGAuditCore

extension AcceptedFindings {
    /// The section for one `analyze` run, as `dashboard` gives it for a store: the rules' suppressed
    /// violations from the run's `summary`, its new violations against `baseline` (counted from
    /// `by_screen`, as `--baseline` counts them in `summary`), and the config's `exclude:` entries as
    /// judged on `today`. Nil without entries and without a baseline, so that the page of a run with
    /// neither is as it was.
    public static func ofRun(
        summary: HIGAuditCore.Table, byScreen: HIGAuditCore.Table, exclusions: [Exclusion], today: CalendarDay,
        baseline: (baseline: Baseline, path: String)?
    ) -> AcceptedFindings? {
        guard baseline != nil || !exclusions.isEmpty else { return nil }
        let suppressedColumn = summary.columns.firstIndex { $0.name == "suppressed" }
        let new = baseline?.baseline.newViolationsByRule(byScreen: byScreen) ?? [:]
        let rules = summary.materializedRows.compactMap { row -> AcceptedRule? in
            let rule = row[0].plainText
            var suppressed: Int64 = 0
            if let column = suppressedColumn, case .integer(let count) = row[column] { suppressed = count }
            let newCount = new[rule] ?? 0
            guard suppressed > 0 || newCount > 0 else { return nil }
            return AcceptedRule(rule: rule, suppressed: suppressed, new: baseline == nil ? nil : newCount)
        }
        let entries = exclusions.map { entry in
            AcceptedExclusion(
                location: entry.location, rules: entry.rules.map { listText($0.sorted()) } ?? "*",
                screens: entry.screens.map { listText($0.map(\.pattern)) } ?? "*",
                appVersions: entry.appVersions.map(listText) ?? "*", until: entry.until?.description,
                inForce: entry.applies(on: today), reason: entry.reason)
        }
        return AcceptedFindings(
            rules: rules, exclusions: entries, exclusionsRun: nil, baseline: baseline?.path,
            baselinePairs: baseline?.baseline.pairs.count ?? 0)
    }

    /// A list as the store's `run_exclusions` shows it: a JSON array of strings.
    static func listText(_ values: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
