import Foundation
import Testing
@testable import HIGAuditCore

/// An engine restored from a checkpoint continues the stream exactly: splitting one stream into runs
/// at any points (the nightly job's batches) gives the reports of one run over all of it (SPEC §5).
@Suite struct CheckpointTests {
    /// Feeds `events` in runs split at `cuts`, checkpointing through JSON between runs, and returns the
    /// reports (session-id order) plus the late lines.
    static func runInBatches(_ events: [Event], cuts: [Int], _ configuration: AuditConfiguration) -> [SessionReport] {
        var reports: [SessionReport] = []
        var closedEarlier: Set<String> = []
        var checkpoint = EngineCheckpoint()
        var start = 0
        for end in cuts + [events.count] {
            var batchReports: [SessionReport] = []
            let engine = SessionEngine(configuration: configuration, checkpoint: checkpoint) { batchReports.append($0) }
            let known = closedEarlier
            engine.closedBeforeStart = { known.contains($0) }
            for event in events[start..<end] { engine.ingest(event) }
            if end == events.count { engine.finish() }
            let data = (try? JSONEncoder().encode(engine.checkpoint())) ?? Data()
            checkpoint = (try? JSONDecoder().decode(EngineCheckpoint.self, from: data)) ?? EngineCheckpoint()
            if end < events.count { #expect(checkpoint == engine.checkpoint()) }
            reports += batchReports
            closedEarlier.formUnion(batchReports.map(\.session))
            start = end
        }
        return reports
    }

    @Test(arguments: 0..<20)
    func batchesWithCheckpointsEqualOneRun(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        var sessions: [[Event]] = []
        for index in 0..<Int.random(in: 2...10, using: &rng) {
            // Spread over more than the session gap, so some sessions close by gap mid-stream.
            sessions.append(ReorderPropertyTests.randomSession(
                "s\(index)", startingAt: Int64.random(in: 0...200_000, using: &rng), using: &rng))
        }
        var stream = sessions.flatMap { $0 }
            .map { ($0, $0.ts + Int64.random(in: 0..<ReorderPropertyTests.lateness, using: &rng)) }
            .enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
        // A few very late events and duplicates, so those buckets cross batch boundaries too.
        for index in stride(from: 5, to: stream.count, by: 37) { stream.append(stream[index]) }
        for index in stream.indices { stream[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let configuration = AuditConfiguration(maxLatenessMs: ReorderPropertyTests.lateness, sessionGapMs: 60_000)

        let expected = run(stream, configuration).reports.sorted { $0.session < $1.session }
        let cuts = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Int.random(in: 0...stream.count, using: &rng) }.sorted()
        let actual = Self.runInBatches(stream, cuts: cuts, configuration).sorted { $0.session < $1.session }
        #expect(actual == expected)
        #expect(!expected.flatMap(\.violations).isEmpty)
    }
}
