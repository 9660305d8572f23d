/// The telemetry exports `import` and `--from` read (SPEC §7), each one JSON object a line.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// PostHog's event export: one event object a line.
    case posthog
    /// Datadog RUM events, one event object a line, as the events API returns them.
    case datadogRUM = "datadog-rum"
    /// OpenTelemetry logs in OTLP/JSON: one `ExportLogsServiceRequest` a line (the file exporter's).
    case otlp

    /// How many of a session's touches the format's SDKs capture on their own: taps on UIKit controls,
    /// not SwiftUI's, so `sampled` (SPEC §7 "Touch coverage").
    public var automaticTouches: ImportedTouches { .sampled }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A session's touch coverage as `session.start.touches` writes it (SPEC §2).
public enum ImportedTouches: String, Sendable, CaseIterable {
    case all, sampled, none
}

/// What the configuration's `import:` section says (SPEC §7).
public struct ImportSettings: Sendable, Equatable {
    /// Screens that are the roots of tabs: a screen view of one is a tab switch, not a push.
    public var tabRoots: [ScreenGlob]
    /// The coverage written on every `session.start` an importer makes, instead of the format's own.
    public var touches: ImportedTouches?

    public init(tabRoots: [ScreenGlob] = [], touches: ImportedTouches? = nil) {
        self.tabRoots = tabRoots
        self.touches = touches
    }

    func isTabRoot(_ screen: String) -> Bool { tabRoots.contains { $0.matches(screen) } }
}
