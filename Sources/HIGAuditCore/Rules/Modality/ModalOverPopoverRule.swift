/// `modal-over-popover` (SPEC §3, required): anything but an alert presented while a popover is on top.
public struct ModalOverPopoverRule: SessionRule {
    public static let identifier = "modal-over-popover"
    public static let interests = EventKindSet(.modalPresent)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Modal over popover",
        summary: "A modal other than an alert presented while the topmost modal is a popover.",
        severity: .error,
        citation: GuidelineCitation(
            page: .popovers,
            guideline: "Nothing but an alert appears over a popover; dismiss the popover before presenting a modal view.",
            origin: SeedOrigin(
                file: "002_6bec7e881585a269.txt",
                quote: "不要在弹出窗口上显示模态视图。除了警报之外,任何应用都不要出现在弹出窗口上。"
            )
        ),
        parameters: [],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"filters","style":"popover"}"#,
                #"↓{"ts":2000,"session":"s","type":"modal.present","modal":"edit","style":"form_sheet"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"filters","style":"popover"}"#,
                #"{"ts":1500,"session":"s","type":"modal.present","modal":"oops","style":"alert"}"#,
                #"{"ts":1600,"session":"s","type":"modal.dismiss","modal":"oops"}"#,
                #"↓{"ts":2000,"session":"s","type":"modal.present","modal":"share","style":"action_sheet"}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"filters","style":"popover"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"oops","style":"alert"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"modal.present","modal":"filters","style":"popover"}"#,
                #"{"ts":1500,"session":"s","type":"modal.dismiss","modal":"filters"}"#,
                #"{"ts":2000,"session":"s","type":"modal.present","modal":"edit","style":"form_sheet"}"#,
            ]),
        ],
        isRequired: true
    )

    public struct State: RuleState {
        public init() {}
    }

    public init(configuration: AuditConfiguration) {}

    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard case let .modalPresent(modal, style) = event.payload, style != .alert,
              let top = session.modals.top, top.style == .popover else { return }
        session.report(
            rule: Self.identifier, severity: .error, source: event.source,
            startTs: event.ts, endTs: event.ts,
            detail: DetailText("\(style.rawValue) modal \(modal) presented over popover \(top.modal)").string
        )
    }
}
