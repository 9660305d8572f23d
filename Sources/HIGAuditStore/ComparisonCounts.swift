import HIGAuditCore

/// What `compare` sets against the other side: a side's sessions and, per rule, how many of them
/// have at least one violation that counts.
public struct ComparisonCounts: Sendable, Equatable {
    public var sessions: Int64
    public var affected: [String: Int64]
    /// Per rule that did not judge every session of the side (a rule that needs every touch, SPEC §7
    /// "Touch coverage"), the sessions it judged: its rate is relative to those.
    public var judged: [String: Int64]

    public init(sessions: Int64, affected: [String: Int64], judged: [String: Int64] = [:]) {
        self.sessions = sessions
        self.affected = affected
        self.judged = judged
    }

    /// The sessions `rule` judged: its rate's denominator.
    public func sessions(judgedBy rule: String) -> Int64 {
        judged[rule] ?? sessions
    }
}

/// Every app version's counts from one `query --group-by app_version --group-by rule` table, so that
/// comparing each two consecutive versions reads the violations once instead of twice per version.
///
/// A version side takes every version that extends it (`VersionPrefix`), and the sum of those
/// versions' counts is the side's count: a session has one app version (the sessions table's key
/// is the session) and its violations carry it, so the versions' sessions, and their affected
/// sessions per rule, are disjoint sets.
public struct VersionCounts: Sendable {
    private var byVersion: [String: ComparisonCounts] = [:]

    /// `table` is `StoreQuery.grouped(db, by: [.appVersion, .rule])`: its `sessions_total` is the
    /// version's sessions that the row's rule judged, and it has a row for every recorded rule of every
    /// version with sessions. The version's sessions are the most any rule judged (the sessions of a rule
    /// that needs every touch leave out those whose log lacked some).
    public init(grouped table: HIGAuditCore.Table) {
        guard let version = table.columnIndex(named: GroupDimension.appVersion.rawValue),
              let rule = table.columnIndex(named: GroupDimension.rule.rawValue),
              let affected = table.columnIndex(named: "sessions_affected"),
              let total = table.columnIndex(named: "sessions_total")
        else { preconditionFailure("VersionCounts needs a table grouped by app_version and rule") }
        for row in table.rows {
            let key = row[version].plainText
            var counts = byVersion[key] ?? ComparisonCounts(sessions: 0, affected: [:])
            counts.sessions = max(counts.sessions, Self.integer(row[total]))
            counts.affected[row[rule].plainText] = Self.integer(row[affected])
            counts.judged[row[rule].plainText] = Self.integer(row[total])
            byVersion[key] = counts
        }
    }

    /// The counts of `ComparisonSide.version(version)`.
    public func side(_ version: String) -> ComparisonCounts {
        var sum = ComparisonCounts(sessions: 0, affected: [:])
        for (candidate, counts) in byVersion where VersionPrefix.matches(candidate, version) {
            sum.sessions += counts.sessions
            sum.affected.merge(counts.affected, uniquingKeysWith: +)
            sum.judged.merge(counts.judged, uniquingKeysWith: +)
        }
        return sum
    }

    private static func integer(_ cell: TableCell) -> Int64 {
        guard case .integer(let value) = cell else { preconditionFailure("a count cell holds an integer") }
        return value
    }
}
