@testable import HIGAuditCore

/// Builds test events tersely: `at(1000, .sessionEnd)`. Lines are numbered by `run`.
func at(
    _ ts: Int64, _ payload: EventPayload, session: String = "s", screen: String? = nil, id: String? = nil,
    device: String? = nil, appVersion: String? = nil
) -> Event {
    Event(ts: ts, session: session, payload: payload, device: device, appVersion: appVersion, screen: screen, id: id)
}

func haptic(_ ts: Int64, _ kind: HapticKind = .selection, duration: Double? = nil, session: String = "s") -> Event {
    at(ts, .haptic(kind: kind, durationMs: duration), session: session)
}

func touch(_ ts: Int64, _ phase: TouchPhase, target: String? = nil, session: String = "s") -> Event {
    at(ts, .touch(Touch(phase: phase, target: target)), session: session)
}

func tabSwitch(_ ts: Int64, _ from: String, _ to: String, screen: String? = nil) -> Event {
    at(ts, .tabSwitch(from: from, to: to), screen: screen)
}

func present(_ ts: Int64, _ modal: String, _ style: ModalStyle) -> Event {
    at(ts, .modalPresent(modal: modal, style: style))
}

func dismiss(_ ts: Int64, _ modal: String) -> Event {
    at(ts, .modalDismiss(modal: modal))
}

/// A configuration running one rule only, with parameter overrides.
func only(_ identifier: String, _ parameters: [String: Int64] = [:], maxLatenessMs: Int64 = 10_000) -> AuditConfiguration {
    var rules: [String: RuleSettings] = [:]
    for description in RuleRegistry.descriptions {
        rules[description.identifier] = RuleSettings(enabled: description.identifier == identifier)
    }
    rules[identifier] = RuleSettings(enabled: true, parameters: parameters)
    return AuditConfiguration(maxLatenessMs: maxLatenessMs, rules: rules)
}

/// What one engine run produced.
struct EngineRun {
    var reports: [SessionReport] = []
    var late: [(line: Int64, reason: LateReason)] = []
    var dispositions: [EventDisposition] = []
    var statistics = IngestStatistics()

    var violations: [Violation] { reports.flatMap(\.violations) }
    /// Lines of the violations' sources, in report order.
    var violationLines: [Int64] { violations.map(\.source.line) }

    func report(_ session: String) -> SessionReport? { reports.first { $0.session == session } }
}

/// Feeds events in the given order, numbering them as lines 1, 2, … of file 0 unless they have a source.
func run(_ events: [Event], _ configuration: AuditConfiguration = AuditConfiguration()) -> EngineRun {
    var result = EngineRun()
    var reports: [SessionReport] = []
    var late: [(line: Int64, reason: LateReason)] = []
    let engine = SessionEngine(
        configuration: configuration,
        onLate: { event, reason in late.append((event.source.line, reason)) },
        onReport: { reports.append($0) }
    )
    for (index, original) in events.enumerated() {
        var event = original
        if event.source == .unknown { event.source = SourceLocation(file: 0, line: Int64(index + 1)) }
        result.dispositions.append(engine.ingest(event))
    }
    engine.finish()
    result.reports = reports
    result.late = late
    result.statistics = engine.statistics
    return result
}
