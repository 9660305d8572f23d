/// `modal-depth` (SPEC §3, required): modals stacked deeper than `max_depth`.
///
/// The engine keeps the session's modal stack (`SessionContext.modals`; a dismiss of X pops the topmost
/// X and everything above it, and a dismiss of an id not on the stack is counted as an unbalanced
/// dismiss). A `modal.present` after which the non-alert depth exceeds `max_depth` is one violation whose
/// `count` is the depth reached. Alerts never add to the depth, but an alert presented while the stack is
/// already too deep is still a present "after which the depth exceeds" the limit (SPEC §3, read literally).
public struct ModalDepthRule: SessionRule {
    public static let maxDepth = RuleParameter(
        name: "max_depth", defaultValue: 2, minimum: 1,
        summary: "How many non-alert modals may be stacked."
    )

    public static let identifier = "modal-depth"
    public static let interests = EventKindSet(.modalPresent)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Modal depth",
        summary: "A modal presented on top of too many other (non-alert) modals.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .modality,
            guideline: "Keep modal tasks simple; hierarchies inside modals make people lose their way.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "特别注意创建涉及层次结构的模态任务,因为用户可能会迷失方向,而忘记了如何回溯其步骤。"
            )
        ),
        parameters: [maxDepth],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"compose","style":"page_sheet"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"attach","style":"form_sheet"}"#,
                #"↓{"ts":3000,"session":"s","type":"modal.present","modal":"camera","style":"full_screen"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"a","style":"page_sheet"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"b","style":"page_sheet"}"#,
                #"{"ts":2500,"session":"s","type":"modal.dismiss","modal":"c"}"#,
                #"↓{"ts":3000,"session":"s","type":"modal.present","modal":"c","style":"page_sheet"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"compose","style":"page_sheet"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"attach","style":"form_sheet"}"#,
                #"{"ts":3000,"session":"s","type":"modal.present","modal":"discard","style":"alert"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"a","style":"page_sheet"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"b","style":"page_sheet"}"#,
                #"{"ts":2500,"session":"s","type":"modal.dismiss","modal":"a"}"#,
                #"{"ts":3000,"session":"s","type":"modal.present","modal":"c","style":"page_sheet"}"#,
                #"{"ts":4000,"session":"s","type":"modal.present","modal":"d","style":"page_sheet"}"#,
            ]),
        ],
        isRequired: true
    )

    public struct State: RuleState {
        public init() {}
    }

    let maxDepth: Int64

    public init(configuration: AuditConfiguration) {
        maxDepth = Self.value(of: Self.maxDepth, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard case let .modalPresent(modal, style) = event.payload else { return }
        let depth = session.modals.depth + (style == .alert ? 0 : 1)
        guard Int64(depth) > maxDepth else { return }
        session.report(
            rule: Self.identifier, severity: .warning, source: event.source,
            startTs: event.ts, endTs: event.ts, count: depth,
            detail: DetailText("\(style.rawValue) modal \(modal) presented at depth \(depth) (at most \(maxDepth))").string
        )
    }
}
