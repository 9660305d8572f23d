/// One entry of the config's `exclude:` list (SPEC §6): violations a team has accepted, with why.
///
/// A violation matches when its rule is listed (or the entry lists every rule) and, for each of
/// `screens` and `appVersions` that the entry gives, one of its values matches. An entry applies up to
/// and including its `until` day, so that an accepted finding comes back by itself when its time is up.
public struct Exclusion: Sendable, Equatable {
    /// The rule ids, or nil for every rule (`rules: "*"`).
    public var rules: Set<String>?
    /// Screen patterns, or nil for every screen.
    public var screens: [ScreenGlob]?
    /// App-version prefixes by whole components (`VersionPrefix`), or nil for every version.
    public var appVersions: [String]?
    /// Why these violations are accepted: required, so that nothing is hidden without a word.
    public var reason: String
    /// The last day the entry applies, UTC; nil for always.
    public var until: CalendarDay?
    /// Where the entry is written (`hig-audit.yml:12`), for the message when it expires.
    public var location: String

    public init(
        rules: Set<String>?, screens: [ScreenGlob]? = nil, appVersions: [String]? = nil, reason: String,
        until: CalendarDay? = nil, location: String = ""
    ) {
        self.rules = rules
        self.screens = screens
        self.appVersions = appVersions
        self.reason = reason
        self.until = until
        self.location = location
    }

    /// Whether the entry still applies on `day`: every day up to and including `until`.
    public func applies(on day: CalendarDay) -> Bool {
        until.map { day <= $0 } ?? true
    }

    /// Whether a violation of `rule` on `screen` in a session of `appVersion` is one this entry names.
    public func matches(rule: String, screen: String, appVersion: String) -> Bool {
        if let rules, !rules.contains(rule) { return false }
        if let screens, !screens.contains(where: { $0.matches(screen) }) { return false }
        if let appVersions, !appVersions.contains(where: { VersionPrefix.matches(appVersion, $0) }) { return false }
        return true
    }
}

/// The exclusions of one run, judged on the day the run started: which violations are suppressed,
/// and whether the config has `exclude:` entries at all (only then does `summary` show its
/// `suppressed` column, so that the tables of a config without the key stay as they were).
public struct Suppression: Sendable, Equatable {
    /// Whether the config lists any exclusion, expired or not.
    public let hasEntries: Bool
    /// The entries in force on the run's day.
    public let active: [Exclusion]
    /// The entries whose `until` has passed: each is said once per run.
    public let expired: [Exclusion]

    /// No exclusions: nothing is suppressed and the tables have no `suppressed` column.
    public static let none = Suppression([], today: CalendarDay(utcMilliseconds: 0))

    public init(_ exclusions: [Exclusion], today: CalendarDay) {
        hasEntries = !exclusions.isEmpty
        active = exclusions.filter { $0.applies(on: today) }
        expired = exclusions.filter { !$0.applies(on: today) }
    }

    /// The exclusions of violations judged earlier, by the nightly run that recorded them: nothing is
    /// judged again (each violation carries its run's verdict), and `summary` has its `suppressed`
    /// column when any of those runs had `exclude:` entries.
    public init(judgedEarlierWithEntries hasEntries: Bool) {
        self.hasEntries = hasEntries
        active = []
        expired = []
    }

    /// Whether a violation is suppressed by an entry in force.
    public func suppresses(rule: String, screen: String, appVersion: String) -> Bool {
        !active.isEmpty && active.contains { $0.matches(rule: rule, screen: screen, appVersion: appVersion) }
    }

    /// What the run says about each expired entry, in config order.
    public var expiryNotes: [String] {
        expired.compactMap { entry in
            entry.until.map { "the exclusion at \(entry.location) expired after \($0) (its until); it no longer suppresses anything" }
        }
    }
}
