/// `loading-without-indicator` (SPEC §3, further rule): a long load that shows nothing.
///
/// A `loading.start` with indicator `none` whose first later `loading.end` of the same `id` comes more
/// than `max_ms` after it, or never comes, is one violation sourced at the start, ending at the
/// `loading.end` (or the session's last `ts`). Several open starts of one id all end at its next end.
public struct LoadingWithoutIndicatorRule: SessionRule {
    public static let maxMs = RuleParameter(
        name: "max_ms", defaultValue: 1000, minimum: 0,
        summary: "How long a load may run without an indicator, in milliseconds."
    )

    public static let identifier = "loading-without-indicator"
    public static let interests = EventKindSet(.loadingStart, .loadingEnd)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Loading without indicator",
        summary: "Content loading for longer than a moment without any activity indicator.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .loading,
            guideline: "Make loading obvious: show at least an activity indicator while content loads.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "加载时确保其清晰可见。至少显示一个活动转轮表示活动正在进行"
            )
        ),
        parameters: [maxMs],
        triggeringExamples: [
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"loading.start","id":"feed","indicator":"none"}"#,
                #"{"ts":2001,"session":"s","type":"loading.end","id":"feed"}"#,
            ]),
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"loading.start","id":"feed","indicator":"none"}"#,
                #"{"ts":1200,"session":"s","type":"loading.end","id":"other"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"loading.start","id":"feed","indicator":"none"}"#,
                #"{"ts":2000,"session":"s","type":"loading.end","id":"feed"}"#,
                #"{"ts":3000,"session":"s","type":"loading.start","id":"feed","indicator":"spinner"}"#,
            ]),
        ],
        isRequired: false
    )

    struct OpenLoad: Codable, Sendable, Equatable {
        var id: String
        var ts: Int64
        var source: SourceLocation
        var screen: String
    }

    public struct State: RuleState {
        /// Indicator-less loads still waiting for their `loading.end`.
        var open: [OpenLoad] = []

        public init() {}
    }

    let maxMs: Int64

    public init(configuration: AuditConfiguration) {
        maxMs = Self.value(of: Self.maxMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case let .loadingStart(id, .none):
            state.open.append(OpenLoad(id: id, ts: event.ts, source: event.source, screen: session.screen))
        case let .loadingEnd(id):
            guard state.open.contains(where: { $0.id == id }) else { return }
            // Each start is judged with the `max_ms` where it was made (SPEC §6), not where it ended.
            for load in state.open where load.id == id {
                let values = screens.at(load.screen)
                if event.ts.minus(load.ts) > values.maxMs { values.report(load, endTs: event.ts, ended: true, in: &session) }
            }
            state.open.removeAll { $0.id == id }
        default:
            break
        }
    }

    public func finish(state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        for load in state.open { report(load, endTs: session.lastTs, ended: false, in: &session) }
        state.open.removeAll()
    }

    private func report(_ load: OpenLoad, endTs: Int64, ended: Bool, in session: inout SessionContext) {
        let detail = ended
            ? DetailText("loading \(load.id) took \(endTs.minus(load.ts)) ms with no indicator (more than \(maxMs) ms)").string
            : DetailText("loading \(load.id) shows no indicator and never ended").string
        session.report(
            rule: Self.identifier, severity: .warning, source: load.source, screen: load.screen,
            startTs: load.ts, endTs: endTs, detail: detail
        )
    }
}
