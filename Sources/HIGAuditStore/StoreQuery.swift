import GRDB
import HIGAuditCore

/// A column `query --group-by` can break violations down by.
public enum GroupDimension: String, CaseIterable, Sendable {
    case rule
    case appVersion = "app_version"
    case screen
    /// The UTC calendar day of a violation's `start_ts` (`YYYY-MM-DD`).
    case day
    case device

    /// The expression on the violations table (alias `v`).
    var violationExpression: String {
        switch self {
        case .rule: "v.rule"
        case .appVersion: "v.app_version"
        case .screen: "v.screen"
        // The day number, floor(seconds ÷ 86,400) of the seconds SQLite's `date(start_ts / 1000,
        // 'unixepoch')` takes; named by `dayLabel`. Integer arithmetic, where date() per row costs
        // about a microsecond, a second for a million violations.
        case .day: "(v.start_ts / 1000 - ((v.start_ts / 1000) % 86400 + 86400) % 86400) / 86400"
        case .device: "v.device"
        }
    }

    /// `YYYY-MM-DD` of a day number since 1970-01-01, as SQLite's `date()` writes it (years before 1
    /// as `-0001`): "" (date()'s NULL) outside its range, Julian day 0 (4714 BC) to 9999-12-31, whose
    /// first day is taken whole although date() starts it at noon.
    static func dayLabel(_ day: Int64?) -> String {
        guard let day, (-2_440_588...2_932_896).contains(day) else { return "" }
        let (year, month, dayOfMonth) = TimestampFormatter.civilFromDays(day)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let yearText = year < 0 ? "-" + padded(-year, 4) : padded(year, 4)
        return yearText + "-" + padded(Int64(month), 2) + "-" + padded(Int64(dayOfMonth), 2)
    }

    /// Whether it is a property of a session, so that it narrows `sessions_total` too.
    var describesSessions: Bool { self == .appVersion || self == .device || self == .day }
}

/// The ad-hoc questions of `hig-audit query` over the store (SPEC §1 "Ad-hoc CLI queries").
public enum StoreQuery {
    /// Violations broken down by `dimensions`: per group, `violations`, `sessions_affected` (distinct
    /// sessions with one of them), `sessions_total` and `pct_sessions_affected` = 100 × affected ÷
    /// total (two decimals), the unit of `summary` and `compare`.
    ///
    /// `sessions_total` counts the sessions of the population (the selection's session filters) that
    /// share the group's app version, device and day — a session belongs to every UTC day its events
    /// span. Rule and screen do not narrow it: every session could have broken any rule, and the store
    /// does not know which sessions visited a screen; but in a row of a rule that needs every touch
    /// (`RuleDescription.needsEveryTouch`) it leaves out the sessions whose log lacked some touches,
    /// which that rule did not judge, as `analyze`'s tables do (SPEC §7 "Touch coverage"), and so does
    /// a row without a rule of its own when every rule the selection admits is such a rule
    /// (`--rule forced-tab-switch`). Groups are those with at least one violation;
    /// when grouping by rule and not by screen, every recorded rule gets a row, zero rows included,
    /// so that versions and days compare row by row. Rows are in `order`; by default (for the
    /// dashboard and programs) by the dimensions in the order given (app versions in version order,
    /// 5.9 before 5.10).
    public static func grouped(
        _ db: Database, by dimensions: [GroupDimension], selection: StoreSelection = .everything,
        order: GroupOrder = .dimensions
    ) throws -> HIGAuditCore.Table {
        let dimensions = dimensions.reduce(into: [GroupDimension]()) { if !$0.contains($1) { $0.append($1) } }
        let (conditions, arguments) = try selection.violationConditions(db)
        let expressions = dimensions.map(\.violationExpression)
        let groupBy = expressions.isEmpty ? "" : "GROUP BY " + expressions.joined(separator: ", ")
        let select = (expressions + ["COUNT(*)", "COUNT(DISTINCT v.session)"]).joined(separator: ", ")
        var counts: [GroupKey: (violations: Int64, affected: Int64)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \(select) FROM violations v \(conditions.whereClause) \(groupBy)", arguments: arguments) {
            let key = dimensions.indices.map { index in
                dimensions[index] == .day ? GroupDimension.dayLabel(row[index]) : ((row[index] as String?) ?? "")
            }
            counts[GroupKey(key)] = (row[dimensions.count], row[dimensions.count + 1])
        }

        let sessionDimensions = dimensions.filter(\.describesSessions)
        let totals = try sessionTotals(db, by: sessionDimensions, selection: selection)
        var keys = Set(counts.keys)
        if dimensions.contains(.rule), !dimensions.contains(.screen) {
            let rules = try String.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
                .filter { selection.filter.admitsRule($0) }
            // A session overlapping the time window spans days outside it too, on which no violation
            // of the window starts: those days get no zero rows.
            let dayIndex = sessionDimensions.firstIndex(of: .day)
            let window = Self.dayWindow(selection.filter)
            for sessionKey in totals.keys where dayIndex.map({ window.contains(sessionKey[$0]) }) ?? true {
                for rule in rules {
                    var key: [String] = []
                    var next = sessionKey.values.makeIterator()
                    for dimension in dimensions { key.append(dimension == .rule ? rule : (next.next() ?? "")) }
                    keys.insert(GroupKey(key))
                }
            }
        }
        let ruleIndex = dimensions.firstIndex(of: .rule)
        let selectedNeedEveryTouch = ruleIndex == nil ? try selectedRulesAllNeedEveryTouch(db, selection) : false
        func total(_ key: GroupKey) -> Int64 {
            let sessions = totals[GroupKey(zip(dimensions, key.values).filter { $0.0.describesSessions }.map(\.1))] ?? SessionTotal()
            let needsEveryTouch = ruleIndex.map { RuleRegistry.description(of: key[$0])?.needsEveryTouch == true } ?? selectedNeedEveryTouch
            return needsEveryTouch ? sessions.sessions - sessions.notJudged : sessions.sessions
        }
        func byDimensions(_ a: GroupKey, _ b: GroupKey, series: Bool = false) -> Bool? {
            for (index, dimension) in dimensions.enumerated() where a.differs(from: b, at: index) && (!series || dimension.isSeries) {
                return dimension.orders(a[index], before: b[index])
            }
            return nil
        }
        let sorted = keys.sorted { a, b in
            if order != .dimensions {
                if let inSeries = byDimensions(a, b, series: true) { return inSeries }
                let ca = counts[a] ?? (0, 0), cb = counts[b] ?? (0, 0)
                if order == .violations, ca.violations != cb.violations { return ca.violations > cb.violations }
                if order == .rate {
                    let ra = FixedDecimal.ratio(ca.affected, total(a), scale: 1000)
                    let rb = FixedDecimal.ratio(cb.affected, total(b), scale: 1000)
                    if ra != rb { return ra > rb }
                }
            }
            return byDimensions(a, b) ?? a.precedesInBytes(b)
        }
        let rows = sorted.map { key -> [TableCell] in
            let count = counts[key] ?? (0, 0)
            let total = total(key)
            let labels = zip(dimensions, key.values).map { dimension, value -> TableCell in
                dimension == .rule || dimension == .day ? .label(value) : .input(value)
            }
            return labels + [
                .integer(count.violations), .integer(count.affected), .integer(total),
                .decimal(FixedDecimal.ratio(count.affected, total, scale: 100)),
            ]
        }
        let columns = dimensions.map { TableColumn.text($0.rawValue) } + [
            .integer("violations"), .integer("sessions_affected"), TableColumn.integer("sessions_total").droppable(0),
            .decimal("pct_sessions_affected"),
        ]
        return HIGAuditCore.Table(name: "grouped", columns: columns, rows: rows)
    }

    /// The UTC days (`YYYY-MM-DD`, which sort as the days do) from `--since`'s to `--until`'s last
    /// millisecond's, either end open.
    static func dayWindow(_ filter: TableFilter) -> ClosedRange<String> {
        func day(_ ms: Int64) -> String {
            GroupDimension.dayLabel(ms >= 0 ? ms / 86_400_000 : (ms + 1) / 86_400_000 - 1)
        }
        let first = filter.since.map(day) ?? ""
        let last = filter.until.map { day($0 - 1) } ?? "\u{10FFFF}"
        return first <= last ? first...last : first...first
    }

    /// Whether every rule the selection admits (`--rule`, `--severity`) needs every touch: then a row
    /// without a rule of its own counts only the sessions those rules judged, as the rows of each of
    /// them do. Where one admitted rule judges every session, every session counts.
    private static func selectedRulesAllNeedEveryTouch(_ db: Database, _ selection: StoreSelection) throws -> Bool {
        let admitted = try Row.fetchAll(db, sql: "SELECT rule, severity FROM rules").filter { row in
            let severity = Severity(rawValue: row["severity"] as String? ?? "")
            return selection.filter.admitsRule(row["rule"])
                && (selection.severities.isEmpty || severity.map(selection.severities.contains) == true)
        }
        return !admitted.isEmpty && admitted.allSatisfy { RuleRegistry.description(of: $0["rule"])?.needsEveryTouch == true }
    }

    /// The sessions of a group, and how many of them a rule that needs every touch did not judge.
    struct SessionTotal: Equatable {
        var sessions: Int64 = 0
        var notJudged: Int64 = 0
    }

    /// Sessions of the population per value of the session dimensions (in the order given).
    static func sessionTotals(
        _ db: Database, by dimensions: [GroupDimension], selection: StoreSelection
    ) throws -> [GroupKey: SessionTotal] {
        let (conditions, arguments) = selection.sessionConditions()
        let columns = dimensions.map { dimension -> String in
            switch dimension {
            case .day: "d.day"
            default: "d.\(dimension.rawValue)"
            }
        }
        let touches = try StoreSchema.touchesExpression(db, alias: "s")
        let source: String
        if dimensions.contains(.day) {
            // One row per session and UTC day it spans.
            source = """
                WITH RECURSIVE d(session, app_version, device, coverage, day, last_day) AS (
                    SELECT s.session, s.app_version, s.device, \(touches), date(s.first_ts / 1000, 'unixepoch'),
                           date(s.last_ts / 1000, 'unixepoch')
                    FROM sessions s \(conditions.whereClause)
                    UNION ALL
                    SELECT session, app_version, device, coverage, date(day, '+1 day'), last_day FROM d WHERE day < last_day
                ) SELECT
                """
        } else {
            source = """
                WITH d AS (SELECT s.app_version, s.device, \(touches) AS coverage FROM sessions s \(conditions.whereClause)) SELECT
                """
        }
        let groupBy = columns.isEmpty ? "" : "GROUP BY " + columns.joined(separator: ", ")
        let select = (columns + ["COUNT(*)", "IFNULL(SUM(d.coverage <> 'all'), 0)"]).joined(separator: ", ")
        var totals: [GroupKey: SessionTotal] = [:]
        for row in try Row.fetchAll(db, sql: "\(source) \(select) FROM d \(groupBy)", arguments: arguments) {
            let key = (0..<columns.count).map { (row[$0] as String?) ?? "" }
            totals[GroupKey(key)] = SessionTotal(sessions: row[columns.count], notJudged: row[columns.count + 1])
        }
        return totals
    }

    /// The result of an analyst's own `SELECT`, as a table every writer prints. Run it on a store opened
    /// read-only (`ResultsStore(readingAt:)`), so that it cannot change anything. Text is treated as log
    /// data (formula-escaped in CSV); integers stay numbers; reals print in their shortest form.
    public static func sql(_ db: Database, _ sql: String) throws -> HIGAuditCore.Table {
        let statement: Statement
        do {
            statement = try db.makeStatement(sql: sql)
        } catch let error as DatabaseError {
            throw StoreError.invalidQuery("--sql: \(error.message ?? "\(error)")")
        }
        guard statement.isReadonly else { throw StoreError.invalidQuery("--sql runs on a read-only store: only SELECT is allowed") }
        let names = statement.columnNames
        var rows: [[TableCell]] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            rows.append((0..<names.count).map { index -> TableCell in
                switch row[index] as DatabaseValue? {
                case nil: return .empty
                case let value?:
                    switch value.storage {
                    case .null: return .empty
                    case .int64(let number): return .integer(number)
                    case .double(let number): return .real(number)
                    case .string(let text): return .input(text)
                    case .blob(let data): return .label(data.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
                    }
                }
            })
        }
        return HIGAuditCore.Table(name: "sql", columns: names.map { TableColumn.text($0) }, rows: rows)
    }
}
