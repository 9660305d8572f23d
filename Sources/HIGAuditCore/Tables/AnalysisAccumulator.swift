/// Builds the tables of SPEC §4 from sessions as they close, one `SessionReport` at a time.
///
/// The engine hands over each session once, when it closes, and forgets it; this accumulator keeps only
/// what the tables need: counters per rule, per (app version, rule) and per (screen, rule), one rate
/// per (session, haptic kind) for the percentiles, and — unless `keepsViolations` is false — one
/// compact record per violation for the `violations` table (repeated strings interned, session labels
/// stored once per session). It never sees events.
///
/// Filters are fixed at creation (`TableFilter` documents which filter narrows what), and so are the
/// exclusions (`Suppression`): a suppressed violation counts only in `summary`'s `suppressed` column,
/// and is stored for the `violations` table only when `showsSuppressed` asks for it.
public struct AnalysisAccumulator: Sendable {
    /// The enabled rules, in rule-id order.
    public let rules: [RuleDescription]
    public let filter: TableFilter
    /// Whether violations are stored for the `violations` table; the other tables need only counters.
    public let keepsViolations: Bool
    /// The run's exclusions, decided per violation as it is counted.
    public let suppression: Suppression
    /// Whether suppressed violations are listed in `violations` too, with a `suppressed` column.
    public let showsSuppressed: Bool

    private var strings = StringInterner()
    private var sessionLabels: [SessionLabel] = []
    private var records: [ViolationRecord] = []
    private var details = DetailInterner()

    /// Sessions of the population with at least one accepted event.
    public private(set) var sessionsTotal = 0
    /// Violations counted (after filters), also when they are not stored.
    public private(set) var violationsTotal: Int64 = 0
    private var ruleTallies: [Int: Tally] = [:]
    /// Suppressed violations per rule.
    private var suppressedByRule: [Int: Int64] = [:]
    private var severityByRule: [Int: Severity] = [:]
    private var sessionsByVersion: [Int: Int] = [:]
    private var versionRuleTallies: [PairKey: Tally] = [:]
    private var screenRuleTallies: [PairKey: Tally] = [:]
    private var screenTallies: [Int: Tally] = [:]
    private var haptics: [HapticKind: HapticTally] = [:]
    /// The rules that judge only sessions with every touch (`RuleDescription.needsEveryTouch`), and
    /// the sessions they did not judge, overall and per app version: their `sessions_total` leaves
    /// those out (SPEC §7 "Touch coverage").
    private var rulesNeedingEveryTouch: [Int] = []
    private var notJudgedByRule: [Int: Int] = [:]
    private var notJudgedByVersionRule: [PairKey: Int] = [:]
    /// How many sessions `add` has counted here: the serial of the latest, which a tally keeps of the
    /// last session it counted, so that it counts each session once without a set of those it has.
    private var sessionSerial = 0

    public init(
        rules: [RuleDescription], filter: TableFilter = .none, keepsViolations: Bool = true,
        suppression: Suppression = .none, showsSuppressed: Bool = false
    ) {
        self.rules = rules.sorted { $0.identifier < $1.identifier }
        self.filter = filter
        self.keepsViolations = keepsViolations
        self.suppression = suppression
        self.showsSuppressed = showsSuppressed
        for rule in self.rules where filter.admitsRule(rule.identifier) {
            let id = strings.intern(rule.identifier)
            severityByRule[id] = rule.severity
            ruleTallies[id] = Tally()
            if rule.needsEveryTouch { rulesNeedingEveryTouch.append(id) }
        }
    }

    /// The app versions and devices of every session read, kept only while a filter names such values,
    /// so that a value that matched nothing can be said with the values that exist (`FilterMisses`).
    public private(set) var appVersionsSeen: Set<String> = []
    public private(set) var devicesSeen: Set<String> = []
    /// The sessions `--session` names that were read: those ids alone, not every session's.
    public private(set) var sessionsNamedSeen: Set<String> = []

    /// What to say about filter values that matched no session.
    public var filterMisses: [String] {
        FilterMisses.notes(for: filter, appVersions: appVersionsSeen, devices: devicesSeen)
            + filter.sessions.subtracting(sessionsNamedSeen).sorted().map {
                "--session \($0) matches no session read (a session id, whole)"
            }
    }

    /// Counts one closed session. Sessions outside the filter's population are ignored entirely.
    public mutating func add(_ report: SessionReport) {
        add(report, recordedSuppression: nil)
    }

    /// Counts one closed session whose violations were judged when they were recorded (a nightly
    /// run's, SPEC §6): `recordedSuppression[i]` says whether `report.violations[i]` was suppressed
    /// then, whatever the exclusions of today. Nil judges them with `suppression`, as `add` does.
    public mutating func add(_ report: SessionReport, recordedSuppression: [Bool]?) {
        if !filter.appVersions.isEmpty { appVersionsSeen.insert(report.appVersion) }
        if !filter.devices.isEmpty { devicesSeen.insert(report.device) }
        if !filter.sessions.isEmpty, filter.sessions.contains(report.session) { sessionsNamedSeen.insert(report.session) }
        guard filter.admitsSession(report) else { return }
        let version = strings.intern(report.appVersion)
        if report.acceptedEvents > 0 {
            sessionsTotal += 1
            sessionsByVersion[version, default: 0] += 1
            if report.touches != .all {
                for rule in rulesNeedingEveryTouch {
                    notJudgedByRule[rule, default: 0] += 1
                    notJudgedByVersionRule[PairKey(version, rule), default: 0] += 1
                }
            }
        }
        addHaptics(of: report)

        // The sessions-affected counts: each tally counts this session once, by its serial. The rule
        // and screen of the violation before are reused when they repeat, as a session's violations
        // mostly do.
        sessionSerial += 1
        let serial = sessionSerial
        var previous: (rule: String, ruleId: Int, screen: String, screenId: Int)?
        var sessionLabel: Int?
        for (index, violation) in report.violations.enumerated()
        where filter.admitsViolation(rule: violation.rule, screen: violation.screen, startTs: violation.startTs) {
            let rule: Int
            if let previous, previous.rule == violation.rule {
                rule = previous.ruleId
            } else {
                rule = strings.intern(violation.rule)
                if severityByRule[rule] == nil { severityByRule[rule] = violation.severity }
            }
            let screen = previous.flatMap { $0.screen == violation.screen ? $0.screenId : nil }
                ?? strings.intern(violation.screen)
            previous = (violation.rule, rule, violation.screen, screen)
            let suppressed = recordedSuppression.map { index < $0.count && $0[index] }
                ?? suppression.suppresses(rule: violation.rule, screen: violation.screen, appVersion: report.appVersion)
            if suppressed {
                suppressedByRule[rule, default: 0] += 1
                if ruleTallies[rule] == nil { ruleTallies[rule] = Tally() }
                guard keepsViolations, showsSuppressed else { continue }
                record(violation, rule: rule, screen: screen, of: report, version: version, label: &sessionLabel, suppressed: true)
                continue
            }
            violationsTotal += 1
            ruleTallies[rule, default: Tally()].add(inSession: serial)
            versionRuleTallies[PairKey(version, rule), default: Tally()].add(inSession: serial)
            screenRuleTallies[PairKey(screen, rule), default: Tally()].add(inSession: serial)
            screenTallies[screen, default: Tally()].add(inSession: serial)
            guard keepsViolations else { continue }
            record(violation, rule: rule, screen: screen, of: report, version: version, label: &sessionLabel, suppressed: false)
        }
    }

    /// Stores one violation for the `violations` table; `label` is the session's label once made.
    private mutating func record(
        _ violation: Violation, rule: Int, screen: Int, of report: SessionReport, version: Int, label sessionLabel: inout Int?,
        suppressed: Bool
    ) {
        let label: Int
        if let sessionLabel {
            label = sessionLabel
        } else {
            label = sessionLabels.count
            sessionLabels.append(SessionLabel(
                name: report.session, device: strings.intern(report.device), appVersion: version
            ))
            sessionLabel = label
        }
        records.append(ViolationRecord(
            rule: UInt32(truncatingIfNeeded: rule), session: UInt32(truncatingIfNeeded: label),
            screen: UInt32(truncatingIfNeeded: screen), sourceFile: violation.source.file,
            startTs: violation.startTs, endTs: violation.endTs, count: Int64(violation.count),
            sourceLine: violation.source.line, detail: details.intern(violation.detail), severity: violation.severity,
            suppressed: suppressed, sourceRecord: violation.source.record
        ))
    }

    private mutating func addHaptics(of report: SessionReport) {
        let (span, overflow) = report.lastTs.subtractingReportingOverflow(report.firstTs)
        let durationMs = overflow ? Int64.max : max(span, 1000)
        for (kind, count) in report.hapticCounts where count > 0 {
            haptics[kind, default: HapticTally()].add(count: Int64(count), durationMs: durationMs)
        }
    }

    // MARK: - Tables

    /// `violations`: one row per violation, ordered by session, `start_ts`, rule, source (SPEC §4).
    /// Empty when `keepsViolations` is false. With `showsSuppressed`, suppressed violations are rows
    /// too, and a last column `suppressed` (`true`/`false`) tells them apart.
    public func violationsTable(sources: SourceFileTable) -> Table {
        let strings = strings.strings
        let labels = sessionLabels
        let records = records
        let sessionRank = Self.ranks(of: labels.map(\.name), by: <)
        let ruleRank = Self.ranks(of: strings, by: <)
        // Sorted by keys of plain numbers, each record's ranks looked up once rather than in every
        // comparison, and no record (with its detail's text) copied to be compared. Interned rule
        // texts differ, so their ranks do; the record's index makes every key distinct.
        let order = records.withUnsafeBufferPointer { records in
            records.indices.map { index in
                RowKey(
                    session: sessionRank[Int(records[index].session)], startTs: records[index].startTs,
                    rule: ruleRank[Int(records[index].rule)], source: records[index].source, index: index)
            }
        }.sorted().map(\.index)
        let showsSuppressed = showsSuppressed
        var columns: [TableColumn] = [
            // On a narrow terminal, what a violation is and where to look stay longest (`TerminalFit`).
            .text("rule"), TableColumn.text("severity").droppable(4), TableColumn.text("session").narrowed(.identifier).droppable(8),
            TableColumn.text("device").droppable(1), TableColumn.text("app_version").droppable(2),
            TableColumn.text("screen").droppable(7), TableColumn.timestamp("start_ts").droppable(6),
            TableColumn.timestamp("end_ts").droppable(0), TableColumn.integer("count").droppable(3),
            TableColumn.text("detail").narrowed(.wrap), TableColumn.text("source").narrowed(.path).droppable(5),
        ]
        if showsSuppressed { columns.append(.boolean("suppressed")) }
        // Cell by cell: the CSV and JSON writers write each as it comes, with no row array (`Table`).
        return Table(name: "violations", columns: columns, rowCount: order.count) { index, cell in
            let record = records[order[index]]
            let label = labels[Int(record.session)]
            cell(.label(strings[Int(record.rule)]))
            cell(.label(record.severity.rawValue))
            cell(.input(label.name))
            cell(.input(strings[label.device]))
            cell(.input(strings[label.appVersion]))
            cell(.input(strings[Int(record.screen)]))
            cell(.timestamp(record.startTs))
            cell(.timestamp(record.endTs))
            cell(.integer(record.count))
            cell(.input(record.detail))
            // From the stored fields: `record.source`, a computed property, is read from a copy of
            // the record (its detail's text retained and released).
            let location = SourceLocation(file: record.sourceFile, line: record.sourceLine, record: record.sourceRecord)
            cell(.source(path: sources.path(of: location), location: location))
            if showsSuppressed { cell(.boolean(record.suppressed)) }
        }
    }

    /// `summary`: one row per enabled rule (zero rows included) in rule-id order, with the rule's default
    /// severity; `pct_sessions_affected` = 100 × affected ÷ total, 0.00 when there are no sessions.
    /// `sessions_not_judged` counts the sessions a rule that needs every touch did not judge (their log
    /// lacks some touches; 0 for the other rules), and the rule's `sessions_total` leaves them out.
    /// Always present, so that machines read one schema.
    /// When the config has exclusions, a last column `suppressed` counts the rule's suppressed
    /// violations (which `violations` and `sessions_affected` leave out).
    public func summaryTable() -> Table {
        var columns: [TableColumn] = [
            .text("rule"), TableColumn.text("severity").droppable(1), .integer("violations"), .integer("sessions_affected"),
            TableColumn.integer("sessions_total").droppable(0), TableColumn.integer("sessions_not_judged").droppable(0),
            .decimal("pct_sessions_affected"),
        ]
        let showsSuppressedColumn = suppression.hasEntries
        if showsSuppressedColumn { columns.append(.integer("suppressed")) }
        let rows = reportedRules.map { rule -> [TableCell] in
            let tally = ruleTallies[rule] ?? Tally()
            let notJudged = notJudgedByRule[rule] ?? 0
            let judged = sessionsTotal - notJudged
            let row: [TableCell] = [
                .label(strings[rule]), .label(severity(of: rule).rawValue), .integer(tally.violations),
                .int(tally.sessionsAffected), .int(judged), .int(notJudged),
                .decimal(Self.percent(tally.sessionsAffected, of: judged)),
            ]
            return showsSuppressedColumn ? row + [.integer(suppressedByRule[rule] ?? 0)] : row
        }
        return Table(name: "summary", columns: columns, rows: rows)
    }

    /// `by_version`: per app version (in version order, e.g. 5.9 before 5.10; sessions without a version
    /// as an empty version, first) and rule (id order), zero rows included so that releases compare
    /// row by row. `sessions_total` is the version's session count (less the sessions the rule did not
    /// judge, as in `summary`), and the percentage is relative to it.
    public func byVersionTable() -> Table {
        let columns: [TableColumn] = [
            .text("app_version"), .text("rule"), TableColumn.text("severity").droppable(1), .integer("violations"),
            .integer("sessions_affected"), TableColumn.integer("sessions_total").droppable(0), .decimal("pct_sessions_affected"),
        ]
        let versions = Set(sessionsByVersion.keys).union(versionRuleTallies.keys.map(\.first))
            .sorted { VersionOrder.areInIncreasingOrder(strings[$0], strings[$1]) }
        let rules = reportedRules
        var rows: [[TableCell]] = []
        for version in versions {
            let total = sessionsByVersion[version] ?? 0
            for rule in rules {
                let tally = versionRuleTallies[PairKey(version, rule)] ?? Tally()
                let judged = total - (notJudgedByVersionRule[PairKey(version, rule)] ?? 0)
                rows.append([
                    .input(strings[version]), .label(strings[rule]), .label(severity(of: rule).rawValue),
                    .integer(tally.violations), .int(tally.sessionsAffected), .int(judged),
                    .decimal(Self.percent(tally.sessionsAffected, of: judged)),
                ])
            }
        }
        return Table(name: "by_version", columns: columns, rows: rows)
    }

    /// `by_screen`: per screen and rule with at least one violation, ordered by screen then rule id.
    /// The session reports do not say which sessions *visited* a screen, so there is no per-screen
    /// session total; `pct_rule_violations` says instead which share of the rule's violations
    /// happened on the screen (empty screen: no screen was known at the violation).
    public func byScreenTable() -> Table {
        let columns: [TableColumn] = [
            TableColumn.text("screen").narrowed(.wrap), .text("rule"), TableColumn.text("severity").droppable(0), .integer("violations"),
            .integer("sessions_affected"), .decimal("pct_rule_violations"),
        ]
        let keys = screenRuleTallies.keys.sorted { a, b in
            if a.first != b.first { return strings[a.first] < strings[b.first] }
            return strings[a.second] < strings[b.second]
        }
        let rows = keys.map { key -> [TableCell] in
            let tally = screenRuleTallies[key] ?? Tally()
            let ruleViolations = ruleTallies[key.second]?.violations ?? 0
            return [
                .input(strings[key.first]), .label(strings[key.second]), .label(severity(of: key.second).rawValue),
                .integer(tally.violations), .int(tally.sessionsAffected),
                .decimal(FixedDecimal.ratio(tally.violations, ruleViolations, scale: 100)),
            ]
        }
        return Table(name: "by_screen", columns: columns, rows: rows)
    }

    /// The `limit` screens with the most violations (ties: screen name), for the terminal overview.
    public func worstScreensTable(limit: Int) -> Table {
        let columns: [TableColumn] = [
            TableColumn.text("screen").narrowed(.wrap), .integer("violations"), .integer("sessions_affected"), .text("top_rule"),
            TableColumn.integer("top_rule_violations").droppable(0),
        ]
        let screens = screenTallies.sorted { a, b in
            if a.value.violations != b.value.violations { return a.value.violations > b.value.violations }
            return strings[a.key] < strings[b.key]
        }.prefix(max(0, limit))
        let rows = screens.map { screen, tally -> [TableCell] in
            var top: (rule: Int, violations: Int64)?
            for rule in reportedRules {
                let count = screenRuleTallies[PairKey(screen, rule)]?.violations ?? 0
                if count > 0, count > (top?.violations ?? 0) { top = (rule, count) }
            }
            return [
                .input(strings[screen]), .integer(tally.violations), .int(tally.sessionsAffected),
                top.map { .label(strings[$0.rule]) } ?? .empty, top.map { .integer($0.violations) } ?? .empty,
            ]
        }
        return Table(name: "worst_screens", columns: columns, rows: Array(rows))
    }

    /// `haptics`: one row per haptic kind (every kind, in name order). `count` is haptics played,
    /// `sessions` the sessions that played the kind. The rate of a session is its haptics of the kind per
    /// session-minute, a session lasting `max(last_ts − first_ts, 1 s)`; p50/p90/p99 are nearest-rank
    /// percentiles over the sessions that played the kind (empty when none did), two decimals.
    public func hapticsTable() -> Table {
        let columns: [TableColumn] = [
            .text("kind"), .integer("count"), .integer("sessions"), .decimal("p50_per_minute"),
            .decimal("p90_per_minute"), .decimal("p99_per_minute"),
        ]
        let rows = HapticKind.allCases.sorted().map { kind -> [TableCell] in
            let tally = haptics[kind] ?? HapticTally()
            let sorted = tally.ratesPerMinute.sorted()
            let percentiles: [TableCell] = [50, 90, 99].map { percentile in
                Self.nearestRank(percentile, in: sorted).map { .decimal(FixedDecimal(units: $0, places: 2)) } ?? .empty
            }
            return [.label(kind.rawValue), .integer(tally.count), .int(tally.ratesPerMinute.count)] + percentiles
        }
        return Table(name: "haptics", columns: columns, rows: rows)
    }

    /// The screenful for a person at a terminal: the summary, the worst screens and the input's health.
    public func overview(ingest: IngestStatistics, worstScreens: Int = 10) -> [Table] {
        [summaryTable(), worstScreensTable(limit: worstScreens), IngestTables.ingestTable(ingest).transposed(name: "ingest")]
    }

    // MARK: - Helpers

    /// Rules with a row in `summary` and `by_version`: the enabled rules the filter admits, plus any rule
    /// a violation named (none, unless the engine ran a rule that was not passed in), in id order.
    private var reportedRules: [Int] {
        ruleTallies.keys.sorted { strings[$0] < strings[$1] }
    }

    private func severity(of rule: Int) -> Severity { severityByRule[rule] ?? .warning }

    static func percent(_ part: Int, of whole: Int) -> FixedDecimal {
        FixedDecimal.ratio(Int64(part), Int64(whole), scale: 100)
    }

    /// The nearest-rank percentile: the value at rank ⌈p/100 × n⌉ of the sorted values; nil when empty.
    static func nearestRank(_ percentile: Int, in sorted: [Int64]) -> Int64? {
        guard !sorted.isEmpty else { return nil }
        let rank = (percentile * sorted.count + 99) / 100
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// For each element, its position in the sorted order (equal elements share the lowest position).
    private static func ranks(of values: [String], by less: (String, String) -> Bool) -> [Int] {
        // Compared in place: `values[$0]` would retain and release both texts of every comparison.
        let order = values.withUnsafeBufferPointer { values in values.indices.sorted { less(values[$0], values[$1]) } }
        var ranks = [Int](repeating: 0, count: values.count)
        for (position, index) in order.enumerated() {
            if position > 0, !less(values[order[position - 1]], values[index]) {
                ranks[index] = ranks[order[position - 1]]
            } else {
                ranks[index] = position
            }
        }
        return ranks
    }
}

// MARK: - Merging

extension AnalysisAccumulator {
    /// Adds what `later` counted, as if its sessions' reports had been added here after this
    /// accumulator's own: so that a reader can count two disjoint sets of sessions on two threads.
    ///
    /// The tables come out as one accumulator adding every report in that order would give them,
    /// byte for byte, provided that `later` was made with the same rules and filter and that no
    /// session was added to both. Every table orders its rows by the values' text; the only order
    /// taken from adding is that of equal `violations` rows, which stays this one's, then `later`'s.
    public mutating func merge(_ later: AnalysisAccumulator) {
        assert(
            rules.map(\.identifier) == later.rules.map(\.identifier) && filter == later.filter
                && keepsViolations == later.keepsViolations && suppression == later.suppression
                && showsSuppressed == later.showsSuppressed,
            "merged accumulators count with the same rules and filter")
        // `later`'s ids, in the order it made them, become this one's: a string new to this one gets
        // the id it would have got here, had `later`'s reports come after this one's.
        let ids = later.strings.strings.map { strings.intern($0) }
        func pair(_ key: PairKey) -> PairKey { PairKey(ids[key.first], ids[key.second]) }

        sessionsTotal += later.sessionsTotal
        violationsTotal += later.violationsTotal
        for (rule, tally) in later.ruleTallies { ruleTallies[ids[rule], default: Tally()].add(tally) }
        for (rule, count) in later.suppressedByRule { suppressedByRule[ids[rule], default: 0] += count }
        for (rule, severity) in later.severityByRule where severityByRule[ids[rule]] == nil {
            severityByRule[ids[rule]] = severity
        }
        for (version, count) in later.sessionsByVersion { sessionsByVersion[ids[version], default: 0] += count }
        for (rule, count) in later.notJudgedByRule { notJudgedByRule[ids[rule], default: 0] += count }
        for (key, count) in later.notJudgedByVersionRule { notJudgedByVersionRule[pair(key), default: 0] += count }
        for (key, tally) in later.versionRuleTallies { versionRuleTallies[pair(key), default: Tally()].add(tally) }
        for (key, tally) in later.screenRuleTallies { screenRuleTallies[pair(key), default: Tally()].add(tally) }
        for (screen, tally) in later.screenTallies { screenTallies[ids[screen], default: Tally()].add(tally) }
        for (kind, tally) in later.haptics {
            haptics[kind, default: HapticTally()].count &+= tally.count
            haptics[kind, default: HapticTally()].ratesPerMinute += tally.ratesPerMinute
        }
        appVersionsSeen.formUnion(later.appVersionsSeen)
        devicesSeen.formUnion(later.devicesSeen)
        sessionsNamedSeen.formUnion(later.sessionsNamedSeen)

        let labelOffset = UInt32(sessionLabels.count)
        sessionLabels += later.sessionLabels.map {
            SessionLabel(name: $0.name, device: ids[$0.device], appVersion: ids[$0.appVersion])
        }
        records.reserveCapacity(records.count + later.records.count)
        for var record in later.records {
            record.rule = UInt32(ids[Int(record.rule)])
            record.screen = UInt32(ids[Int(record.screen)])
            record.session += labelOffset
            record.detail = details.intern(record.detail)
            records.append(record)
        }
    }
}

// MARK: - Stored values

private struct Tally: Sendable {
    var violations: Int64 = 0
    var sessionsAffected = 0
    /// The serial (`AnalysisAccumulator.sessionSerial`) of the last session counted here; 0, which no
    /// session has, before any.
    private var lastSession = 0

    /// One more violation, of the session with serial `session` (serials only grow).
    mutating func add(inSession session: Int) {
        violations += 1
        if session != lastSession {
            sessionsAffected += 1
            lastSession = session
        }
    }

    /// The counts of other sessions (another accumulator's: its serials are not this one's, and the
    /// last session counted here stays this one's).
    mutating func add(_ other: Tally) {
        violations += other.violations
        sessionsAffected += other.sessionsAffected
    }
}

private struct PairKey: Hashable, Sendable {
    var first: Int
    var second: Int
    init(_ first: Int, _ second: Int) {
        self.first = first
        self.second = second
    }
}

private struct SessionLabel: Sendable {
    var name: String
    var device: Int
    var appVersion: Int
}

/// Where a violation's row goes in `violations`: by session (its name's rank), `start_ts`, rule (its
/// id's rank), source, then the order of recording.
private struct RowKey: Comparable {
    var session: Int
    var startTs: Int64
    var rule: Int
    var source: SourceLocation
    var index: Int

    static func < (a: RowKey, b: RowKey) -> Bool {
        if a.session != b.session { return a.session < b.session }
        if a.startTs != b.startTs { return a.startTs < b.startTs }
        if a.rule != b.rule { return a.rule < b.rule }
        if a.source != b.source { return a.source < b.source }
        return a.index < b.index
    }
}

/// One violation, compact: repeated strings are 32-bit interned ids (more distinct strings than that
/// cannot fit in memory anyway), the source split so the fields pack into 72 bytes (the flags fit in the padding); the detail shares
/// its storage with every equal detail (`DetailInterner`).
private struct ViolationRecord: Sendable {
    var rule: UInt32
    var session: UInt32
    var screen: UInt32
    var sourceFile: Int32
    var startTs: Int64
    var endTs: Int64
    var count: Int64
    var sourceLine: Int64
    var detail: String
    var severity: Severity
    /// Whether an exclusion suppressed it (stored only with `showsSuppressed`).
    var suppressed: Bool
    /// The record within the line (an imported OTLP line's `#K`), 0 for a line that is one event;
    /// in the padding after the flags.
    var sourceRecord: Int32

    var source: SourceLocation { SourceLocation(file: sourceFile, line: sourceLine, record: sourceRecord) }
}

/// Makes equal violation details share one string buffer. Rules write details from templates, so most
/// repeat; some embed a place and are unique, so after `limit` distinct details new ones are kept as
/// they come instead of growing the table without bound.
///
/// Details are equal when their bytes are: `String`'s own equality would hand a detail the first
/// spelling of a canonically equivalent one (`é` as one code point or two), rewriting the text the
/// rule wrote, and which spelling came first would depend on where the limit fell.
///
/// A detail's bytes are hashed once, by `Bytes.hash(_:seed:)`, and the set's `Hasher` is given that one
/// word: the set hashes each key it finds or keeps, and again each time it grows, which over a whole
/// detail's bytes was most of interning's cost. The seed is drawn per interner, so that which details
/// collide cannot be chosen by whoever writes the log.
private struct DetailInterner: Sendable {
    private var known: Set<Bytes> = []
    private let seed: (UInt64, UInt64)
    static let limit = 100_000

    init() {
        var generator = SystemRandomNumberGenerator()
        seed = (generator.next(), generator.next() | 1)
    }

    mutating func intern(_ detail: String) -> String {
        let key = Bytes(detail, seed: seed)
        // Below the limit one lookup both finds an equal detail and keeps a new one.
        if known.count < Self.limit { return known.insert(key).memberAfterInsert.text }
        if let existing = known.firstIndex(of: key) { return known[existing].text }
        return detail
    }

    /// A text compared by its UTF-8 bytes and hashed by a word made of them.
    private struct Bytes: Hashable, Sendable {
        let text: String
        /// `hash(_:seed:)` of the text's bytes: equal bytes, equal words.
        let word: UInt64

        init(_ text: String, seed: (UInt64, UInt64)) {
            var text = text
            word = text.withUTF8 { Self.hash(UnsafeRawBufferPointer($0), seed: seed) }
            self.text = text
        }

        static func == (a: Bytes, b: Bytes) -> Bool {
            guard a.word == b.word else { return false }
            // Compared as whole buffers: byte by byte through `utf8` took a call per byte.
            var x = a.text
            var y = b.text
            return x.withUTF8 { x in
                y.withUTF8 { y in
                    x.count == y.count && (x.isEmpty || ByteComparison.equal(x.baseAddress!, y.baseAddress!, count: x.count))
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(word)
        }

        /// The bytes 16 at a time, each pair of words mixed into the state by a folded multiply with
        /// the seed (as wyhash does), the last few zero-padded, the length mixed in first.
        static func hash(_ bytes: UnsafeRawBufferPointer, seed: (UInt64, UInt64)) -> UInt64 {
            var state = seed.0 ^ UInt64(bytes.count)
            var offset = 0
            while bytes.count &- offset >= 16 {
                let first = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let second = bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                state = fold(first ^ state, second ^ seed.1)
                offset &+= 16
            }
            var tail: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            return fold(fold(tail.0 ^ state, tail.1 ^ seed.1), seed.0 ^ seed.1)
        }

        /// The high and low words of the full product, folded into one.
        private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let product = a.multipliedFullWidth(by: b)
            return product.high ^ product.low
        }
    }
}

private struct HapticTally: Sendable {
    var count: Int64 = 0
    /// Haptics of the kind per session-minute, × 100 (two decimals), one per session that played it.
    var ratesPerMinute: [Int64] = []

    mutating func add(count haptics: Int64, durationMs: Int64) {
        count &+= haptics
        // haptics ÷ (durationMs ÷ 60 000), with two decimals.
        ratesPerMinute.append(FixedDecimal.ratio(haptics, durationMs, scale: 60_000, places: 2).units)
    }
}
