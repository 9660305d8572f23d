import Testing
@testable import HIGAuditCore

/// `SessionEngine.ingest(movingFrom:)`, the way `--jobs` batches hand their events over, against
/// `ingest(_:)`: the same input must give the same dispositions, closings, late events, reports,
/// counters and checkpoint, whichever way each event comes in.
@Suite struct HandOverTests {
    /// Interleaved random sessions on a few devices, with ids, where some events come again
    /// (duplicates) and some come after the lateness bound has passed them (late).
    static func noisyInput(seed: Int) -> [Event] {
        var rng = SplitMix64(seed: UInt64(seed))
        var events: [Event] = []
        // Three devices, each with sessions one after another, which close while the input goes on.
        for index in 0..<Int.random(in: 4...7, using: &rng) {
            var session = ReorderPropertyTests.randomSession(
                "s\(index)", startingAt: Int64(index / 3) * 100_000 + Int64.random(in: 0...8_000, using: &rng), using: &rng)
            for position in session.indices {
                session[position].texts[.id] = CompactText("e\(position)")
                session[position].texts[.device] = CompactText("dev-\(index % 3)")
            }
            events += session
        }
        events = events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(\.element)
        var noisy: [Event] = []
        for event in events {
            noisy.append(event)
            switch Int.random(in: 0..<20, using: &rng) {
            case 0: noisy.append(event)  // sent twice
            case 1:
                var old = event  // an event long before the session's newest: late once the bound passes it
                old.ts -= 3 * ReorderPropertyTests.lateness
                old.texts[.id] = CompactText("late-\(noisy.count)")
                noisy.append(old)
            default: break
            }
        }
        for index in noisy.indices { noisy[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        return noisy
    }

    static let configuration = AuditConfiguration(maxLatenessMs: ReorderPropertyTests.lateness, sessionGapMs: 30_000)

    /// What an engine did, event by event, and at the end.
    struct Trace: Equatable {
        /// After each event: its disposition, the sessions open and closed, the reports made so far.
        var steps: [Step] = []
        var late: [Int64] = []
        var reports: [SessionReport] = []
        var statistics = IngestStatistics()
        var checkpoint = EngineCheckpoint()

        struct Step: Equatable {
            var disposition: EventDisposition
            var open: Int
            var closed: Int
            var reports: Int
        }
    }

    /// Runs `events` through an engine restored from `checkpoint`, each event handed over from memory of
    /// its own when `fromMemory`; `finishing` closes every session at the end.
    static func run(
        _ events: [Event], fromMemory: Bool, from checkpoint: EngineCheckpoint = EngineCheckpoint(), finishing: Bool = true
    ) -> Trace {
        var trace = Trace()
        var reports: [SessionReport] = []
        var late: [Int64] = []
        let engine = SessionEngine(
            configuration: Self.configuration, checkpoint: checkpoint,
            onLate: { event, _ in late.append(event.source.line) }, onReport: { reports.append($0) })
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        defer { slot.deallocate() }
        for event in events {
            let disposition: EventDisposition
            if fromMemory {
                slot.initialize(to: event)
                // The engine moves the event out, whatever becomes of it: the slot is empty again.
                disposition = engine.ingest(movingFrom: slot)
            } else {
                disposition = engine.ingest(event)
            }
            trace.steps.append(Trace.Step(
                disposition: disposition, open: engine.openSessionCount, closed: engine.closedSessionCount,
                reports: reports.count))
        }
        if finishing { engine.finish() }
        trace.checkpoint = engine.checkpoint()
        trace.reports = reports
        trace.late = late
        trace.statistics = engine.statistics
        return trace
    }

    /// The first index where the two differ, if any: the arrays are long.
    static func firstDifference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int? {
        a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count < b.count ? a.count : nil)
    }

    @Test(arguments: 0..<20)
    func eventsHandedOverFromMemoryGiveWhatEventsPassedByValueGive(seed: Int) {
        let events = Self.noisyInput(seed: seed)
        let byValue = Self.run(events, fromMemory: false)
        let fromMemory = Self.run(events, fromMemory: true)
        // Duplicates are decided on the hand-over's own way, late events on `ingest`'s after it; sessions
        // closing while events still come test that the hand-over closes what its events close.
        #expect(byValue.statistics.duplicateEvents > 0 && byValue.statistics.lateEvents > 0)
        #expect(byValue.steps.contains { $0.closed > 0 })
        #expect(Self.firstDifference(fromMemory.steps, byValue.steps) == nil)
        #expect(Self.firstDifference(fromMemory.late, byValue.late) == nil)
        #expect(fromMemory.statistics == byValue.statistics)
        #expect(fromMemory.reports == byValue.reports)
        #expect(!byValue.violations.isEmpty)
    }

    /// The same input in two runs with a checkpoint between (a nightly job's nights): the second run,
    /// handed its events either way, leaves the same checkpoint, idle runs of each device included.
    @Test(arguments: 0..<10)
    func runsAfterACheckpointLeaveTheSameCheckpoint(seed: Int) {
        let events = Self.noisyInput(seed: seed)
        let cut = events.count / 2
        let first = Self.run(Array(events[..<cut]), fromMemory: false, finishing: false)
        let byValue = Self.run(Array(events[cut...]), fromMemory: false, from: first.checkpoint, finishing: false)
        let fromMemory = Self.run(Array(events[cut...]), fromMemory: true, from: first.checkpoint, finishing: false)
        #expect(Self.firstDifference(fromMemory.steps, byValue.steps) == nil)
        #expect(fromMemory.reports == byValue.reports)
        #expect(fromMemory.checkpoint == byValue.checkpoint)
    }

    /// A session restored from a checkpoint whose first event in the run is a duplicate: the accepted
    /// event after it is the first that takes the hand-over's own way, and it alone counts the device
    /// as active in this run.
    @Test func anEventAfterARestoredSessionsDuplicateMakesItsDeviceActive() {
        let earlier = [
            at(1_000, .appReady, session: "s1", id: "a", device: "d1"),
            at(2_000, .appReady, session: "s1", id: "b", device: "d1"),
        ]
        let checkpoint = Self.run(earlier, fromMemory: false, finishing: false).checkpoint
        let tonight = [
            at(2_000, .appReady, session: "s1", id: "b", device: "d1"),
            at(3_000, .appReady, session: "s1", id: "c", device: "d1"),
        ]
        let trace = Self.run(tonight, fromMemory: true, from: checkpoint, finishing: false)
        #expect(trace.steps.map(\.disposition) == [.duplicate, .accepted])
        #expect(trace.checkpoint.devices.map(\.idleRuns) == [0])
        #expect(trace.checkpoint == Self.run(tonight, fromMemory: false, from: checkpoint, finishing: false).checkpoint)
    }

    /// Two sessions one after the other on one device: the second one's event that takes the
    /// hand-over's own way (the one before it was of its session) and passes the first one's end by
    /// the lateness bound closes the first one there.
    @Test func anEventOnTheHandOversWayClosesWhatItsDevicesClockCloses() {
        let lateness = ReorderPropertyTests.lateness
        let events = [
            at(1_000, .appReady, session: "s1", id: "a", device: "d1"),
            at(2_000, .sessionEnd, session: "s1", id: "b", device: "d1"),
            at(2_500, .appReady, session: "s2", id: "a", device: "d1"),
            at(2_000 + lateness, .appReady, session: "s2", id: "b", device: "d1"),
        ]
        let trace = Self.run(events, fromMemory: true, finishing: false)
        #expect(trace.steps.map(\.closed) == [0, 0, 0, 1])
        #expect(trace.reports.map(\.session) == ["s1"])
        #expect(trace == Self.run(events, fromMemory: false, finishing: false))
    }
}

extension HandOverTests.Trace {
    var violations: [Violation] { reports.flatMap(\.violations) }
}
