import Foundation
import HIGAuditSample
import Testing

/// `hig-audit sample --mix`, `--concurrent-sessions`, `--extra-haptics-per-minute`,
/// `--problem-rate-scale` and `--layout stream` as a user types them.
@Suite struct SampleMixCommandTests {
    static let small = ["--sessions", "40", "--seed", "8", "--no-noise"]

    static func sample(_ arguments: [String]) throws -> (logs: [String: Data], manifest: Data) {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run(["sample", "--quiet", "--out", directory.path] + small + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return (try SampleCommandLayoutTests.logs(in: directory),
                try Data(contentsOf: directory.appendingPathComponent("sample-manifest.json")))
    }

    /// The preset is the sum of its options, and an option given explicitly wins over it.
    @Test func fieldMixIsItsOptionsAndExplicitOptionsOverrideIt() throws {
        let field = try Self.sample(["--mix", "field"])
        let spelledOut = try Self.sample([
            "--session-length", "short", "--move-sampling-ms", String(SampleMix.fieldMoveSamplingMs),
            "--extra-haptics-per-minute", String(SampleMix.fieldExtraHapticsPerMinute),
            "--problem-rate-scale", String(SampleMix.fieldProblemRateScale),
            "--concurrent-sessions", String(SampleMix.fieldConcurrentSessions), "--encoders", "mixed",
            "--devices", String(40 / SampleMix.fieldSessionsPerDevice),
        ])
        #expect(!field.logs.isEmpty)
        #expect(field.logs == spelledOut.logs && field.manifest == spelledOut.manifest)
        let stream = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}\.ndjson\.zst$"#)
        #expect(field.logs.keys.allSatisfy { $0.wholeMatch(of: stream) != nil }, "\(field.logs.keys.sorted())")

        let timeFirst = try Self.sample(["--mix", "field", "--layout", "time"])
        let time = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}/ipad-\d{4}\.ndjson\.zst$"#)
        #expect(timeFirst.logs.keys.allSatisfy { $0.wholeMatch(of: time) != nil })
        #expect(timeFirst.logs.count > field.logs.count)

        let everyMove = try Self.sample(["--mix", "field", "--move-sampling-ms", "0"])
        #expect(everyMove.logs.values.reduce(0) { $0 + $1.count } > field.logs.values.reduce(0) { $0 + $1.count })
    }

    /// Without a preset, `--concurrent-sessions` writes the stream layout unless `--layout` says otherwise.
    @Test func concurrentSessionsDefaultToTheStreamLayout() throws {
        let stream = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}\.ndjson\.zst$"#)
        #expect(try Self.sample(["--concurrent-sessions", "5"]).logs.keys.allSatisfy { $0.wholeMatch(of: stream) != nil })
        #expect(try Self.sample(["--concurrent-sessions", "5", "--layout", "device"]).logs.keys.allSatisfy { $0.hasPrefix("devices/") })
        #expect(try Self.sample(["--layout", "stream"]).logs.keys.allSatisfy { $0.wholeMatch(of: stream) != nil })
    }

    @Test(arguments: [
        ["--mix", "lab"], ["--concurrent-sessions", "0"], ["--extra-haptics-per-minute", "-1"],
        ["--problem-rate-scale", "-2"], ["--layout", "streams"],
        // --target-bytes adds devices until the size is reached: a device count would be ignored.
        ["--devices", "5", "--target-bytes", "100000"],
    ])
    func badMixOptionsAreUsageErrors(arguments: [String]) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run(["sample", "--out", directory.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr)")
    }

    /// An export format has its own writer: the preset's mixed encoders must be turned off by name.
    @Test func fieldMixWithAnExportFormatSaysHowToKeepItsEncoders() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try HigAuditBinary.run(["sample", "--out", directory.path, "--mix", "field", "--format", "posthog", "--no-noise"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--encoders uniform"), "\(refused.stderr)")
        let result = try HigAuditBinary.run(
            ["sample", "--quiet", "--out", directory.path, "--sessions", "8", "--mix", "field", "--format", "posthog", "--no-noise", "--encoders", "uniform"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The defaults are untouched by the new options: the committed night, made before they existed,
    /// comes out of its README command with the same manifest and the same text in every file.
    @Test func committedNightIsRegeneratedByteForByte() throws {
        let committed = HigAuditBinary.packageRoot.appendingPathComponent(SampleLogsGroundTruthTests.committedNight)
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run([
            "sample", "--quiet", "--out", directory.path, "--sessions", "2000", "--seed", "20261120",
            "--start", "2026-11-20T18:00:00Z", "--session-length", "short", "--move-sampling-ms", "250", "--level", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var expected = try JSONDecoder().decode(
            SampleManifest.self, from: Data(contentsOf: committed.appendingPathComponent("sample-manifest.json")))
        let actual = try JSONDecoder().decode(
            SampleManifest.self, from: Data(contentsOf: directory.appendingPathComponent("sample-manifest.json")))
        expected.compressedBytes = actual.compressedBytes
        #expect(actual == expected)

        let paths = try SampleCommandLayoutTests.logs(in: directory).keys.sorted()
        #expect(paths == (try SampleCommandLayoutTests.logs(in: committed).keys.sorted()))
        let text = { (root: URL) in
            try HigAuditBinary.shell(["zstd", "-qdc"] + paths.map { root.appendingPathComponent($0).path }).stdout
        }
        let regenerated = try text(directory)
        #expect(!regenerated.isEmpty)
        #expect(regenerated == (try text(committed)))
    }
}
