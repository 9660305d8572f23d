/// How bad a violation is; the order is the order of importance.
public enum Severity: String, CaseIterable, Sendable, Comparable, Codable {
    case warning
    case error

    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// One place where a session broke a guideline (SPEC §3 "Every violation record").
public struct Violation: Sendable, Equatable, Codable {
    public var rule: String
    public var severity: Severity
    public var session: String
    /// The session's device and app version: the first seen in the session, filled in when it closes.
    public var device: String
    public var appVersion: String
    /// The source event's `screen`, else the latest `screen` before it in the session, else empty.
    public var screen: String
    public var startTs: Int64
    public var endTs: Int64
    public var count: Int
    public var detail: String
    public var source: SourceLocation
    /// Another event the violation is about, e.g. the double-tap behind a `destructive-double-tap`
    /// mutation. The core only knows file indices; `detail(describing:)` renders it as `PATH:LINE`.
    public var related: RelatedSource?

    public init(
        rule: String, severity: Severity, session: String, device: String = "", appVersion: String = "",
        screen: String, startTs: Int64, endTs: Int64, count: Int = 1, detail: String, source: SourceLocation,
        related: RelatedSource? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.session = session
        self.device = device
        self.appVersion = appVersion
        self.screen = screen
        self.startTs = startTs
        self.endTs = endTs
        self.count = count
        self.detail = detail
        self.source = source
        self.related = related
    }

    /// The `detail` column as people read it: the detail text, then the related event's `PATH:LINE`,
    /// e.g. `… (double-tap at logs/a.zst:12)`.
    public func detail(describing files: SourceFileTable) -> String {
        guard let related else { return detail }
        return DetailText("\(detail) (\(related.role) at \(files.describe(related.location)))").string
    }

    /// SPEC §4 `violations` order within one session: `start_ts`, then `rule`, then source.
    public static func sessionOrder(_ a: Violation, _ b: Violation) -> Bool {
        if a.startTs != b.startTs { return a.startTs < b.startTs }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.source < b.source
    }
}

/// An event a violation refers to besides its source, named by its role (e.g. "double-tap").
public struct RelatedSource: Sendable, Equatable, Codable {
    public var role: String
    public var location: SourceLocation

    public init(role: String, location: SourceLocation) {
        self.role = role
        self.location = location
    }
}
