/// Everything a user can set about a run's semantics: the engine's time bounds and, per rule,
/// whether it runs and its parameters. The YAML file (`--config`) is read into this value at the edge.
public struct AuditConfiguration: Sendable, Equatable {
    /// How far out of order a session's events may arrive (SPEC §2).
    public var maxLatenessMs: Int64
    /// The most accepted events one session holds waiting to be put in order (SPEC §2): past it the
    /// earliest goes to the rules at once, and a later event older than one gone early is late.
    public var maxPendingEvents: Int
    /// Silence after which an open session closes (SPEC §2).
    public var sessionGapMs: Int64
    /// Incremental runs: a checkpointed session whose device sent no accepted event for this many runs
    /// in a row closes at the end of the last of them (SPEC §2).
    public var idleRuns: Int
    /// Overrides by rule id; a rule not listed runs with its defaults.
    public var rules: [String: RuleSettings]
    /// Accepted findings (`exclude:`), in config order. They never change what the engine finds, only
    /// what the tables count (`Suppression`).
    public var exclusions: [Exclusion]
    /// Per-screen rule settings (`overrides:`), in config order: they change how events are judged
    /// where the violation would be recorded on a matching screen (`ScreenOverride`).
    public var overrides: [ScreenOverride]
    /// How another tool's export is read (`import:`, SPEC §7): its tab roots and touch coverage.
    /// Read only by `import` and `--from`; native logs ignore it.
    public var importSettings = ImportSettings()

    public static let defaultMaxLatenessMs: Int64 = 10_000
    public static let defaultMaxPendingEvents = 100_000
    public static let defaultSessionGapMs: Int64 = 1_800_000
    public static let defaultIdleRuns = 7

    public init(
        maxLatenessMs: Int64 = AuditConfiguration.defaultMaxLatenessMs,
        sessionGapMs: Int64 = AuditConfiguration.defaultSessionGapMs,
        idleRuns: Int = AuditConfiguration.defaultIdleRuns,
        rules: [String: RuleSettings] = [:],
        exclusions: [Exclusion] = [],
        overrides: [ScreenOverride] = [],
        maxPendingEvents: Int = AuditConfiguration.defaultMaxPendingEvents
    ) {
        self.maxPendingEvents = maxPendingEvents
        self.maxLatenessMs = maxLatenessMs
        self.sessionGapMs = sessionGapMs
        self.idleRuns = idleRuns
        self.rules = rules
        self.exclusions = exclusions
        self.overrides = overrides
    }

    public func isEnabled(_ description: RuleDescription) -> Bool {
        rules[description.identifier]?.enabled ?? true
    }

    /// The value of a parameter: the override if there is one, else the rule's default.
    public func value(of parameter: RuleParameter, for description: RuleDescription) -> Int64 {
        rules[description.identifier]?.parameters[parameter.name] ?? parameter.defaultValue
    }
}

/// One rule's overrides from the config file.
public struct RuleSettings: Sendable, Equatable {
    public var enabled: Bool?
    public var parameters: [String: Int64]

    public init(enabled: Bool? = nil, parameters: [String: Int64] = [:]) {
        self.enabled = enabled
        self.parameters = parameters
    }
}
