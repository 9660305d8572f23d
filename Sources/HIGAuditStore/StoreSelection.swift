import GRDB
import HIGAuditCore

/// Which part of the store a question is about: the `TableFilter` of `analyze` (same meaning: session
/// filters choose the population, violation filters the violations counted) plus what only the store
/// knows, the run that closed a session and the severity a violation was recorded with.
public struct StoreSelection: Sendable, Equatable {
    public var filter: TableFilter
    /// Violations of these severities only (violation filter).
    public var severities: Set<Severity>
    /// Sessions closed by these runs only (session filter).
    public var runs: Set<Int64>

    public init(filter: TableFilter = .none, severities: Set<Severity> = [], runs: Set<Int64> = []) {
        self.filter = filter
        self.severities = severities
        self.runs = runs
    }

    public static let everything = StoreSelection()

    /// SQL conditions on the sessions table (alias `s`) choosing the population.
    func sessionConditions() -> (sql: [String], arguments: StatementArguments) {
        var sql: [String] = []
        var arguments = StatementArguments()
        Self.versions("s.app_version", filter.appVersions, &sql, &arguments)
        Self.member("s.device", filter.devices, &sql, &arguments)
        Self.member("s.session", filter.sessions, &sql, &arguments)
        Self.member("s.run_id", Set(runs.map { String($0) }), &sql, &arguments, cast: true)
        if let since = filter.since {
            sql.append("s.last_ts >= ?")
            _ = arguments.append(contentsOf: [since])
        }
        if let until = filter.until {
            // With both bounds (an overlap), the index on first_ts answers only `first_ts < until`,
            // which for a recent window is nearly every session, each then looked up for its
            // last_ts; reading the table once and testing both bounds per row is several times
            // cheaper. `+` keeps the planner off the index.
            sql.append(filter.since == nil ? "s.first_ts < ?" : "+s.first_ts < ?")
            _ = arguments.append(contentsOf: [until])
        }
        return (sql, arguments)
    }

    /// SQL conditions on the violations table (alias `v`) for the violations that count, the session
    /// population included (through the copies of the session's labels on each violation). A violation
    /// its run suppressed (SPEC §6, migration v3) never counts here.
    func violationConditions(_ db: Database) throws -> (sql: [String], arguments: StatementArguments) {
        var sql: [String] = try StoreSchema.recordsJudgements(db) ? ["v.suppressed = 0"] : []
        var arguments = StatementArguments()
        Self.member("v.rule", filter.rules, &sql, &arguments)
        Self.member("v.severity", Set(severities.map(\.rawValue)), &sql, &arguments)
        Self.member("v.screen", filter.screens, &sql, &arguments)
        Self.versions("v.app_version", filter.appVersions, &sql, &arguments)
        Self.member("v.device", filter.devices, &sql, &arguments)
        Self.member("v.session", filter.sessions, &sql, &arguments)
        Self.member("v.run_id", Set(runs.map { String($0) }), &sql, &arguments, cast: true)
        if let since = filter.since {
            sql.append("v.start_ts >= ?")
            _ = arguments.append(contentsOf: [since])
        }
        if let until = filter.until {
            sql.append("v.start_ts < ?")
            _ = arguments.append(contentsOf: [until])
        }
        return (sql, arguments)
    }

    /// Whether a stored violation of an admitted session counts (the same test in Swift).
    func admits(_ violation: Violation) -> Bool {
        guard filter.admitsViolation(rule: violation.rule, screen: violation.screen, startTs: violation.startTs) else {
            return false
        }
        return severities.isEmpty || severities.contains(violation.severity)
    }

    /// `column` matches one of `versions` by whole components, as `VersionPrefix.matches` does.
    static func versions(_ column: String, _ versions: Set<String>, _ sql: inout [String], _ arguments: inout StatementArguments) {
        guard !versions.isEmpty else { return }
        var alternatives: [String] = []
        for version in versions.sorted() {
            // "Starts with VERSION." as a range of the column's binary order, VERSION. ≤ x < VERSION/
            // ('/' follows '.'), which the indexes on app_version answer; a UTF-8 prefix is a byte prefix.
            alternatives.append("\(column) = ? OR (\(column) >= ? AND \(column) < ?)")
            _ = arguments.append(contentsOf: [version, version + ".", version + "/"])
        }
        sql.append("(" + alternatives.joined(separator: " OR ") + ")")
    }

    private static func member(
        _ column: String, _ values: Set<String>, _ sql: inout [String], _ arguments: inout StatementArguments,
        cast: Bool = false
    ) {
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        sql.append("\(column) IN (\(sorted.map { _ in "?" }.joined(separator: ", ")))")
        for value in sorted {
            if cast, let number = Int64(value) {
                _ = arguments.append(contentsOf: [number])
            } else {
                _ = arguments.append(contentsOf: [value])
            }
        }
    }
}

extension Array where Element == String {
    /// `WHERE a AND b` or nothing.
    var whereClause: String { isEmpty ? "" : "WHERE " + joined(separator: " AND ") }
}
