import HIGAuditCore

/// Everything the dashboard page shows, as the text `query`, `compare` and `export` print for the same
/// numbers: the page is a rendering of this value and nothing else, so that its numbers can be checked
/// against the commands' (and the renderer stays a pure function of it).
public struct DashboardModel: Sendable, Equatable {
    /// What the page was made from, said in its header ("the store results.sqlite", "one analyze run").
    public var source: String
    /// When the numbers were read (RFC 3339), so that a stale page says so.
    public var generatedAt: String
    /// False for `analyze --dashboard`: one run has no nights to trend or releases to compare over time.
    public var hasHistory: Bool
    /// True when there is no session at all: the page says there is no data yet.
    public var isEmpty: Bool
    /// The latest UTC day a stored session started on ("last night"); nil without history.
    public var lastDay: String?
    public var overview: [RuleOverview]
    /// The days of the trend charts, oldest first (`YYYY-MM-DD`).
    public var trendDays: [String]
    public var releases: Releases
    /// The screens with the most violations over all rules, as the CLI's `worst_screens` table has them.
    public var screens: [WorstScreen]
    public var worstScreens: [RuleScreens]
    public var examples: [RuleExamples]
    /// How many examples each rule shows at most; the rest is in the CSV export.
    public var examplesPerRule: Int
    public var health: [NightHealth]
    public var catalogue: [CatalogueEntry]
    /// Where the full violations table is (a URL or a path relative to the page), if known.
    public var csvLink: String?
    /// Suppressed and new violations, and the exclusions' reasons; nil when there is nothing to say.
    public var accepted: AcceptedFindings?

    public init(
        source: String, generatedAt: String, hasHistory: Bool, isEmpty: Bool, lastDay: String?,
        overview: [RuleOverview], trendDays: [String], releases: Releases, worstScreens: [RuleScreens],
        examples: [RuleExamples], examplesPerRule: Int, health: [NightHealth], catalogue: [CatalogueEntry],
        csvLink: String?, screens: [WorstScreen] = [], accepted: AcceptedFindings? = nil
    ) {
        self.source = source
        self.generatedAt = generatedAt
        self.hasHistory = hasHistory
        self.isEmpty = isEmpty
        self.lastDay = lastDay
        self.overview = overview
        self.trendDays = trendDays
        self.releases = releases
        self.worstScreens = worstScreens
        self.screens = screens
        self.examples = examples
        self.examplesPerRule = examplesPerRule
        self.health = health
        self.catalogue = catalogue
        self.csvLink = csvLink
        self.accepted = accepted
    }
}

/// A rate as `query` prints it: sessions affected, sessions in the population and the percent of the
/// population affected (two decimals, `pct_sessions_affected`), all as text.
public struct Rate: Sendable, Equatable {
    public var affected: String
    public var total: String
    public var percent: String

    public init(affected: String, total: String, percent: String) {
        self.affected = affected
        self.total = total
        self.percent = percent
    }
}

/// One rule's line of the overview.
public struct RuleOverview: Sendable, Equatable {
    public var rule: String
    public var severity: String
    /// Over everything the page was made from (the whole store, or the one run).
    public var overall: Rate
    /// Nil when the window holds no session (or without history).
    public var lastNight: Rate?
    public var last7: Rate?
    public var last30: Rate?
    /// One point per trend day; nil on a day without sessions.
    public var trend: [Rate?]

    public init(rule: String, severity: String, overall: Rate, lastNight: Rate?, last7: Rate?, last30: Rate?, trend: [Rate?]) {
        self.rule = rule
        self.severity = severity
        self.overall = overall
        self.lastNight = lastNight
        self.last7 = last7
        self.last30 = last30
        self.trend = trend
    }
}

/// App versions × rules, and `compare`'s verdicts between consecutive versions.
public struct Releases: Sendable, Equatable {
    /// Versions in version order (5.9 before 5.10).
    public var versions: [String]
    /// Per rule (id order), one rate per version (nil: the version has no sessions).
    public var rates: [(rule: String, byVersion: [Rate?])]
    /// Rows of `compare --base A --head B` for consecutive versions; worse first, then better, then noise.
    public var comparisons: [Comparison]
    /// Versions older than `versions`, left off the page (`shownVersions`).
    public var olderVersions: Int

    /// The most versions the page shows, the newest: a store of thousands of versions (one per build)
    /// made a page of tens of megabytes, a few kilobytes a version. `hig-audit query --group-by
    /// app_version` lists them all.
    public static let shownVersions = 12

    public init(
        versions: [String], rates: [(rule: String, byVersion: [Rate?])], comparisons: [Comparison], olderVersions: Int = 0
    ) {
        self.versions = versions
        self.rates = rates
        self.comparisons = comparisons
        self.olderVersions = olderVersions
    }

    /// The newest `shownVersions` of `versions` (in version order), and how many are left off.
    public static func newest(_ versions: [String]) -> (shown: [String], older: Int) {
        let shown = Array(versions.suffix(shownVersions))
        return (shown, versions.count - shown.count)
    }

    public static let none = Releases(versions: [], rates: [], comparisons: [])

    public static func == (a: Releases, b: Releases) -> Bool {
        a.versions == b.versions && a.comparisons == b.comparisons && a.olderVersions == b.olderVersions
            && a.rates.map(\.rule) == b.rates.map(\.rule) && a.rates.map(\.byVersion) == b.rates.map(\.byVersion)
    }
}

/// One row of `compare`'s table, as it prints it.
public struct Comparison: Sendable, Equatable {
    public var base: String
    public var head: String
    public var rule: String
    public var baseRate: String
    public var headRate: String
    public var change: String
    public var test: String
    public var pValue: String
    /// `worse`, `better` or `noise`.
    public var verdict: String

    public init(base: String, head: String, rule: String, baseRate: String, headRate: String, change: String, test: String, pValue: String, verdict: String) {
        self.base = ShortForm.bounded(base)
        self.head = ShortForm.bounded(head)
        self.rule = rule
        self.baseRate = baseRate
        self.headRate = headRate
        self.change = change
        self.test = test
        self.pValue = pValue
        self.verdict = verdict
    }
}

/// One row of the `worst_screens` table (`hig-audit analyze`, `query`): a screen, its violations and
/// sessions affected over all rules, and the rule it breaks most.
public struct WorstScreen: Sendable, Equatable {
    /// `''` when no screen was known at the violation.
    public var screen: String
    public var violations: String
    public var sessionsAffected: String
    /// Empty when the screen has no violation of a rule the page lists.
    public var topRule: String
    public var topRuleViolations: String

    public init(screen: String, violations: String, sessionsAffected: String, topRule: String, topRuleViolations: String) {
        self.screen = ShortForm.bounded(screen)
        self.violations = violations
        self.sessionsAffected = sessionsAffected
        self.topRule = topRule
        self.topRuleViolations = topRuleViolations
    }

    /// The rows of a `worst_screens` table.
    public static func rows(of table: Table) -> [WorstScreen] {
        table.rows.map { row in
            func cell(_ name: String) -> String { table.columnIndex(named: name).map { row[$0].plainText } ?? "" }
            return WorstScreen(
                screen: cell("screen"), violations: cell("violations"), sessionsAffected: cell("sessions_affected"),
                topRule: cell("top_rule"), topRuleViolations: cell("top_rule_violations"))
        }
    }
}

/// The screens where a rule was broken most.
public struct RuleScreens: Sendable, Equatable {
    public var rule: String
    public var screens: [ScreenCount]

    public init(rule: String, screens: [ScreenCount]) {
        self.rule = rule
        self.screens = screens
    }

    /// Each rule's `count` screens with the most sessions affected, then violations, then screen name:
    /// one order for the store's page and for one run's.
    static func worst(_ byRule: [String: [ScreenCount]], rules: [String], count: Int) -> [RuleScreens] {
        rules.compactMap { rule in
            guard let screens = byRule[rule] else { return nil }
            let worst = screens.sorted { a, b in
                let x = Int64(a.sessionsAffected) ?? 0, y = Int64(b.sessionsAffected) ?? 0
                if x != y { return x > y }
                let v = Int64(a.violations) ?? 0, w = Int64(b.violations) ?? 0
                if v != w { return v > w }
                return a.screen.utf8.lexicographicallyPrecedes(b.screen.utf8)
            }
            return RuleScreens(rule: rule, screens: Array(worst.prefix(count)))
        }
    }
}

public struct ScreenCount: Sendable, Equatable {
    /// `''` when no screen was known at the violation.
    public var screen: String
    public var violations: String
    public var sessionsAffected: String

    public init(screen: String, violations: String, sessionsAffected: String) {
        self.screen = ShortForm.bounded(screen)
        self.violations = violations
        self.sessionsAffected = sessionsAffected
    }
}

/// The most recent violations of a rule.
public struct RuleExamples: Sendable, Equatable {
    public var rule: String
    /// All of the rule's violations, of which `violations` are the latest.
    public var total: Int64
    public var violations: [Example]

    public init(rule: String, total: Int64, violations: [Example]) {
        self.rule = rule
        self.total = total
        self.violations = violations
    }
}

/// One violation, with what an engineer needs to open the log at it.
public struct Example: Sendable, Equatable {
    public var session: String
    public var device: String
    public var appVersion: String
    public var screen: String
    /// `start_ts` as RFC 3339.
    public var time: String
    public var detail: String
    /// `PATH:LINE`, as `analyze` prints it.
    public var source: String

    public init(session: String, device: String, appVersion: String, screen: String, time: String, detail: String, source: String) {
        self.session = ShortForm.bounded(session)
        self.device = ShortForm.bounded(device)
        self.appVersion = ShortForm.bounded(appVersion)
        self.screen = ShortForm.bounded(screen)
        self.time = time
        self.detail = ShortForm.bounded(detail)
        self.source = ShortForm.bounded(source)
    }
}

/// The input counters of one nightly run (or of the one analyze run).
public struct NightHealth: Sendable, Equatable {
    /// `run 12`, or `this run`.
    public var label: String
    /// When the run finished (RFC 3339), empty for an analyze run.
    public var finished: String
    public var files: Int64
    public var events: Int64
    public var malformedLines: Int64
    public var lateEvents: Int64
    public var duplicateEvents: Int64
    public var faults: Int64

    public init(label: String, finished: String, files: Int64, events: Int64, malformedLines: Int64, lateEvents: Int64, duplicateEvents: Int64, faults: Int64) {
        self.label = label
        self.finished = finished
        self.files = files
        self.events = events
        self.malformedLines = malformedLines
        self.lateEvents = lateEvents
        self.duplicateEvents = duplicateEvents
        self.faults = faults
    }

    public init(label: String, finished: String, statistics: IngestStatistics) {
        self.init(
            label: label, finished: finished, files: Int64(statistics.files), events: statistics.events,
            malformedLines: statistics.malformedLines, lateEvents: statistics.lateEvents,
            duplicateEvents: statistics.duplicateEvents, faults: Int64(statistics.faults))
    }
}

/// What a rule checks, from its `RuleDescription`.
public struct CatalogueEntry: Sendable, Equatable {
    public var rule: String
    public var name: String
    public var severity: String
    public var summary: String
    public var parameters: [(name: String, value: String, summary: String)]
    public var guideline: String
    /// The Apple Human Interface Guidelines page the rule cites: its title and address.
    public var pageTitle: String
    public var pageURL: String

    public init(_ description: RuleDescription) {
        rule = description.identifier
        name = description.name
        severity = description.severity.rawValue
        summary = description.summary
        parameters = description.parameters.map { ($0.name, String($0.defaultValue), $0.summary) }
        guideline = description.citation.guideline
        pageTitle = description.citation.page.title
        pageURL = description.citation.page.url
    }

    public static func == (a: CatalogueEntry, b: CatalogueEntry) -> Bool {
        a.rule == b.rule && a.name == b.name && a.severity == b.severity && a.summary == b.summary
            && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.value) == b.parameters.map(\.value)
            && a.guideline == b.guideline && a.pageTitle == b.pageTitle && a.pageURL == b.pageURL
    }
}
