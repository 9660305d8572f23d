import Foundation
import Testing

/// `hig-audit sample --format` as a user types it: an export's lines, in the files NDJSON would fill,
/// and the mistakes it refuses.
@Suite struct SampleFormatCommandTests {
    static let small = SampleCommandLayoutTests.small + ["--no-noise", "--layout", "device"]

    @Test func posthogWritesOneEventObjectALineInTheSameFiles() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let native = directory.appendingPathComponent("ndjson"), posthog = directory.appendingPathComponent("posthog")
        #expect(try HigAuditBinary.run(["sample", "--out", native.path] + Self.small).status == 0)
        let result = try HigAuditBinary.run(["sample", "--out", posthog.path, "--format", "posthog"] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let nativeLogs = try SampleCommandLayoutTests.logs(in: native), posthogLogs = try SampleCommandLayoutTests.logs(in: posthog)
        #expect(Set(posthogLogs.keys) == Set(nativeLogs.keys))
        let first = try #require(posthogLogs.keys.sorted().first)
        let decompressed = try shellOutput(["zstd", "-dcq", posthog.appendingPathComponent(first).path])
        let line = try #require(decompressed.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "hig.session.start")
        #expect((object["properties"] as? [String: Any])?["touches"] as? String == "all")
    }

    @Test(arguments: [
        (["--format", "posthog"], "--no-noise"),
        (["--format", "otlp", "--no-noise", "--encoders", "mixed"], "--encoders"),
        (["--format", "csv", "--no-noise"], "--format must be ndjson, posthog, datadog-rum, otlp"),
    ])
    func mistakesAreUsageErrors(_ arguments: [String], _ said: String) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run(["sample", "--out", directory.appendingPathComponent("out").path] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(said), "\(result.stderr)")
    }

    private func shellOutput(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
