/// `slow-launch` (SPEC §3, launch rule): the first screen came long after the launch began.
///
/// The session's first `app.ready` more than `max_ms` after its first `session.start` is one
/// violation, from the `session.start` to the `app.ready`, sourced at the `app.ready`. Only the first
/// `app.ready` in `ts` order is judged. Rules see events in `ts` order, so when it arrives the session's
/// first `session.start` is either known (`SessionContext.launchTs`) or comes after it, which
/// is no slow launch; a session lacking either never violates. An importer's `synthetic` start is no
/// launch and is ignored (SPEC §2).
public struct SlowLaunchRule: SessionRule {
    public static let maxMs = RuleParameter(
        name: "max_ms", defaultValue: 2000, minimum: 0,
        summary: "How long after session.start the first app.ready may come, in milliseconds (inclusive)."
    )

    public static let identifier = "slow-launch"
    public static let interests = EventKindSet(.appReady)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Slow launch",
        summary: "The first screen becomes usable long after the app was launched.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .launching,
            guideline: "Launch quickly: the launch screen is replaced by the first screen almost at once.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "快速启动。避免显示启动屏幕、菜单和说明,那会需要更长时间才能访问内容并开始使用应用程序。"
            )
        ),
        parameters: [maxMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"↓{"ts":3001,"session":"s","type":"app.ready","screen":"home"}"#,
                #"{"ts":9000,"session":"s","type":"app.ready"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"↓{"ts":1101,"session":"s","type":"app.ready"}"#,
            ], parameters: ["max_ms": 100]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"{"ts":3000,"session":"s","type":"app.ready"}"#,
                #"{"ts":9000,"session":"s","type":"app.ready"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"app.ready"}"#,
                #"{"ts":2000,"session":"s","type":"session.start"}"#,
                #"{"ts":9000,"session":"s","type":"app.ready"}"#,
            ]),
            RuleExample([
                #"{"ts":9000,"session":"s","type":"app.ready"}"#,
            ]),
            // An importer's synthetic start is no launch.
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start","synthetic":true}"#,
                #"{"ts":9000,"session":"s","type":"app.ready"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        /// Whether the session's first `app.ready` has been judged.
        var judged = false

        public init() {}
    }

    let maxMs: Int64

    public init(configuration: AuditConfiguration) {
        maxMs = Self.value(of: Self.maxMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard !state.judged else { return }
        state.judged = true
        guard let startTs = session.launchTs else { return }
        let launch = event.ts.minus(startTs)
        guard launch > maxMs else { return }
        session.report(
            rule: Self.identifier, severity: .warning, source: event.source,
            startTs: startTs, endTs: event.ts,
            detail: DetailText("first screen ready \(launch) ms after launch (more than \(maxMs) ms)").string
        )
    }
}
