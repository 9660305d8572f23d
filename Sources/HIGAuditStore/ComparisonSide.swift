import GRDB
import HIGAuditCore

/// One side of `compare`: the sessions whose rates are set against the other side's.
///
/// Each kind chooses its sessions as `query` would with the matching filter (`StoreSelection`): an app
/// version by whole components (`5.2` is 5.2, 5.2.0, 5.2.1), a period as an overlap (a session counts
/// when its events overlap `since ≤ t < until`, and only violations starting inside the period count),
/// a run by the sessions it closed. A session that spans the boundary of two periods counts in both.
public enum ComparisonSide: Sendable, Equatable, CustomStringConvertible {
    case version(String)
    /// Half-open, milliseconds since the epoch; a missing bound leaves that end open.
    case period(since: Int64?, until: Int64?)
    case run(Int64)

    /// Milliseconds in a UTC day (no leap seconds in Unix time).
    public static let dayMs: Int64 = 86_400_000

    /// The UTC day starting at `midnight` (milliseconds since the epoch).
    public static func day(startingAt midnight: Int64) -> ComparisonSide {
        .period(since: midnight, until: midnight + dayMs)
    }

    /// The store selection that chooses this side's sessions and the violations that count.
    var selection: StoreSelection {
        switch self {
        case .version(let version): StoreSelection(filter: TableFilter(appVersions: [version]))
        case .period(let since, let until): StoreSelection(filter: TableFilter(since: since, until: until))
        case .run(let id): StoreSelection(runs: [id])
        }
    }

    public var description: String {
        switch self {
        case .version(let version): "app version '\(version)'"
        case .period(let since, let until):
            "the period \(since.map(TimestampFormatter.rfc3339) ?? "(open)") ≤ t < \(until.map(TimestampFormatter.rfc3339) ?? "(open)")"
        case .run(let id): "run \(id)"
        }
    }

    /// The app versions of this side's sessions with the sessions of each, in version order: what
    /// `compare` says before its table, since a version side takes every version extending it
    /// (`--base 5.2` is 5.2.0 and 5.2.1), and how it finds two version sides that share a version.
    public func versions(_ db: Database) throws -> [SideVersion] {
        let (sql, arguments) = selection.sessionConditions()
        let rows = try Row.fetchAll(
            db, sql: "SELECT s.app_version, COUNT(*) FROM sessions s \(sql.whereClause) GROUP BY s.app_version",
            arguments: arguments)
        return rows.map { SideVersion(version: $0[0] ?? "", sessions: $0[1]) }
            .sorted { VersionOrder.areInIncreasingOrder($0.version, $1.version) }
    }

    /// The sessions of this side and, per rule, those affected; the rules that need every touch judged
    /// only the sessions whose log held every touch (SPEC §7 "Touch coverage").
    func counts(_ db: Database) throws -> ComparisonCounts {
        let sessions = try sessionCount(db)
        let notJudged = try incompleteSessionCount(db)
        var judged: [String: Int64] = [:]
        if notJudged > 0 {
            for rule in RuleRegistry.descriptions where rule.needsEveryTouch { judged[rule.identifier] = sessions - notJudged }
        }
        return ComparisonCounts(sessions: sessions, affected: try affectedCounts(db), judged: judged)
    }

    /// The sessions of this side whose log lacked some touches (0 in a store made before migration v6).
    func incompleteSessionCount(_ db: Database) throws -> Int64 {
        guard try StoreSchema.recordsTouches(db) else { return 0 }
        var (conditions, arguments) = selection.sessionConditions()
        conditions.append("s.touches <> 'all'")
        return try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions s \(conditions.whereClause)", arguments: arguments) ?? 0
    }

    /// The sessions of this side.
    func sessionCount(_ db: Database) throws -> Int64 {
        let (sql, arguments) = selection.sessionConditions()
        return try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions s \(sql.whereClause)", arguments: arguments) ?? 0
    }

    /// Per rule, the sessions of this side with at least one violation that counts. A violation
    /// carries its session's version and closing run, and starts within its session's events, so
    /// every session counted here is one of `sessionCount`'s.
    func affectedCounts(_ db: Database) throws -> [String: Int64] {
        let (sql, arguments) = try selection.violationConditions(db)
        var counts: [String: Int64] = [:]
        for row in try Row.fetchAll(
            // `+v.rule`: grouping by the bare column makes SQLite walk the rule index over every
            // violation to spare a sort; searching the side's own index and sorting its rows is far cheaper.
            db, sql: "SELECT v.rule, COUNT(DISTINCT v.session) FROM violations v \(sql.whereClause) GROUP BY +v.rule",
            arguments: arguments) {
            counts[row[0]] = row[1]
        }
        return counts
    }

    /// Why this side has no sessions, naming what the store does have.
    func emptyExplanation(_ db: Database) throws -> String {
        switch self {
        case .version(let version):
            return "the store has no sessions of app version '\(version)' (or one extending it); "
                + (try ReleaseComparison.closestVersions(db, to: version))
        case .period:
            let span = try Row.fetchOne(db, sql: "SELECT MIN(first_ts), MAX(last_ts) FROM sessions")
            let first: Int64? = span?[0], last: Int64? = span?[1]
            guard let first, let last else { return "the store has no sessions in \(self): the store has no sessions yet" }
            return "the store has no sessions in \(self); its sessions span \(TimestampFormatter.rfc3339(first)) to \(TimestampFormatter.rfc3339(last))"
        case .run(let id):
            let runs = try Int64.fetchAll(db, sql: "SELECT DISTINCT run_id FROM sessions ORDER BY run_id")
            let known = switch runs.count {
            case 0: "no run has closed a session yet"
            case 1...10: "runs that closed sessions: " + runs.map(String.init).joined(separator: ", ")
            default: "runs that closed sessions: \(runs.first!) to \(runs.last!), not all of them"
            }
            return "the store has no sessions closed by run \(id); \(known)"
        }
    }
}

/// One app version of a side of `compare`, and how many of the side's sessions are of it.
public struct SideVersion: Sendable, Equatable, CustomStringConvertible {
    public var version: String
    public var sessions: Int64

    public init(version: String, sessions: Int64) {
        self.version = version
        self.sessions = sessions
    }

    public var description: String { "\(version.isEmpty ? "(no version)" : version) (\(sessions) sessions)" }
}
