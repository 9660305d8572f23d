import HIGAuditCore

/// The dashboard of one `analyze` run: the tables `analyze` prints, with no nights to trend over and
/// no store to run `compare` on (the page says so). Percents of sessions affected are the `by_version` and
/// `summary` counts put as `query` puts them (`FixedDecimal.ratio`, scale 100: percent).
public enum RunDashboard {
    public static func model(
        _ accumulator: AnalysisAccumulator, ingest: IngestStatistics, sources: SourceFileTable, source: String,
        generatedAt: Int64, csvLink: String? = nil, accepted: AcceptedFindings? = nil
    ) -> DashboardModel {
        let summary = accumulator.summaryTable().materializedRows
        let rules = summary.map { (rule: $0[0].plainText, severity: $0[1].plainText) }
        let catalogue = rules.compactMap { RuleDescription.registered($0.rule) }.map(CatalogueEntry.init)
        let overview = summary.map { row in
            RuleOverview(
                rule: row[0].plainText, severity: row[1].plainText, overall: rate(row[3], row[4]),
                lastNight: nil, last7: nil, last30: nil, trend: [])
        }
        // Not a rule's `sessions_total`: that of a rule needing every touch leaves some sessions out.
        let sessions = String(accumulator.sessionsTotal)
        return DashboardModel(
            source: source, generatedAt: TimestampFormatter.rfc3339(generatedAt), hasHistory: false,
            isEmpty: ingest.sessions == 0 && (sessions == "0"), lastDay: nil, overview: overview, trendDays: [],
            releases: releases(accumulator.byVersionTable(), rules: rules.map(\.rule)),
            worstScreens: worstScreens(accumulator.byScreenTable(), rules: rules.map(\.rule)),
            examples: examples(accumulator.violationsTable(sources: sources), rules: rules.map(\.rule)),
            examplesPerRule: StoreDashboard.examplesPerRule,
            health: [NightHealth(label: "this run", finished: "", statistics: ingest)], catalogue: catalogue,
            csvLink: csvLink,
            screens: WorstScreen.rows(of: accumulator.worstScreensTable(limit: StoreDashboard.worstScreens)),
            accepted: accepted)
    }

    static func rate(_ affected: TableCell, _ total: TableCell) -> Rate {
        guard case .integer(let a) = affected, case .integer(let t) = total else {
            return Rate(affected: affected.plainText, total: total.plainText, percent: "")
        }
        return Rate(affected: String(a), total: String(t), percent: FixedDecimal.ratio(a, t, scale: 100).description)
    }

    /// `by_version`'s counts per version and rule; no verdicts without a store.
    static func releases(_ table: Table, rules: [String]) -> Releases {
        var versions: [String] = []
        var byKey: [[String]: Rate] = [:]
        for row in table.rows {
            let version = row[0].plainText
            if versions.last != version { versions.append(version) }
            byKey[[version, row[1].plainText]] = rate(row[4], row[5])
        }
        let (shown, older) = Releases.newest(versions)
        return Releases(
            versions: shown, rates: rules.map { rule in (rule, shown.map { byKey[[$0, rule]] }) }, comparisons: [],
            olderVersions: older)
    }

    /// `by_screen`'s rows, each rule's screens with the most sessions affected first.
    static func worstScreens(_ table: Table, rules: [String]) -> [RuleScreens] {
        var byRule: [String: [ScreenCount]] = [:]
        for row in table.rows {
            byRule[row[1].plainText, default: []].append(
                ScreenCount(screen: row[0].plainText, violations: row[3].plainText, sessionsAffected: row[4].plainText))
        }
        return RuleScreens.worst(byRule, rules: rules, count: StoreDashboard.screensPerRule)
    }

    /// The latest violations of each rule by `start_ts` (ties: the later row of the SPEC order).
    static func examples(_ table: Table, rules: [String]) -> [RuleExamples] {
        var latest: [String: [(ts: Int64, index: Int)]] = [:]
        var totals: [String: Int64] = [:]
        let limit = StoreDashboard.examplesPerRule
        for index in 0..<table.rowCount {
            let row = table.row(index)
            guard case .timestamp(let ts) = row[6] else { continue }
            let rule = row[0].plainText
            totals[rule, default: 0] += 1
            var kept = latest[rule, default: []]
            kept.append((ts, index))
            if kept.count > limit * 4 {
                kept.sort { ($0.ts, $0.index) > ($1.ts, $1.index) }
                kept.removeLast(kept.count - limit)
            }
            latest[rule] = kept
        }
        return rules.compactMap { rule in
            guard let kept = latest[rule], let total = totals[rule] else { return nil }
            let chosen = kept.sorted { ($0.ts, $0.index) > ($1.ts, $1.index) }.prefix(limit)
            let examples = chosen.map { entry in
                let row = table.row(entry.index)
                return Example(
                    session: row[2].plainText, device: row[3].plainText, appVersion: row[4].plainText,
                    screen: row[5].plainText, time: row[6].plainText, detail: row[9].plainText, source: row[10].plainText)
            }
            return RuleExamples(rule: rule, total: total, violations: Array(examples))
        }
    }
}

extension RuleDescription {
    static func registered(_ identifier: String) -> RuleDescription? { RuleRegistry.description(of: identifier) }
}
