/// `widget-placeholder` (SPEC §3, widget rule): a widget that made people wait for its content.
///
/// A `widget.display` whose `content` is `placeholder`, or whose `load_ms` is more than `max_load_ms`,
/// is one violation: a widget should show its cached content at once while fresh content loads.
public struct WidgetPlaceholderRule: SessionRule {
    public static let maxLoadMs = RuleParameter(
        name: "max_load_ms", defaultValue: 1000, minimum: 0,
        summary: "How long a widget may take to show its content, in milliseconds (inclusive)."
    )

    public static let identifier = "widget-placeholder"
    public static let interests = EventKindSet(.widgetDisplay)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Widget placeholder",
        summary: "A widget that appears with a placeholder, or takes long to show its content.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .widgets,
            guideline: "People must never wait for a widget's content: it caches its content and shows it while fresh content loads.",
            origin: SeedOrigin(
                file: "003_8ed0dd8d0940eb5d.txt",
                quote: "l’utilisateur ne doit jamais avoir à attendre que le contenu soit chargé une fois qu’un widget est affiché."
            )
        ),
        parameters: [maxLoadMs],
        triggeringExamples: [
            RuleExample([
                #"↓{"ts":1000,"session":"w","type":"widget.display","widget":"weather","content":"placeholder"}"#,
            ]),
            RuleExample([
                #"↓{"ts":1000,"session":"w","type":"widget.display","widget":"weather","content":"cached","load_ms":1000.5}"#,
                #"{"ts":2000,"session":"w","type":"widget.display","widget":"weather","content":"fresh","load_ms":1000}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"w","type":"widget.display","widget":"weather","content":"cached","load_ms":1000}"#,
                #"{"ts":2000,"session":"w","type":"widget.display","widget":"weather","content":"fresh"}"#,
            ]),
        ],
        isRequired: false
    )

    public struct State: RuleState {
        public init() {}
    }

    let maxLoadMs: Int64

    public init(configuration: AuditConfiguration) {
        maxLoadMs = Self.value(of: Self.maxLoadMs, in: configuration)
    }

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard case let .widgetDisplay(widget, content, loadMs) = event.payload else { return }
        let detail: String
        if content == .placeholder {
            detail = DetailText("widget \(widget) appeared with a placeholder").string
        } else if let loadMs, loadMs > Double(maxLoadMs) {
            detail = DetailText("widget \(widget) took \(Self.milliseconds(loadMs)) ms to show its content (more than \(maxLoadMs) ms)").string
        } else {
            return
        }
        session.report(
            rule: Self.identifier, severity: .warning, source: event.source,
            startTs: event.ts, endTs: event.ts, detail: detail
        )
    }

    /// A duration for the detail text: whole milliseconds without a fraction, else as read.
    private static func milliseconds(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
