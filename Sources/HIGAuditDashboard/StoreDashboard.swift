import GRDB
import HIGAuditCore
import HIGAuditStore

/// The dashboard of a results store. Every rate is a row of `StoreQuery.grouped` (what `query
/// --group-by` prints) and every verdict a row of `ReleaseComparison.table` (what `compare` prints),
/// read from one snapshot (on two connections: `ResultsStore.read(_:alongside:)`); nothing here
/// computes a statistic of its own.
public enum StoreDashboard {
    /// How many trend points a rule's chart shows at most: the nights of the longest window. Each day
    /// more costs a share of a full pass over the violations (a `COUNT(DISTINCT session)` per day).
    public static let trendDays = 30
    /// How many runs the input-health table lists (the latest).
    public static let healthRuns = 90
    /// Few, so the page stays short: every violation is in the CSV export.
    public static let examplesPerRule = 3
    public static let screensPerRule = 5
    /// How many screens the overall worst-screens table lists, as the CLI's `worst_screens`.
    public static let worstScreens = 10

    /// `baseline` (`--baseline`) adds each rule's new violations to the "Accepted findings" section.
    public static func model(
        _ store: ResultsStore, source: String, generatedAt: Int64, csvLink: String? = nil, baseline: Baseline? = nil,
        baselinePath: String? = nil
    ) throws -> DashboardModel {
        // Two halves of about equal cost, each a few passes over the violations, on two connections.
        let (history, breakdowns) = try store.read(
            { db in try Self.history(db) },
            alongside: { db in try Self.breakdowns(db, baseline: baseline.map { ($0, baselinePath ?? "") }) })
        let catalogue = history.rules.compactMap { RuleRegistry.description(of: $0.rule) }.map(CatalogueEntry.init)
        guard let lastMidnight = history.lastMidnight else {
            return DashboardModel(
                source: source, generatedAt: TimestampFormatter.rfc3339(generatedAt), hasHistory: true, isEmpty: true,
                lastDay: nil, overview: [], trendDays: [], releases: .none, worstScreens: [], examples: [],
                examplesPerRule: examplesPerRule, health: breakdowns.health, catalogue: catalogue, csvLink: csvLink,
                accepted: breakdowns.accepted)
        }
        return DashboardModel(
            source: source, generatedAt: TimestampFormatter.rfc3339(generatedAt), hasHistory: true, isEmpty: false,
            lastDay: DayArithmetic.day(lastMidnight), overview: history.overview, trendDays: history.trendDays,
            releases: breakdowns.releases, worstScreens: breakdowns.worstScreens, examples: breakdowns.examples,
            examplesPerRule: examplesPerRule, health: breakdowns.health, catalogue: catalogue, csvLink: csvLink,
            screens: breakdowns.screens, accepted: breakdowns.accepted)
    }

    /// Each rule's rates overall, last night and over the last 7 and 30 nights, and its trend.
    struct History {
        var rules: [(rule: String, severity: String)]
        var lastMidnight: Int64?
        var overview: [RuleOverview] = []
        var trendDays: [String] = []
    }

    static func history(_ db: Database) throws -> History {
        let rules = try rulesWithSeverity(db)
        guard let lastMidnight = try lastNight(db) else { return History(rules: rules, lastMidnight: nil) }
        let overall = try rates(db, selection: .everything)
        let lastNight = try rates(db, days: 1, endingAt: lastMidnight)
        let last7 = try rates(db, days: 7, endingAt: lastMidnight)
        let last30 = try rates(db, days: 30, endingAt: lastMidnight)
        let (days, trend) = try trend(db, endingAt: lastMidnight)
        let overview = rules.map { rule, severity in
            RuleOverview(
                rule: rule, severity: severity,
                overall: overall[rule] ?? Rate(affected: "0", total: "0", percent: "0.00"),
                lastNight: lastNight[rule], last7: last7[rule], last30: last30[rule],
                trend: days.map { trend[[$0, rule]] })
        }
        return History(rules: rules, lastMidnight: lastMidnight, overview: overview, trendDays: days)
    }

    /// Releases, worst screens, examples and input health.
    struct Breakdowns: Sendable {
        var releases: Releases
        var screens: [WorstScreen]
        var worstScreens: [RuleScreens]
        var examples: [RuleExamples]
        var health: [NightHealth]
        var accepted: AcceptedFindings?
    }

    static func breakdowns(_ db: Database, baseline: (Baseline, path: String)? = nil) throws -> Breakdowns {
        let rules = try rulesWithSeverity(db).map(\.rule)
        // Suppressed violations (migration v3) count nowhere on the page but in "Accepted findings".
        let counted = try RecordedJudgements.areRecorded(db) ? "WHERE suppressed = 0" : ""
        let violationCounts = try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT rule, COUNT(*) FROM violations \(counted) GROUP BY rule")
                .map { ($0[0] as String, $0[1] as Int64) })
        let byRuleAndScreen = try StoreQuery.grouped(db, by: [.rule, .screen], selection: .everything)
        return Breakdowns(
            releases: try releases(db, rules: rules),
            screens: try screens(db, rules: rules, byRuleAndScreen: byRuleAndScreen),
            worstScreens: worstScreens(byRuleAndScreen, rules: rules),
            examples: try examples(db, rules: rules, counts: violationCounts, onlyCounted: !counted.isEmpty), health: try health(db),
            accepted: try accepted(db, rules: rules, byRuleAndScreen: byRuleAndScreen, baseline: baseline))
    }

    /// The "Accepted findings" section: suppressed violations per rule over the whole store, the
    /// latest run's `exclude:` entries with their reasons, and with a baseline the new violations per
    /// rule (from `query --group-by rule,screen`, as `query --baseline` counts them). Nil when no run
    /// had entries and no baseline is given.
    static func accepted(
        _ db: Database, rules: [String], byRuleAndScreen: HIGAuditCore.Table, baseline: (Baseline, path: String)?
    ) throws -> AcceptedFindings? {
        let entries = try RecordedJudgements.entries(db, runs: [])
        guard baseline != nil || !entries.isEmpty else { return nil }
        let suppressed = try RecordedJudgements.suppressedByRule(db)
        var new: [String: Int64] = [:]
        if let (baseline, _) = baseline {
            for row in byRuleAndScreen.rows {
                guard case .integer(let violations) = row[2], baseline.isNew(rule: row[0].plainText, screen: row[1].plainText) else { continue }
                new[row[0].plainText, default: 0] += violations
            }
        }
        let shown = rules.compactMap { rule -> AcceptedRule? in
            let suppressedCount = suppressed[rule] ?? 0
            let newCount = new[rule] ?? 0
            guard suppressedCount > 0 || newCount > 0 else { return nil }
            return AcceptedRule(rule: rule, suppressed: suppressedCount, new: baseline == nil ? nil : newCount)
        }
        let latestRun = entries.first?.runID
        let latest = entries.filter { $0.runID == latestRun }.map {
            AcceptedExclusion(
                location: $0.location, rules: $0.rules, screens: $0.screens, appVersions: $0.appVersions, until: $0.until,
                inForce: $0.inForce, reason: $0.reason)
        }
        return AcceptedFindings(
            rules: shown, exclusions: latest, exclusionsRun: latestRun, baseline: baseline?.path,
            baselinePairs: baseline?.0.pairs.count ?? 0)
    }

    /// The midnight (UTC) of "last night": the day on which most of the sessions closed by the latest
    /// run that closed any started (the latest day among equals). A run at 02:30 closes yesterday's
    /// sessions and a few of today's first minutes; a backfill closes its whole range at once, and its
    /// last night is then its busiest day, not the few minutes past its last midnight. Nil without sessions.
    static func lastNight(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT first_ts / 86400000 * 86400000 AS midnight FROM sessions
                WHERE run_id = (SELECT MAX(run_id) FROM sessions)
                GROUP BY midnight ORDER BY COUNT(*) DESC, midnight DESC LIMIT 1
                """)
    }

    static func rulesWithSeverity(_ db: Database) throws -> [(rule: String, severity: String)] {
        try Row.fetchAll(db, sql: "SELECT rule, severity FROM rules ORDER BY rule").map { ($0["rule"], $0["severity"]) }
    }

    /// `query --group-by rule --since (midnight − days + 1) --until (midnight + 1 day)`.
    static func rates(_ db: Database, days: Int64, endingAt midnight: Int64) throws -> [String: Rate] {
        let since = midnight - (days - 1) * ComparisonSide.dayMs
        let selection = StoreSelection(filter: TableFilter(since: since, until: midnight + ComparisonSide.dayMs))
        return try rates(db, selection: selection)
    }

    static func rates(_ db: Database, selection: StoreSelection) throws -> [String: Rate] {
        let table = try StoreQuery.grouped(db, by: [.rule], selection: selection)
        var rates: [String: Rate] = [:]
        for row in table.rows { rates[row[0].plainText] = Rate(row, from: 2) }
        return rates
    }

    /// `query --group-by day --group-by rule` over the last `trendDays` days: per (day, rule).
    static func trend(_ db: Database, endingAt midnight: Int64) throws -> (days: [String], rates: [[String]: Rate]) {
        let since = midnight - Int64(trendDays - 1) * ComparisonSide.dayMs
        let selection = StoreSelection(filter: TableFilter(since: since, until: midnight + ComparisonSide.dayMs))
        let table = try StoreQuery.grouped(db, by: [.day, .rule], selection: selection)
        var rates: [[String]: Rate] = [:]
        var days: [String] = []
        for row in table.rows {
            let day = row[0].plainText
            if days.last != day { days.append(day) }
            rates[[day, row[1].plainText]] = Rate(row, from: 3)
        }
        return (days, rates)
    }

    /// `query --group-by app_version --group-by rule`, and `compare --base A --head B` for each two
    /// consecutive versions (sessions without a version left out of the comparisons), each side
    /// counted from the same grouping (`VersionCounts`).
    static func releases(_ db: Database, rules: [String]) throws -> Releases {
        let table = try StoreQuery.grouped(db, by: [.appVersion, .rule], selection: .everything)
        var versions: [String] = []
        var byKey: [[String]: Rate] = [:]
        for row in table.rows {
            let version = row[0].plainText
            if versions.last != version { versions.append(version) }
            byKey[[version, row[1].plainText]] = Rate(row, from: 3)
        }
        let (shown, older) = Releases.newest(versions)
        versions = shown
        let rates = rules.map { rule in (rule: rule, byVersion: versions.map { byKey[[$0, rule]] }) }
        let named = versions.filter { !$0.isEmpty }
        let counts = VersionCounts(grouped: table)
        let sides = Dictionary(uniqueKeysWithValues: named.map { ($0, counts.side($0)) })
        var comparisons: [Comparison] = []
        for (base, head) in zip(named, named.dropFirst()) {
            let compared = ReleaseComparison.table(rules: rules, base: sides[base]!, head: sides[head]!)
            comparisons += compared.rows.map { Comparison(base: base, head: head, row: $0, columns: compared) }
        }
        let order = ["worse": 0, "better": 1, "noise": 2]
        comparisons = comparisons.enumerated().sorted { a, b in
            let x = order[a.element.verdict] ?? 3, y = order[b.element.verdict] ?? 3
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        return Releases(versions: versions, rates: rates, comparisons: comparisons, olderVersions: older)
    }

    /// The `worst_screens` table of `query`, from `query --group-by screen` (violations and sessions
    /// affected over all rules) and `--group-by rule,screen` (each screen's rule with the most
    /// violations; of equals, the first in rule-id order): the screens with the most violations, ties
    /// by screen name, as `AnalysisAccumulator.worstScreensTable` orders them.
    static func screens(_ db: Database, rules: [String], byRuleAndScreen: HIGAuditCore.Table) throws -> [WorstScreen] {
        let byScreen = try StoreQuery.grouped(db, by: [.screen], selection: .everything)
        var top: [String: (rule: String, violations: Int64)] = [:]
        let order = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        for row in byRuleAndScreen.rows {
            guard case .integer(let violations) = row[2], violations > 0 else { continue }
            let rule = row[0].plainText, screen = row[1].plainText
            if let current = top[screen] {
                let better = violations > current.violations
                    || (violations == current.violations && (order[rule] ?? .max) < (order[current.rule] ?? .max))
                if !better { continue }
            }
            top[screen] = (rule, violations)
        }
        let rows = byScreen.rows.compactMap { row -> (screen: String, violations: Int64, affected: String)? in
            guard case .integer(let violations) = row[1] else { return nil }
            return (row[0].plainText, violations, row[2].plainText)
        }
        let worst = rows.sorted { a, b in
            a.violations != b.violations ? a.violations > b.violations : a.screen < b.screen
        }.prefix(worstScreens)
        return worst.map { screen in
            WorstScreen(
                screen: screen.screen, violations: String(screen.violations), sessionsAffected: screen.affected,
                topRule: top[screen.screen]?.rule ?? "", topRuleViolations: top[screen.screen].map { String($0.violations) } ?? "")
        }
    }

    /// `query --group-by rule --group-by screen`: each rule's screens with the most sessions affected
    /// (then violations, then screen name).
    static func worstScreens(_ table: HIGAuditCore.Table, rules: [String]) -> [RuleScreens] {
        var byRule: [String: [ScreenCount]] = [:]
        for row in table.rows {
            byRule[row[0].plainText, default: []].append(
                ScreenCount(screen: row[1].plainText, violations: row[2].plainText, sessionsAffected: row[3].plainText))
        }
        return RuleScreens.worst(byRule, rules: rules, count: screensPerRule)
    }

    /// The latest `examplesPerRule` violations of each rule (by `start_ts`, then insertion). A common
    /// rule is found fastest walking the time index back from the end; a rare one through the rule index.
    static func examples(_ db: Database, rules: [String], counts: [String: Int64], onlyCounted: Bool = false) throws -> [RuleExamples] {
        let total = counts.values.reduce(0, +)
        return try rules.compactMap { rule in
            guard let count = counts[rule], count > 0 else { return nil }
            let index = count * 50 >= total ? "violations_by_start" : "violations_by_rule"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT v.session, v.device, v.app_version, v.screen, v.start_ts, v.detail, v.source_line,
                        COALESCE(f.display_path, '?') AS path
                    FROM violations v INDEXED BY \(index) LEFT JOIN input_files f ON f.id = v.source_file
                    WHERE v.rule = ? \(onlyCounted ? "AND v.suppressed = 0" : "") ORDER BY v.start_ts DESC, v.id DESC LIMIT ?
                    """,
                arguments: [rule, examplesPerRule])
            let examples = rows.map { row in
                Example(
                    session: row["session"], device: row["device"], appVersion: row["app_version"], screen: row["screen"],
                    time: TimestampFormatter.rfc3339(row["start_ts"]), detail: row["detail"],
                    source: (row["path"] as String) + ":" + String(row["source_line"] as Int64))
            }
            return RuleExamples(rule: rule, total: count, violations: examples)
        }
    }

    /// The ingest counters of the latest `healthRuns` runs, newest first, as `query --run N --table ingest`
    /// gives them.
    static func health(_ db: Database) throws -> [NightHealth] {
        let runs = try Row.fetchAll(db, sql: "SELECT id, finished_at FROM runs ORDER BY id DESC LIMIT ?", arguments: [healthRuns])
        return try runs.map { row in
            let id: Int64 = row["id"]
            return NightHealth(
                label: "run \(id)", finished: TimestampFormatter.rfc3339(row["finished_at"]),
                statistics: try StoredTables.ingest(db, runs: [id]))
        }
    }
}

extension Rate {
    /// The `sessions_affected`, `sessions_total` and `pct_sessions_affected` cells of a `grouped` row.
    init(_ row: [TableCell], from index: Int) {
        self.init(affected: row[index].plainText, total: row[index + 1].plainText, percent: row[index + 2].plainText)
    }
}

extension Comparison {
    init(base: String, head: String, row: [TableCell], columns table: HIGAuditCore.Table) {
        func cell(_ name: String) -> String { table.columnIndex(named: name).map { row[$0].plainText } ?? "" }
        self.init(
            base: base, head: head, rule: cell("rule"), baseRate: cell("base_pct"), headRate: cell("head_pct"),
            change: cell("change_pct"), test: cell("test"), pValue: cell("p_value"), verdict: cell("verdict"))
    }
}

/// UTC days of millisecond timestamps.
enum DayArithmetic {
    static func day(_ midnight: Int64) -> String { String(TimestampFormatter.rfc3339(midnight).prefix(10)) }
}
