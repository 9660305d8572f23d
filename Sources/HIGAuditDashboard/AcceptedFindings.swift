import HIGAuditCore

/// The page's "Accepted findings" section (SPEC §6): what the store's nightly runs suppressed, per
/// rule, with the `exclude:` entries and their reasons, and, with `--baseline`, how many violations
/// are new. Absent (nil in the model) when no run had exclusions and no baseline is given, so that
/// the page of a store without them is as it was.
public struct AcceptedFindings: Sendable, Equatable {
    /// Rules with suppressed or new violations, in rule-id order.
    public var rules: [AcceptedRule]
    /// The entries of the latest run that had any, in config order.
    public var exclusions: [AcceptedExclusion]
    /// The run those entries are from; nil when no run had entries.
    public var exclusionsRun: Int64?
    /// The `--baseline` file as given, when one was.
    public var baseline: String?
    public var baselinePairs: Int

    public init(
        rules: [AcceptedRule], exclusions: [AcceptedExclusion], exclusionsRun: Int64?, baseline: String?, baselinePairs: Int
    ) {
        self.rules = rules
        self.exclusions = exclusions
        self.exclusionsRun = exclusionsRun
        self.baseline = baseline
        self.baselinePairs = baselinePairs
    }
}

/// One rule's suppressed violations over the whole store, and its new ones against the baseline.
public struct AcceptedRule: Sendable, Equatable {
    public var rule: String
    public var suppressed: Int64
    /// Nil without a baseline.
    public var new: Int64?

    public init(rule: String, suppressed: Int64, new: Int64?) {
        self.rule = rule
        self.suppressed = suppressed
        self.new = new
    }
}

/// One `exclude:` entry as a run recorded it; every text comes from the config and is escaped
/// by the page as log data is.
public struct AcceptedExclusion: Sendable, Equatable {
    public var location: String
    public var rules: String
    public var screens: String
    public var appVersions: String
    public var until: String?
    public var inForce: Bool
    public var reason: String

    public init(location: String, rules: String, screens: String, appVersions: String, until: String?, inForce: Bool, reason: String) {
        self.location = ShortForm.bounded(location)
        self.rules = ShortForm.bounded(rules)
        self.screens = ShortForm.bounded(screens)
        self.appVersions = ShortForm.bounded(appVersions)
        self.until = until
        self.inForce = inForce
        self.reason = ShortForm.bounded(reason)
    }
}
