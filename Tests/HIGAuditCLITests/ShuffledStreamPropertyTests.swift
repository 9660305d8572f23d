import Foundation
import HIGAuditCore
import HIGAuditIO
import HIGAuditSample
import Testing

/// SPEC §2: "apart from late events, results must equal those on input sorted per session". Generated
/// sessions (clean, so nothing is late or duplicate by design) are shuffled within the lateness bound,
/// cut into several files, each compressed as many zstd frames that end mid-line, and read through the
/// whole pipeline (reader, decoder, engine, rules); the violations must be those of the sorted input.
@Suite struct ShuffledStreamPropertyTests {
    /// A violation without its place in the input, which shuffling changes by design.
    struct Finding: Hashable, Comparable {
        var rule, session, severity, screen, device, appVersion: String
        var startTs, endTs: Int64
        var count: Int

        init(_ violation: Violation) {
            rule = violation.rule
            session = violation.session
            severity = violation.severity.rawValue
            screen = violation.screen
            device = violation.device
            appVersion = violation.appVersion
            startTs = violation.startTs
            endTs = violation.endTs
            count = violation.count
        }

        static func < (a: Finding, b: Finding) -> Bool {
            (a.session, a.startTs, a.rule, a.endTs, a.count, a.screen) < (b.session, b.startTs, b.rule, b.endTs, b.count, b.screen)
        }
    }

    struct Outcome {
        var findings: [Finding]
        var statistics: IngestStatistics
    }

    static func audit(_ files: [URL]) throws -> Outcome {
        var findings: [Finding] = []
        let run = AuditRun(
            configuration: AuditConfiguration(), reader: try InputReader(options: ReaderOptions()),
            onDiagnostic: { Issue.record("unexpected diagnostic: \($0)") })
        for file in files { run.read(InputSource(path: file.path, displayPath: file.lastPathComponent)) }
        let accumulator = run.finish()
        // The violations table in SPEC order, read back through the accumulator the CLI uses.
        let table = accumulator.violationsTable(sources: run.sources)
        let names = table.columnNames
        for row in table.rows {
            func text(_ column: String) -> String { row[names.firstIndex(of: column)!].plainText }
            findings.append(Finding(Violation(
                rule: text("rule"), severity: Severity(rawValue: text("severity")) ?? .warning, session: text("session"),
                device: text("device"), appVersion: text("app_version"), screen: text("screen"),
                startTs: TimestampParser.parse(rfc3339: text("start_ts")) ?? 0,
                endTs: TimestampParser.parse(rfc3339: text("end_ts")) ?? 0,
                count: Int(text("count")) ?? 0, detail: "", source: .unknown)))
        }
        return Outcome(findings: findings.sorted(), statistics: run.statistics)
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func shuffledSplitAndFramedInputGivesTheViolationsOfSortedInput(seed: UInt64) throws {
        var configuration = SampleConfiguration(size: .sessions(60), seed: seed, noise: .none)
        configuration.moveSamplingMs = 250
        // Time-ordered ten-minute files, as `hig-audit sample` writes by default.
        configuration.layout = .hourDevice
        configuration.fileMinutes = 10
        var sink = InMemorySampleLogSink()
        _ = try SampleGenerator(configuration: configuration).generate(into: &sink)
        // Path order is time order: the concatenation is sorted per session.
        let sorted = sink.files.sorted { $0.path < $1.path }.flatMap { $0.contents }
        let lines = sorted.split(separator: UInt8(ascii: "\n")).map(Array.init)

        // Each line moves by a jitter below max_lateness_ms, the same for a session's equal timestamps
        // (so their input order stays): no event can become late or close a session early.
        var random = SampleRandom(seed: seed &* 7919)
        let lateness = AuditConfiguration.defaultMaxLatenessMs
        let salt = random.next()
        var decoder = EventDecoder()
        var keyed: [(key: Int64, index: Int)] = []
        for (index, line) in lines.enumerated() {
            guard case .event(let event) = decoder.decode(String(decoding: line, as: UTF8.self)) else {
                Issue.record("clean sample line did not decode")
                continue
            }
            var hasher = Hasher()
            hasher.combine(salt)
            hasher.combine(event.session)
            hasher.combine(event.ts)
            let jitter = Int64(UInt64(bitPattern: Int64(hasher.finalize())) % UInt64(lateness))
            keyed.append((event.ts + jitter, index))
        }
        keyed.sort { ($0.key, $0.index) < ($1.key, $1.index) }
        #expect(keyed.map(\.index) != Array(lines.indices), "the shuffle must move something")

        let directory = try HigAuditBinary.temporaryDirectory()
        let sortedFile = directory.appendingPathComponent("sorted.ndjson")
        try Data(sorted).write(to: sortedFile)

        // The shuffled stream in 4 files (a line never spans files), each as frames of random size that
        // end anywhere, also inside a line.
        let encoder = try ZstdFrameEncoder()
        var files: [URL] = []
        let fileCount = 4
        let linesPerFile = keyed.count / fileCount + 1
        for part in 0..<fileCount {
            let slice = keyed[min(part * linesPerFile, keyed.count)..<min((part + 1) * linesPerFile, keyed.count)]
            let chunk = slice.flatMap { lines[$0.index] + [UInt8(ascii: "\n")] }
            var compressed: [UInt8] = []
            var offset = 0
            while offset < chunk.count {
                let length = min(Int(random.next() % 3000) + 1, chunk.count - offset)
                compressed += try encoder.frame(Array(chunk[offset..<offset + length]),
                                                options: ZstdFrameOptions(checksum: random.next() % 2 == 0))
                offset += length
            }
            let url = directory.appendingPathComponent("part-\(part).zst")
            try Data(compressed).write(to: url)
            files.append(url)
        }

        let expected = try Self.audit([sortedFile])
        let actual = try Self.audit(files)
        #expect(!expected.findings.isEmpty, "the sample plants problems, so there is something to compare")
        #expect(actual.findings == expected.findings)
        #expect(actual.statistics.events == expected.statistics.events)
        #expect(actual.statistics.lateEvents == 0)
        #expect(actual.statistics.frames > 4 * 2)
    }
}
