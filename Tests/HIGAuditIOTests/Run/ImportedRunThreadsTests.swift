import Foundation
@testable import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// An export read with `--jobs` above 1 (`--from`) is read on a reader thread while the run's thread
/// feeds the target, and gives the target what one thread gives: the same events, with the same
/// imported session names (`<id>#<n>`, counted over the inputs in their order), and the same
/// diagnostics in the same places.
@Suite struct ImportedRunThreadsTests {
    /// A PostHog line: a launch (`Application Opened`) or a convention event, of SDK session `session`.
    static func line(_ uuid: String, _ event: String, session: String, second: Int, extra: String = "") -> String {
        #"{"uuid":"\#(uuid)","event":"\#(event)","distinct_id":"p","timestamp":"2026-11-20T10:\#(String(format: "%02d:%02d", second / 60, second % 60)).000Z","properties":{"$session_id":"\#(session)","$device_id":"dev-\#(session)","$app_version":"3.2.0","$os_version":"18.1","$screen_name":"Library"\#(extra)}}"#
    }

    /// Inputs in which each of two SDK sessions launches again in later inputs (one launch retried
    /// with its id in another input), with convention events between launches and a damaged line.
    static func inputs(in directory: URL) throws -> [InputSource] {
        var second = 0
        var sources: [InputSource] = []
        for index in 0..<9 {
            var lines: [String] = []
            for session in ["sdk-a", "sdk-b"] {
                if index % 3 == 0 {
                    lines.append(line("launch-\(session)-\(index)", "Application Opened", session: session, second: second))
                }
                if index == 4 {
                    // The launch of input 3, retried: a duplicate, not a third launch.
                    lines.append(line("launch-\(session)-3", "Application Opened", session: session, second: second))
                }
                for haptic in 0..<20 {
                    second += 1
                    lines.append(line(
                        "h-\(session)-\(index)-\(haptic)", "hig.haptic", session: session, second: second,
                        extra: #","kind":"impact.light","duration_ms":40"#))
                }
            }
            if index == 5 { lines.insert(#"{"uuid":"broken","event":"hig.haptic","#, at: 7) }
            let path = try InputFixtures.write(
                Array((lines.joined(separator: "\n") + "\n").utf8), named: String(format: "%02d.jsonl", index), in: directory)
            sources.append(InputSource(path: path))
        }
        return sources
    }

    /// What the target got, in order, and how many batches the reader threads made.
    static func read(_ sources: [InputSource], jobs: Int) throws -> (log: [String], batches: Int) {
        let recorder = TwoStageReadTests.Recorder()
        let pipeline = RunPipeline(target: recorder, reader: try InputReader(), jobs: jobs, onDiagnostic: { recorder.say($0) })
        pipeline.importer = EventImporter(format: .posthog)
        try pipeline.read(sources, files: RunFiles())
        return (recorder.log, pipeline.batchesMade)
    }

    @Test func readerThreadGivesWhatOneThreadGives() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = try Self.inputs(in: directory)
        let one = try Self.read(sources, jobs: 1)
        let two = try Self.read(sources, jobs: 2)
        #expect(one.batches == 0)
        // The events came through the reader thread's batches, not read on the run's thread.
        #expect(two.batches > 0)
        #expect(two.log == one.log)
        let text = one.log.joined(separator: "\n")
        // Launches in inputs 0, 3 and 6 (and 3's retried in 4): sessions `sdk-a`, `#2`, `#3`, no `#4`.
        #expect(text.contains("sdk-a#3") && text.contains("sdk-b#2"))
        #expect(!text.contains("#4"))
        #expect(one.log.filter { $0.hasPrefix("diagnostic") }.count == 1)
    }
}
