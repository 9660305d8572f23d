/// Events a rule judges by the session's settings but saw before the session's first `session.start`.
///
/// SPEC §3 makes `haptics_enabled` and the Pencil preference properties of the *session*, so an event
/// that sorts before its `session.start` (a device clock step, a buffered upload) is still judged by
/// that start's settings: it waits here until the start arrives, or until the session closes without
/// one, when the defaults apply. Only events before the first start are kept, so this stays small.
public struct HeldUntilSessionStart<Held: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public private(set) var held: [Held] = []

    public init() {}

    public mutating func hold(_ item: Held) { held.append(item) }

    /// Everything held, in the order it was held, and nothing left behind.
    public mutating func release() -> [Held] {
        defer { held = [] }
        return held
    }
}

/// What a held event needs to be reported later: where it was, when, and on which screen.
public struct HeldEventOrigin: Codable, Sendable, Equatable {
    public var ts: Int64
    public var source: SourceLocation
    public var screen: String

    public init(ts: Int64, source: SourceLocation, screen: String) {
        self.ts = ts
        self.source = source
        self.screen = screen
    }
}
