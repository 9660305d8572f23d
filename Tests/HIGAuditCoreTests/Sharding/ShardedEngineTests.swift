import Testing
@testable import HIGAuditCore

/// SPEC §2 "Device clocks": an engine per shard, each fed the whole input with `shard` set, gives
/// together exactly the reports and counters of one engine, and each event is decided by exactly one
/// shard, the same way.
@Suite struct ShardedEngineTests {
    /// Sessions on a few devices whose later events often name another device or none, with gaps
    /// that close sessions mid-stream (so later events are late), repeated ids, and disorder.
    static func stream(seed: UInt64) -> [Event] {
        var rng = SplitMix64(seed: seed)
        let devices: [String?] = ["A", "B", "C", "D", "", nil]
        var events: [Event] = []
        for index in 0..<Int.random(in: 2...12, using: &rng) {
            let session = ReorderPropertyTests.randomSession(
                "s\(index)", startingAt: Int64.random(in: 0...2_000_000, using: &rng), using: &rng)
            let home = devices.randomElement(using: &rng)!
            for (position, original) in session.enumerated() {
                var event = original
                event.device = position == 0 || Int.random(in: 0..<8, using: &rng) == 0
                    ? (position == 0 ? home : devices.randomElement(using: &rng)!) : nil
                events.append(event)
                if Int.random(in: 0..<20, using: &rng) == 0 { events.append(event) }
            }
        }
        // Interleave the sessions, each in its own order, with some disorder beyond the bound.
        let keyed = events.enumerated().map { ($0.element, $0.element.ts + Int64.random(in: 0...15_000, using: &rng), $0.offset) }
        var shuffled = keyed.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map(\.0)
        for index in shuffled.indices { shuffled[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        return shuffled
    }

    @Test(arguments: 0..<30)
    func shardsTogetherEqualOneRun(seed: Int) {
        let events = Self.stream(seed: UInt64(seed))
        let configuration = AuditConfiguration(maxLatenessMs: 3000, sessionGapMs: 60_000)
        let whole = run(events, configuration)
        for count in 1...4 {
            var reports: [SessionReport] = []
            var statistics = IngestStatistics()
            var decided = Array(repeating: 0, count: events.count)
            for index in 0..<count {
                var shardReports: [SessionReport] = []
                let engine = SessionEngine(configuration: configuration, onReport: { shardReports.append($0) })
                engine.shard = DeviceShard(index: index, count: count)
                for (position, event) in events.enumerated() {
                    let disposition = engine.ingest(event)
                    guard disposition != .otherShard else { continue }
                    decided[position] += 1
                    #expect(disposition == whole.dispositions[position], "seed \(seed), \(count) shards, event \(position)")
                }
                engine.finish()
                reports += shardReports
                statistics.events += engine.statistics.events
                statistics.sessions += engine.statistics.sessions
                statistics.lateEvents += engine.statistics.lateEvents
                statistics.duplicateEvents += engine.statistics.duplicateEvents
                statistics.unbalancedDismisses += engine.statistics.unbalancedDismisses
            }
            #expect(decided.allSatisfy { $0 == 1 })
            #expect(reports.sorted { $0.session < $1.session } == whole.reports.sorted { $0.session < $1.session })
            #expect(statistics.events == whole.statistics.events)
            #expect(statistics.sessions == whole.statistics.sessions)
            #expect(statistics.lateEvents == whole.statistics.lateEvents)
            #expect(statistics.duplicateEvents == whole.statistics.duplicateEvents)
            #expect(statistics.unbalancedDismisses == whole.statistics.unbalancedDismisses)
        }
    }
}
