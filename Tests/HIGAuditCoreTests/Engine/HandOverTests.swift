import Testing
@testable import HIGAuditCore

/// `SessionEngine.ingest(movingFrom:)`, the way `--jobs` batches hand their events over, against
/// `ingest(_:)`: the same input must give the same dispositions, late events, reports and counters,
/// whichever way each event comes in.
@Suite struct HandOverTests {
    /// Interleaved random sessions on a few devices, with ids, where some events come again
    /// (duplicates) and some come after the lateness bound has passed them (late).
    static func noisyInput(seed: Int) -> [Event] {
        var rng = SplitMix64(seed: UInt64(seed))
        var events: [Event] = []
        for index in 0..<Int.random(in: 2...6, using: &rng) {
            var session = ReorderPropertyTests.randomSession(
                "s\(index)", startingAt: Int64.random(in: 0...8_000, using: &rng), using: &rng)
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

    /// Runs `events` through an engine, each handed over from memory of its own when `fromMemory`.
    static func run(_ events: [Event], fromMemory: Bool) -> EngineRun {
        var result = EngineRun()
        var reports: [SessionReport] = []
        var late: [(line: Int64, reason: LateReason)] = []
        let engine = SessionEngine(
            configuration: AuditConfiguration(maxLatenessMs: ReorderPropertyTests.lateness),
            onLate: { event, reason in late.append((event.source.line, reason)) },
            onReport: { reports.append($0) })
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        defer { slot.deallocate() }
        for event in events {
            if fromMemory {
                slot.initialize(to: event)
                // The engine moves the event out, whatever becomes of it: the slot is empty again.
                result.dispositions.append(engine.ingest(movingFrom: slot))
            } else {
                result.dispositions.append(engine.ingest(event))
            }
        }
        engine.finish()
        result.reports = reports
        result.late = late
        result.statistics = engine.statistics
        return result
    }

    static func firstDifference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int? {
        a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count < b.count ? a.count : nil)
    }

    @Test(arguments: 0..<20)
    func eventsHandedOverFromMemoryGiveWhatEventsPassedByValueGive(seed: Int) {
        let events = Self.noisyInput(seed: seed)
        let byValue = Self.run(events, fromMemory: false)
        let fromMemory = Self.run(events, fromMemory: true)
        // The input exercises every disposition the hand-over takes a way of its own for.
        #expect(byValue.statistics.duplicateEvents > 0 && byValue.statistics.lateEvents > 0)
        // The first line where the two differ, if any: the arrays are long.
        #expect(Self.firstDifference(fromMemory.dispositions, byValue.dispositions) == nil)
        #expect(Self.firstDifference(fromMemory.late.map(\.line), byValue.late.map(\.line)) == nil)
        #expect(fromMemory.statistics == byValue.statistics)
        #expect(fromMemory.reports == byValue.reports)
        #expect(!byValue.violations.isEmpty)
    }
}
