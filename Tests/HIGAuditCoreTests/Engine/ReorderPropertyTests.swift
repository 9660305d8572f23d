import Testing
@testable import HIGAuditCore


@Suite struct ReorderPropertyTests {
    static let lateness: Int64 = 3000

    /// A random session touching every rule: strictly increasing `ts` (so no two of its events tie).
    static func randomSession(_ name: String, startingAt start: Int64, using rng: inout SplitMix64) -> [Event] {
        let tabs = ["tab:A", "tab:B", "tab:C"]
        let modals = ["m1", "m2", "m3"]
        let screens = ["home", "list", "detail", nil, nil]
        var events: [Event] = []
        var ts = start
        if Bool.random(using: &rng) {
            let settings = SessionSettings(
                hapticsEnabled: Bool.random(using: &rng),
                pencilPreferredAction: PencilPreferredAction.allCases.randomElement(using: &rng) ?? .switchEraser,
                pencilCustomActionEnabled: Bool.random(using: &rng)
            )
            events.append(at(ts, .sessionStart(settings), session: name, device: "dev-\(name)", appVersion: "1.0"))
        }
        for _ in 0..<Int.random(in: 20...120, using: &rng) {
            ts += Int64.random(in: 1...700, using: &rng)
            let payload: EventPayload
            switch Int.random(in: 0..<18, using: &rng) {
            case 0, 1:
                payload = .haptic(
                    kind: HapticKind.allCases.randomElement(using: &rng) ?? .selection,
                    durationMs: Int.random(in: 0..<8, using: &rng) == 0 ? 2000 : nil
                )
            case 2:
                payload = .touch(Touch(
                    phase: TouchPhase.allCases.randomElement(using: &rng) ?? .ended,
                    target: Bool.random(using: &rng) ? tabs.randomElement(using: &rng) : "tab_bar"
                ))
            case 3: payload = .tabSwitch(from: tabs.randomElement(using: &rng)!, to: tabs.randomElement(using: &rng)!)
            case 4:
                payload = .modalPresent(
                    modal: modals.randomElement(using: &rng)!, style: ModalStyle.allCases.randomElement(using: &rng)!
                )
            case 5: payload = .modalDismiss(modal: modals.randomElement(using: &rng)!)
            case 6:
                let actions: [PencilTapAction] = PencilPreferredAction.allCases.map { .system($0) } + [.custom("lasso")]
                payload = .pencilDoubleTap(action: actions.randomElement(using: &rng)!)
            case 7:
                payload = .contentMutation(action: .delete, object: "stroke", undoable: Bool.random(using: &rng))
            case 8: payload = .outcome(result: OutcomeResult.allCases.randomElement(using: &rng)!, task: nil)
            case 9:
                payload = .loadingStart(
                    id: modals.randomElement(using: &rng)!, indicator: LoadingIndicator.allCases.randomElement(using: &rng)!
                )
            case 10: payload = .loadingEnd(id: modals.randomElement(using: &rng)!)
            case 11: payload = .captureStart(source: CaptureSource.allCases.randomElement(using: &rng)!)
            case 12: payload = .captureStop(source: CaptureSource.allCases.randomElement(using: &rng)!)
            case 13: payload = .appReady
            case 14:
                payload = .permissionRequest(
                    permission: Permission.allCases.randomElement(using: &rng)!,
                    result: Bool.random(using: &rng) ? PermissionResult.allCases.randomElement(using: &rng) : nil)
            case 15: payload = .ratingPrompt
            case 16:
                payload = .widgetDisplay(
                    widget: "recent", content: WidgetContent.allCases.randomElement(using: &rng)!,
                    loadMs: Bool.random(using: &rng) ? Double(Int.random(in: 0...2_000, using: &rng)) : nil)
            default: payload = .navPush(to: "detail")
            }
            let labelled = Int.random(in: 0..<10, using: &rng) == 0
            events.append(at(
                ts, payload, session: name, screen: screens.randomElement(using: &rng)!,
                device: labelled ? "device-\(ts)" : nil, appVersion: labelled ? "v\(ts)" : nil
            ))
        }
        if Bool.random(using: &rng) {
            events.append(at(ts + Int64.random(in: 1...500, using: &rng), .sessionEnd, session: name))
        }
        return events
    }

    @Test(arguments: 0..<25)
    func shuffledWithinTheBoundGivesTheSameReportsAsSortedInput(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        var sessions: [[Event]] = []
        for index in 0..<Int.random(in: 1...8, using: &rng) {
            sessions.append(Self.randomSession("s\(index)", startingAt: Int64.random(in: 0...20_000, using: &rng), using: &rng))
        }
        // Sorted input: all sessions merged by ts; every event keeps this position as its source line.
        var sorted = sessions.flatMap { $0 }.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }
            .map(\.element)
        for index in sorted.indices { sorted[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }

        // Shuffled input: each event displaced by less than the lateness bound, so none is late.
        let shuffled = sorted
            .map { ($0, $0.ts + Int64.random(in: 0..<Self.lateness, using: &rng)) }
            .enumerated()
            .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map(\.element.0)
        #expect(shuffled != sorted || sorted.count < 2)

        let configuration = AuditConfiguration(maxLatenessMs: Self.lateness)
        let expected = run(sorted, configuration)
        let actual = run(shuffled, configuration)
        #expect(actual.statistics.lateEvents == 0)
        #expect(actual.statistics == expected.statistics)
        #expect(actual.reports.count == sessions.count)
        // Sessions close on their devices' clocks, so the order in which they close may differ; what
        // each reports may not.
        #expect(actual.reports.sorted { $0.session < $1.session } == expected.reports.sorted { $0.session < $1.session })
        #expect(!expected.violations.isEmpty || sorted.count < 50)
    }
}
