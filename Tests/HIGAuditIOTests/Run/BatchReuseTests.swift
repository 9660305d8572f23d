import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// Memory follows what is in flight, not the input's size: with reader threads, a run makes about as
/// many event batches as it holds at once, however many inputs it reads.
@Suite struct BatchReuseTests {
    static let jobs = 2

    /// `count` inputs of `lines` touch lines each, one device and session an input, read with `jobs`
    /// reader threads; returns the finished run.
    static func run(inputs count: Int, linesEach lines: Int) throws -> AuditRun {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var sources: [InputSource] = []
        for index in 0..<count {
            let text = (0..<lines).map { line in
                #"{"ts":\#(1_795_208_646_000 + line),"session":"s-\#(index)","device":"d-\#(index)","id":"e-\#(line)","type":"touch","phase":"moved","target":"a","x":1,"y":2}"#
            }
            let path = try InputFixtures.write(
                Array(InputFixtures.ndjson(text).utf8), named: String(format: "%04d.ndjson", index), in: directory)
            sources.append(InputSource(path: path))
        }
        let run = AuditRun(configuration: AuditConfiguration(), reader: try InputReader(), jobs: jobs, onDiagnostic: { _ in })
        run.read(sources)
        _ = run.finish()
        #expect(run.statistics.events == count * lines)
        return run
    }

    @Test func manySmallInputsReuseTheirBatches() throws {
        let inputCount = 300
        let run = try Self.run(inputs: inputCount, linesEach: 3)
        // A batch is made only when none is spare, so never more than are held at once: at most one
        // by each input in flight (each input here fills one batch at most, and the run's thread gives
        // it back before it asks for the next input). One an input: 300.
        #expect(run.pipeline.batchesMade > 0)
        #expect(run.pipeline.batchesMade <= RunPipeline<SessionEngine>.smallInputsInFlight(jobs: Self.jobs))
        #expect(RunPipeline<SessionEngine>.smallInputsInFlight(jobs: Self.jobs) < inputCount / 10)
    }

    /// Many small inputs are handed to the readers several times `jobs` at once, so that they do not
    /// wait for each next one; larger ones only `inputsInFlight`, since each holds its batches.
    @Test func onlySmallInputsAreReadFurtherAhead() throws {
        let small = try Self.run(inputs: 60, linesEach: 3).pipeline.mostInputsInFlight
        #expect(small == RunPipeline<SessionEngine>.smallInputsInFlight(jobs: Self.jobs))
        #expect(small > RunPipeline<SessionEngine>.inputsInFlight(jobs: Self.jobs))
        let larger = try Self.run(inputs: 60, linesEach: 120).pipeline.mostInputsInFlight
        #expect(larger == RunPipeline<SessionEngine>.inputsInFlight(jobs: Self.jobs))
    }
}
