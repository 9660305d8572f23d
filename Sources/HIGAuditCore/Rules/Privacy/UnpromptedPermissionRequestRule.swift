/// `unprompted-permission-request` (SPEC §3, permission rule): a permission prompt nobody asked for.
///
/// A `permission.request` whose `result` is not `already_decided` (a prompt the system showed, or may
/// have) violates unless a `touch` of phase `ended` came before it in the session within
/// `user_window_ms` (inclusive): people asked for the feature that needs the data. Only the latest
/// such touch matters, and a touch may justify any number of requests.
public struct UnpromptedPermissionRequestRule: SessionRule {
    public static let userWindowMs = RuleParameter(
        name: "user_window_ms", defaultValue: 2000, minimum: 0,
        summary: "How long before a permission request a finished touch still counts as the person asking, in milliseconds (inclusive)."
    )

    public static let identifier = "unprompted-permission-request"
    public static let interests = EventKindSet(.permissionRequest).union(.touches(.ended))

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Unprompted permission request",
        summary: "A permission prompt that no action of the person led to, such as one at launch.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .privacy,
            guideline: "Ask for personal data only when a feature that people are using clearly needs it.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "确保权限请求仅在用户使用时,明确需要个人数据的功能时才会发生。"
            )
        ),
        parameters: [userWindowMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"↓{"ts":1200,"session":"s","type":"permission.request","permission":"tracking","result":"denied"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"touch","phase":"ended","target":"button:map"}"#,
                #"↓{"ts":3001,"session":"s","type":"permission.request","permission":"location"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"touch","phase":"began","target":"button:map"}"#,
                #"↓{"ts":1100,"session":"s","type":"permission.request","permission":"location","result":"granted"}"#,
                #"{"ts":1100,"session":"s","type":"touch","phase":"ended","target":"button:map"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"touch","phase":"ended","target":"button:scan"}"#,
                #"{"ts":3000,"session":"s","type":"permission.request","permission":"camera","result":"granted"}"#,
                #"{"ts":3000,"session":"s","type":"permission.request","permission":"microphone","result":"denied"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start"}"#,
                #"{"ts":1100,"session":"s","type":"permission.request","permission":"notifications","result":"already_decided"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"session.start","touches":"none"}"#,
                #"{"ts":1200,"session":"s","type":"permission.request","permission":"tracking","result":"denied"}"#,
            ]),
        ],
        isRequired: false,
        needsEveryTouch: true
    )

    public struct State: RuleState {
        /// `ts` of the session's latest `touch` with phase `ended` so far.
        var latestEndedTouchTs: Int64?

        public init() {}
    }

    let userWindowMs: Int64

    public init(configuration: AuditConfiguration) {
        userWindowMs = Self.value(of: Self.userWindowMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case .touch:
            state.latestEndedTouchTs = event.ts
        case let .permissionRequest(permission, result):
            guard result != .alreadyDecided else { return }
            let detail: String
            if let touchTs = state.latestEndedTouchTs {
                let gap = event.ts.minus(touchTs)
                guard gap > userWindowMs else { return }
                detail = DetailText("\(permission.rawValue) permission requested \(gap) ms after the last touch (more than \(userWindowMs) ms)").string
            } else {
                detail = DetailText("\(permission.rawValue) permission requested before any touch").string
            }
            session.report(
                rule: Self.identifier, severity: .warning, source: event.source,
                startTs: event.ts, endTs: event.ts, detail: detail
            )
        default:
            break
        }
    }
}
