import Foundation
import Testing

/// The input options end to end: the malformed-line report, zstd dictionaries and the window limit.
@Suite struct InputOptionTests {
    @Test func malformedReportHasEveryLineWhileStandardErrorShowsTwenty() throws {
        let lines = (1...30).map { "{\"ts\":\($0),\"session\":\"s\",\"type\":\"haptic\",\"kind\":\"buzz-\($0)\"}" }
        let directory = try HigAuditBinary.temporaryDirectory()
        let report = directory.appendingPathComponent("malformed.tsv")
        let result = try HigAuditBinary.run(
            ["analyze", "-", "--malformed-report", report.path, "--table", "ingest", "--format", "csv"],
            stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 3)
        let shown = result.stderr.split(separator: "\n").filter { $0.hasPrefix("hig-audit: -:") }
        #expect(shown.count == 20)
        #expect(result.stderr.contains("malformed line: 30 in all, 10 not shown above"))
        let written = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
        #expect(written.count == 30)
        #expect(written[29] == "-:30\tunknown haptic kind \"buzz-30\" (at byte 47 of the line)")
    }

    @Test func dictionaryFramesNeedTheirDictionary() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        // Train a dictionary on event lines, then compress a log with it.
        let samples = directory.appendingPathComponent("samples")
        try FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
        for index in 0..<200 {
            let line = "{\"ts\":\(1000 + index),\"session\":\"s\(index % 7)\",\"type\":\"touch\",\"phase\":\"began\",\"target\":\"canvas\",\"screen\":\"canvas.editor\"}\n"
            try line.write(to: samples.appendingPathComponent("\(index).ndjson"), atomically: true, encoding: .utf8)
        }
        let dictionary = directory.appendingPathComponent("events.dict").path
        let train = try HigAuditBinary.shell(["sh", "-c", "zstd -q --train '\(samples.path)'/*.ndjson --maxdict=4096 -o '\(dictionary)'"])
        #expect(train.status == 0, "\(train.stderr)")
        let log = directory.appendingPathComponent("log.ndjson")
        try "{\"ts\":1,\"session\":\"s\",\"type\":\"session.start\"}\n{\"ts\":2,\"session\":\"s\",\"type\":\"session.end\"}\n"
            .write(to: log, atomically: true, encoding: .utf8)
        let compressed = directory.appendingPathComponent("log.ndjson.zst").path
        _ = try HigAuditBinary.shell(["zstd", "-q", "-D", dictionary, log.path, "-o", compressed])

        let without = try HigAuditBinary.run(["analyze", compressed, "--table", "ingest", "--format", "csv"])
        #expect(without.status == 3)
        #expect(without.stderr.contains("missing dictionary"))
        let with = try HigAuditBinary.run(["analyze", compressed, "--dictionary", dictionary, "--table", "ingest", "--format", "json"])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains("\"events\":2"))
    }

    @Test func framesWithLargeWindowsAreRefusedUnlessTheLimitIsRaised() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let log = directory.appendingPathComponent("log.ndjson")
        try "{\"ts\":1,\"session\":\"s\",\"type\":\"session.start\"}\n".write(to: log, atomically: true, encoding: .utf8)
        let compressed = directory.appendingPathComponent("log.zst").path
        // A frame that declares a 2^28-byte window (no content size, so the window is what counts).
        let made = try HigAuditBinary.shell(["sh", "-c", "cat '\(log.path)' | zstd -q --zstd=wlog=28 --no-content-size -o '\(compressed)'"])
        #expect(made.status == 0, "\(made.stderr)")
        let refused = try HigAuditBinary.run(["analyze", compressed, "--table", "ingest", "--format", "csv"])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("refused frame"))
        let allowed = try HigAuditBinary.run(["analyze", compressed, "--max-window-log", "28", "--table", "ingest", "--format", "json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("\"events\":1"))
    }
}
