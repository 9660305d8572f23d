/// The narrowing of an ad-hoc question ("which screens force tab switches in 5.2?"): which sessions
/// and which violations the tables count.
///
/// An empty set means "any". Filters split into two groups, because a rate needs a denominator:
/// - **session filters** (`appVersions`, `devices`, `sessions`, and `since`/`until` as an overlap
///   test) choose the session *population*: they restrict `sessions_total`, the `haptics` table and
///   the violations counted;
/// - **violation filters** (`rules`, `screens`, and `since`/`until` on `start_ts`) only choose which
///   violations count; a session outside them still counts in `sessions_total`.
/// An app version matches by whole components (`VersionPrefix`: `5.2` is 5.2, 5.2.0, 5.2.1, not 5.20).
/// `rules` also limits the rows of `summary` and `by_version` to those rules. The `ingest` table
/// describes the input and is never filtered.
///
/// Times are half-open, `since ≤ t < until`, so consecutive nightly windows never count a violation
/// twice. A session is in the population when its events overlap the window
/// (`first_ts < until` and `last_ts ≥ since`); its haptics count whole.
public struct TableFilter: Sendable, Equatable {
    public var rules: Set<String>
    public var appVersions: Set<String>
    public var screens: Set<String>
    public var sessions: Set<String>
    public var devices: Set<String>
    /// Inclusive lower bound in milliseconds since the epoch.
    public var since: Int64?
    /// Exclusive upper bound in milliseconds since the epoch.
    public var until: Int64?

    public init(
        rules: Set<String> = [], appVersions: Set<String> = [], screens: Set<String> = [],
        sessions: Set<String> = [], devices: Set<String> = [], since: Int64? = nil, until: Int64? = nil
    ) {
        self.rules = rules
        self.appVersions = appVersions
        self.screens = screens
        self.sessions = sessions
        self.devices = devices
        self.since = since
        self.until = until
    }

    /// No restriction at all.
    public static let none = TableFilter()

    /// Whether a session belongs to the population the tables describe.
    public func admitsSession(session: String, device: String, appVersion: String, firstTs: Int64, lastTs: Int64) -> Bool {
        if !sessions.isEmpty, !sessions.contains(session) { return false }
        if !devices.isEmpty, !devices.contains(device) { return false }
        if !appVersions.isEmpty, !appVersions.contains(where: { VersionPrefix.matches(appVersion, $0) }) { return false }
        if let since, lastTs < since { return false }
        if let until, firstTs >= until { return false }
        return true
    }

    public func admitsSession(_ report: SessionReport) -> Bool {
        admitsSession(
            session: report.session, device: report.device, appVersion: report.appVersion,
            firstTs: report.firstTs, lastTs: report.lastTs
        )
    }

    /// Whether a violation of an admitted session counts.
    public func admitsViolation(rule: String, screen: String, startTs: Int64) -> Bool {
        if !admitsRule(rule) { return false }
        if !screens.isEmpty, !screens.contains(screen) { return false }
        if let since, startTs < since { return false }
        if let until, startTs >= until { return false }
        return true
    }

    public func admitsRule(_ rule: String) -> Bool { rules.isEmpty || rules.contains(rule) }
}
