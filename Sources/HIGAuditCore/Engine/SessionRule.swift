/// A guideline rule as the session engine runs it: a self-describing value that reads its parameters
/// once and keeps everything it remembers about a session in a separate `State` value.
///
/// Keeping the per-session state out of the rule lets the engine store it beside the session (one
/// value per open session, `Codable` so open sessions can be checkpointed between nightly runs) and
/// drop it when the session closes. The engine calls `observe` only for the kinds in `interests` (for
/// touches, the phases), in the session's `ts` order (equal `ts` in input order), `finish` once when
/// the session closes, and `settle` before an open session is checkpointed.
///
/// A rule that needs to know about events it does not want (the screens shown between two of its
/// events, say) reads them from the `SessionContext` when its next event comes, rather than asking
/// for every event: the context keeps what any rule may need of the session so far.
public protocol SessionRule: Sendable {
    associatedtype State: RuleState

    /// The rule's id, as in `description` (kept apart so reporting never copies the description).
    static var identifier: String { get }
    static var description: RuleDescription { get }
    /// The event kinds (and touch phases) this rule wants to see; the engine dispatches through a table.
    static var interests: EventKindSet { get }

    /// Reads the rule's parameters (overrides or defaults, never below their minimum).
    init(configuration: AuditConfiguration)

    /// One accepted event of the session, in order. `session.screen` is already the screen resolved for
    /// this event; the engine's shared session state (settings, modal stack) is as it was *before* it.
    /// `self` holds the values at that screen; `screens` the values at any other (SPEC §6 overrides),
    /// for a rule that judges an event whose violation would record another screen.
    func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>)

    /// The session closed: report whatever was waiting for a later event. `self` holds the values at
    /// the session's last screen.
    func finish(state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>)

    /// The open session is being checkpointed: bring up to date whatever the state takes in from the
    /// session context only at the rule's next event, so that the checkpoint holds what a rule that
    /// saw every event would hold (and a version of the tool that reads the state so goes on alike).
    static func settle(_ state: inout State, in session: SessionContext)
}

extension SessionRule {
    public func finish(state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {}

    /// `observe` for a rule used on its own, outside an engine: its own values at every screen.
    public func observe(_ event: Event, state: inout State, in session: inout SessionContext) {
        withUnsafePointer(to: self) { observe(event, state: &state, in: &session, screens: ScreenValues(ordinary: $0)) }
    }

    /// `finish` for a rule used on its own, outside an engine.
    public func finish(state: inout State, in session: inout SessionContext) {
        withUnsafePointer(to: self) { finish(state: &state, in: &session, screens: ScreenValues(ordinary: $0)) }
    }

    public static func settle(_ state: inout State, in session: SessionContext) {}

    /// The configured value of one of this rule's parameters, never below the parameter's minimum, so a
    /// configuration built in code cannot make a rule divide by zero or keep a negative window.
    public static func value(of parameter: RuleParameter, in configuration: AuditConfiguration) -> Int64 {
        max(configuration.value(of: parameter, for: description), parameter.minimum)
    }
}

/// What a rule remembers about one session; `init()` is the state before the session's first event.
public protocol RuleState: Codable, Sendable, Equatable {
    init()
}
