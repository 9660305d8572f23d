/// Everything the engine holds for a session that has not closed yet.
///
/// A class so the engine's dictionary holds one reference per session and updates it in place; its
/// parts are value types (`SessionContext`, `RuleStates` are `Codable`).
final class OpenSession {
    let id: String
    /// `id` as events carry it, which the engine compares and looks sessions up by.
    let key: CompactText
    /// The screen the context's `screen` was last set from, so that an event showing the same screen
    /// costs a comparison of two words (see `SessionContext.prepare`). Not checkpointed: after a
    /// restart the first event with a screen sets it again, to the same effect.
    var screenKey: CompactText?
    /// Newest accepted `ts` of the session (lateness and gap closing are measured from it).
    var newestTs: Int64
    /// Earliest accepted `session.end` `ts`, if any (SPEC §2 closing rule (a)).
    var endTs: Int64?
    /// The ids of the session's accepted events, for duplicate detection.
    let seenIds: SeenIds
    let buffer = ReorderBuffer()
    var context: SessionContext
    var ruleStates: RuleStates

    init(key: CompactText, newestTs: Int64, ruleStates: RuleStates, seenIds: SeenIds = SeenIds()) {
        self.key = key
        self.seenIds = seenIds
        let id = key.string
        self.id = id
        self.newestTs = newestTs
        self.context = SessionContext(session: id)
        self.ruleStates = ruleStates
    }
}

extension OpenSession {
    /// Session-id order: `String` order, and between two spellings of one string (canonically
    /// equivalent, different bytes: two sessions, see `CompactText`) their bytes' order, so that the
    /// order of closing never depends on the dictionary's.
    static func idOrder(_ a: OpenSession, _ b: OpenSession) -> Bool {
        if a.id != b.id { return a.id < b.id }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
