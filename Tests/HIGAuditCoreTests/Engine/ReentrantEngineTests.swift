import Testing
@testable import HIGAuditCore

/// The engine keeps its sessions in memory it frees itself (`OpenSession`), and calls `onReport` while
/// it closes them, in loops (`finish`, the sessions a device's clock closes at once). A report handler that calls back into the engine must
/// neither make a loop read a freed session (AddressSanitizer shows it) nor get a session twice.
@Suite struct ReentrantEngineTests {
    /// Holds the engine for the handler that the engine itself is made with.
    private final class EngineBox {
        var engine: SessionEngine?
    }

    /// Sessions of 50 events each that close on the device's clock (a gap of 10 ms) or only at `finish` (the
    /// default gap), with a handler that, at its first report, feeds an event of a new session and
    /// calls `finish()`: the loop that made the first report then finds the rest of its list closed.
    /// Every session is reported once.
    @Test(arguments: [Int64(10), AuditConfiguration.defaultSessionGapMs])
    func aHandlerThatCallsBackClosesEachSessionOnce(sessionGapMs: Int64) {
        let box = EngineBox()
        var reported: [String] = []
        var calledBack = false
        let configuration = AuditConfiguration(maxLatenessMs: 0, sessionGapMs: sessionGapMs)
        let engine = SessionEngine(configuration: configuration) { report in
            reported.append(report.session)
            guard !calledBack, let engine = box.engine else { return }
            calledBack = true
            engine.ingest(haptic(1_000_000, session: "late-comer"))
            engine.finish()
        }
        box.engine = engine
        var sessions: Set<String> = []
        for index in 0..<6_000 {
            let session = "s\(index / 50)"
            sessions.insert(session)
            #expect(engine.ingest(haptic(Int64(index), session: session)) == .accepted || calledBack)
        }
        // Closed by the clock as the next session's events arrive, or all still open for `finish`.
        #expect(calledBack == (sessionGapMs == 10))
        engine.finish()
        sessions.insert("late-comer")
        #expect(calledBack)
        #expect(reported.count == Set(reported).count, "a session reported twice")
        #expect(Set(reported) == sessions)
        #expect(engine.openSessionCount == 0)
        box.engine = nil
    }

    /// A checkpoint that lists one session twice (one edited by hand) restores the later entry, as it
    /// always did; the earlier one is freed (LeakSanitizer shows it).
    @Test func aSessionListedTwiceInACheckpointKeepsTheLaterEntry() {
        let engine = SessionEngine { _ in }
        engine.ingest(haptic(1000, session: "a"))
        var checkpoint = engine.checkpoint()
        var later = checkpoint.sessions[0]
        later.newestTs = 5000
        checkpoint.sessions.append(later)
        let restored = SessionEngine(configuration: AuditConfiguration(), checkpoint: checkpoint) { _ in }
        #expect(restored.openSessionCount == 1)
        #expect(restored.checkpoint().sessions.map(\.newestTs) == [5000])
    }
}
