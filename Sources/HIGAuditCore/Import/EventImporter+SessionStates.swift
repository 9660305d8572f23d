/// What an importer knows of each SDK session, handed over and taken back between the runs of an
/// incremental reading (`nightly --from`).
///
/// Why: an SDK session's launches may be uploaded on different nights. Numbered afresh each run, its
/// second launch would be `<id>` again (joining the first imported session, or late once that one
/// closed), a retried launch read the night before would be a new launch, and the tab the person is on
/// would be forgotten (SPEC §7 "Sessions"). With the states of earlier runs restored, a run's inputs
/// are imported as if read after theirs, in one run.
extension EventImporter {
    /// Gives the SDK session `session` the state an earlier run left it. Called before any input is
    /// read: a restored session is not one this run read (`forEachSessionRead`) until an event of it is.
    public func restore(session: String, _ state: SessionLaunches) {
        sessions.restore(state, name: session)
        lastSessionKnown = false
    }

    /// Calls `body` with each SDK session of which an event was read since the last call (or since the
    /// states were restored), its state, and whether that changed; the next call names only sessions
    /// read after this one.
    public func forEachSessionRead(_ body: (_ session: String, _ state: SessionLaunches, _ changed: Bool) throws -> Void) rethrows {
        try sessions.forEachMarked(body)
    }
}
