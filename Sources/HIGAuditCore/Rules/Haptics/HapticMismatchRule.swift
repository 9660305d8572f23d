/// `haptic-mismatch` (SPEC §3, further rule): a notification haptic that contradicts the outcome next to it.
///
/// A `notification.success` haptic within `window_ms` (inclusive, before or after) of an `outcome`
/// `failure`, or a `notification.error`/`notification.warning` haptic within it of an `outcome`
/// `success`, is one violation per haptic. Looking "after" needs no engine lookahead: the rule sees
/// events in `ts` order, so it keeps the recent unmatched haptics and reports one when a contradicting
/// outcome arrives within the window (with the screen remembered for the haptic).
public struct HapticMismatchRule: SessionRule {
    public static let windowMs = RuleParameter(
        name: "window_ms", defaultValue: 300, minimum: 0,
        summary: "How close, in milliseconds and in either direction, a haptic and an outcome belong together (inclusive)."
    )

    public static let identifier = "haptic-mismatch"
    public static let interests = EventKindSet(.haptic, .outcome)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Haptic mismatch",
        summary: "A success haptic next to a failure, or a warning/error haptic next to a success.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .playingHaptics,
            guideline: "Use system haptics according to their documented meaning; the same pattern for success and failure confuses people.",
            origin: SeedOrigin(
                file: "001_a5135006b5b70e41.txt",
                quote: "Les gens reconnaissent les haptiques définies par le système, il est donc important de les utiliser conformément à leurs significations documentées."
            )
        ),
        parameters: [windowMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"outcome","result":"failure","task":"upload"}"#,
                #"↓{"ts":1300,"session":"s","type":"haptic","kind":"notification.success"}"#,
            ]),
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"haptic","kind":"notification.error"}"#,
                #"{"ts":1300,"session":"s","type":"outcome","result":"success"}"#,
                #"{"ts":1300,"session":"s","type":"outcome","result":"success"}"#,
            ]),
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"haptic","kind":"notification.warning"}"#,
                #"{"ts":1000,"session":"s","type":"outcome","result":"success"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"outcome","result":"failure"}"#,
                #"{"ts":1301,"session":"s","type":"haptic","kind":"notification.success"}"#,
                #"{"ts":1302,"session":"s","type":"haptic","kind":"notification.error"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"haptic","kind":"notification.success"}"#,
                #"{"ts":1100,"session":"s","type":"outcome","result":"success"}"#,
                #"{"ts":1150,"session":"s","type":"outcome","result":"warning"}"#,
                #"{"ts":1200,"session":"s","type":"haptic","kind":"impact.heavy"}"#,
                #"{"ts":1601,"session":"s","type":"outcome","result":"failure"}"#,
            ]),
        ],
        isRequired: false
    )

    /// What a notification haptic says, and what it contradicts.
    enum Meaning: UInt8, Codable, Sendable {
        case success, trouble

        init?(_ kind: HapticKind) {
            switch kind {
            case .notificationSuccess: self = .success
            case .notificationError, .notificationWarning: self = .trouble
            default: return nil
            }
        }

        func contradicts(_ result: OutcomeResult) -> Bool {
            switch self {
            case .success: result == .failure
            case .trouble: result == .success
            }
        }
    }

    struct RecentOutcome: Codable, Sendable, Equatable {
        var ts: Int64
        var result: OutcomeResult
    }

    struct PendingHaptic: Codable, Sendable, Equatable {
        var ts: Int64
        var kind: HapticKind
        var meaning: Meaning
        var source: SourceLocation
        var screen: String
    }

    public struct State: RuleState {
        /// Success and failure outcomes of the last `window_ms`.
        var outcomes: [RecentOutcome] = []
        /// Notification haptics of the last `window_ms` not reported yet.
        var haptics: [PendingHaptic] = []

        public init() {}
    }

    let windowMs: Int64

    public init(configuration: AuditConfiguration) {
        windowMs = Self.value(of: Self.windowMs, in: configuration)
    }

    /// A haptic is judged with the `window_ms` at its own screen (SPEC §6), also when the outcome that
    /// contradicts it comes later on another screen; outcomes and haptics are kept for the widest window.
    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        let oldest = event.ts.minus(screens.widest.windowMs)
        if let first = state.outcomes.first, first.ts < oldest { state.outcomes.removeAll { $0.ts < oldest } }
        if let first = state.haptics.first, first.ts < oldest { state.haptics.removeAll { $0.ts < oldest } }

        switch event.payload {
        case .haptic(let kind, _):
            guard let meaning = Meaning(kind) else { return }
            // Outcomes are in ts order: if the latest contradicting one is out of this haptic's window,
            // every earlier one is too.
            if let outcome = state.outcomes.last(where: { meaning.contradicts($0.result) }),
               outcome.ts >= event.ts.minus(windowMs) {
                report(kind, at: event.ts, source: event.source, screen: session.screen,
                       outcome: outcome.result, outcomeTs: outcome.ts, in: &session)
            } else {
                state.haptics.append(PendingHaptic(
                    ts: event.ts, kind: kind, meaning: meaning, source: event.source, screen: session.screen
                ))
            }
        case .outcome(let result, _):
            guard result != .warning else { return }
            state.outcomes.append(RecentOutcome(ts: event.ts, result: result))
            guard state.haptics.contains(where: { $0.meaning.contradicts(result) }) else { return }
            var reported: [Int] = []
            for (index, haptic) in state.haptics.enumerated() where haptic.meaning.contradicts(result)
                && haptic.ts >= event.ts.minus(screens.at(haptic.screen).windowMs) {
                report(haptic.kind, at: haptic.ts, source: haptic.source, screen: haptic.screen,
                       outcome: result, outcomeTs: event.ts, in: &session)
                reported.append(index)
            }
            for index in reported.reversed() { state.haptics.remove(at: index) }
        default:
            break
        }
    }

    private func report(
        _ kind: HapticKind, at ts: Int64, source: SourceLocation, screen: String,
        outcome: OutcomeResult, outcomeTs: Int64, in session: inout SessionContext
    ) {
        let distance = outcomeTs >= ts ? DetailText("\(outcomeTs.minus(ts)) ms before").string : DetailText("\(ts.minus(outcomeTs)) ms after").string
        session.report(
            rule: Self.identifier, severity: .warning, source: source, screen: screen,
            startTs: ts, endTs: ts, detail: DetailText("\(kind.rawValue) haptic \(distance) a \(outcome.rawValue) outcome").string
        )
    }
}
