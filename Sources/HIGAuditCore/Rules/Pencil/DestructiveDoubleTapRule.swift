/// `destructive-double-tap` (SPEC §3, required): content changed right after an Apple Pencil double-tap.
///
/// A `content.mutation` at most `window_ms` after the session's latest `pencil.double_tap` (inclusive),
/// with no `touch` of phase `began` in between, is one violation: from the double-tap to the mutation,
/// sourced at the mutation, an `error` when the mutation cannot be undone and a `warning` otherwise.
/// The double-tap's location is kept in `Violation.related` so the detail can name it as `PATH:LINE`.
public struct DestructiveDoubleTapRule: SessionRule {
    public static let windowMs = RuleParameter(
        name: "window_ms", defaultValue: 500, minimum: 0,
        summary: "How long after a double-tap a content change is attributed to it, in milliseconds (inclusive)."
    )

    public static let identifier = "destructive-double-tap"
    /// Only a touch that begins matters (it breaks the link between a double-tap and a change).
    public static let interests = EventKindSet(.pencilDoubleTap, .contentMutation).union(.touches(.began))

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Destructive double-tap",
        summary: "Content changed right after an Apple Pencil double-tap, with no touch in between.",
        severity: .error,
        citation: GuidelineCitation(
            page: .applePencilAndScribble,
            guideline: "Never use the Apple Pencil double-tap gesture to perform an action that changes content.",
            origin: SeedOrigin(
                file: "004_4db11df21ef2440e.txt",
                quote: "Никогда не используйте жест двойного касания для выполнения действия, которое изменяет контент."
            )
        ),
        parameters: [windowMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"custom:clear_canvas"}"#,
                #"↓{"ts":1500,"session":"s","type":"content.mutation","action":"clear","object":"canvas","undoable":false}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
                #"{"ts":1000,"session":"s","type":"touch","phase":"ended"}"#,
                #"↓{"ts":1100,"session":"s","type":"content.mutation","action":"delete","object":"stroke"}"#,
                #"↓{"ts":1200,"session":"s","type":"content.mutation","action":"insert","object":"stroke"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
                #"{"ts":1501,"session":"s","type":"content.mutation","action":"delete","object":"stroke"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
                #"{"ts":1100,"session":"s","type":"touch","phase":"began","input":"pencil"}"#,
                #"{"ts":1200,"session":"s","type":"content.mutation","action":"insert","object":"stroke"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"content.mutation","action":"update","object":"note"}"#,
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"switch_eraser"}"#,
            ]),
            RuleExample([
                #"{"ts":900,"session":"s","type":"session.start","touches":"sampled"}"#,
                #"{"ts":1000,"session":"s","type":"pencil.double_tap","action":"custom:clear_canvas"}"#,
                #"{"ts":1500,"session":"s","type":"content.mutation","action":"clear","object":"canvas","undoable":false}"#,
            ]),
        ],
        isRequired: true,
        needsEveryTouch: true
    )

    /// The session's latest double-tap, forgotten once a touch begins after it.
    public struct State: RuleState {
        var lastDoubleTapTs: Int64?
        var lastDoubleTapSource: SourceLocation?

        public init() {}
    }

    let windowMs: Int64

    public init(configuration: AuditConfiguration) {
        windowMs = Self.value(of: Self.windowMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        switch event.payload {
        case .pencilDoubleTap:
            state.lastDoubleTapTs = event.ts
            state.lastDoubleTapSource = event.source
        case .touch(let touch) where touch.phase == .began:
            state.lastDoubleTapTs = nil
            state.lastDoubleTapSource = nil
        case let .contentMutation(action, object, undoable):
            guard let tapTs = state.lastDoubleTapTs, let tapSource = state.lastDoubleTapSource else { return }
            let elapsed = event.ts.minus(tapTs)
            guard elapsed <= windowMs else { return }
            let what = object.map { DetailText("\(action.rawValue) of \($0)").string } ?? action.rawValue
            session.report(
                rule: Self.identifier, severity: undoable ? .warning : .error, source: event.source,
                startTs: tapTs, endTs: event.ts,
                detail: DetailText("\(what)\(undoable ? "" : " (not undoable)") \(elapsed) ms after an Apple Pencil double-tap").string,
                related: RelatedSource(role: "double-tap", location: tapSource)
            )
        default:
            break
        }
    }
}
