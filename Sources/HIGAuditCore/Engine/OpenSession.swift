/// Everything the engine holds for a session that has not closed yet.
///
/// A class so the engine's dictionary holds one reference per session and updates it in place; its
/// parts are value types (`SessionContext`, `RuleStates` are `Codable`).
final class OpenSession {
    let id: String
    /// Newest accepted `ts` of the session (lateness and gap closing are measured from it).
    var newestTs: Int64
    /// Earliest accepted `session.end` `ts`, if any (SPEC §2 closing rule (a)).
    var endTs: Int64?
    /// Fingerprints of the ids of the session's accepted events, for duplicate detection.
    var seenIds = FingerprintSet()
    let buffer = ReorderBuffer()
    var context: SessionContext
    var ruleStates: RuleStates

    init(id: String, newestTs: Int64, ruleStates: RuleStates) {
        self.id = id
        self.newestTs = newestTs
        self.context = SessionContext(session: id)
        self.ruleStates = ruleStates
    }
}
