/// `early-rating-prompt` (SPEC §3, rating rule): asking for a rating too early or too often.
///
/// Prompts are numbered 1, 2, … in the session's `ts` order. A prompt violates when it comes less than
/// `min_session_ms` after the session's first `session.start`, or when it is not the session's first
/// prompt; `count` is its number. "After" is in the session's order: a prompt before the session's
/// first `session.start` (or in a session without one) is judged by the repetition part alone.
public struct EarlyRatingPromptRule: SessionRule {
    public static let minSessionMs = RuleParameter(
        name: "min_session_ms", defaultValue: 60000, minimum: 0,
        summary: "How long after session.start a rating prompt may first appear, in milliseconds (earlier violates)."
    )

    public static let identifier = "early-rating-prompt"
    public static let interests = EventKindSet(.ratingPrompt)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Early rating prompt",
        summary: "A rating prompt in the first minute of a session, or a second one in the same session.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .ratingsAndReviews,
            guideline: "Don't ask people to rate the app too early or too often.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "不要过快或过频繁地要求用户评价应用程序。"
            )
        ),
        parameters: [minSessionMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"↓{"ts":60999,"session":"s","type":"rating.prompt"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"{"ts":61000,"session":"s","type":"rating.prompt"}"#,
                #"↓{"ts":200000,"session":"s","type":"rating.prompt"}"#,
            ]),
            RuleExample([
                #"{"ts":5000,"session":"s","type":"rating.prompt"}"#,
                #"↓{"ts":5000,"session":"s","type":"rating.prompt"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"{"ts":61000,"session":"s","type":"rating.prompt"}"#,
            ]),
            RuleExample([
                #"{"ts":5000,"session":"s","type":"rating.prompt"}"#,
            ]),
            // An importer's synthetic start is no launch: only the repetition part applies.
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start","synthetic":true}"#,
                #"{"ts":2000,"session":"s","type":"rating.prompt"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        /// Rating prompts seen so far in the session.
        var prompts = 0

        public init() {}
    }

    let minSessionMs: Int64

    public init(configuration: AuditConfiguration) {
        minSessionMs = Self.value(of: Self.minSessionMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        state.prompts += 1
        let number = state.prompts
        let detail: String
        if number > 1 {
            detail = DetailText("rating prompt number \(number) in this session").string
        } else if let startTs = session.launchTs, event.ts.minus(startTs) < minSessionMs {
            detail = DetailText("rating prompt \(event.ts.minus(startTs)) ms after launch (less than \(minSessionMs) ms)").string
        } else {
            return
        }
        session.report(
            rule: Self.identifier, severity: .warning, source: event.source,
            startTs: event.ts, endTs: event.ts, count: number, detail: detail
        )
    }
}
