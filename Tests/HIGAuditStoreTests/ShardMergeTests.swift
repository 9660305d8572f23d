import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `nightly --shard K/N` parts merged by `merge`: every table of the merged store equals one run's,
/// whatever the number of shards and whichever shard counts each file; overlapping parts, parts of
/// other configurations and parts with open sessions are refused; merging again changes nothing.
@Suite struct ShardMergeTests {
    /// The fixture stream, with later events of some sessions naming another device than their first
    /// (which decides the session's shard) and sessions crossing file boundaries.
    static func files(in directory: URL, seed: UInt64 = 5) throws -> [String] {
        var lines = LogFixtures.stream(seed: seed, sessions: 60, eventsPerSession: 10...50)
        for index in lines.indices where index % 7 == 0 && !lines[index].contains("\"device\"") && lines[index].hasSuffix("}") {
            lines[index].removeLast()
            lines[index] += #","device":"iPad\#(index % 5)"}"#
        }
        return try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 6), in: directory, framesPerFile: 2)
    }

    static func part(
        _ path: String, _ files: [String], shard: DeviceShard, counted: Set<String>? = nil, closeOpen: Bool = true,
        _ configuration: AuditConfiguration = StoreTestConfiguration.standard
    ) throws {
        let run = NightlyRun(
            store: try ResultsStore(writingAt: path), configuration: configuration, reader: try InputReader(),
            closeOpen: closeOpen, onDiagnostic: { _ in })
        run.shardPart = ShardPart(shard: shard, countedFiles: counted)
        _ = try run.run(files.map { InputSource(path: $0) })
    }

    /// Every table `export` writes, as CSV, and the ingest counters.
    static func tables(of store: String) throws -> [TableName: String] {
        let loaded = try ResultsStore(readingAt: store).read { try StoredTables.load($0) }
        var tables: [TableName: String] = [:]
        for name in TableName.exported where name != .ingest { tables[name] = CSVWriter().render(loaded.table(name)) }
        tables[.ingest] = CSVWriter().render(IngestTables.ingestTable(loaded.ingest))
        return tables
    }

    static func analyzed(_ files: [String]) throws -> [TableName: String] {
        let run = AuditRun(configuration: StoreTestConfiguration.standard, reader: try InputReader(), onDiagnostic: { _ in })
        for path in files { run.read(InputSource(path: path)) }
        let accumulator = run.finish()
        var tables: [TableName: String] = [:]
        for name in TableName.exported {
            tables[name] = CSVWriter().render(accumulator.table(name, ingest: run.statistics, sources: run.sources))
        }
        return tables
    }

    @Test(arguments: [1, 2, 3, 5])
    func mergedPartsEqualOneRun(shards: Int) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        var parts: [String] = []
        for index in 0..<shards {
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            // Every shard reads every file; file i's counters are shard (i mod N)'s.
            let counted = Set(files.enumerated().filter { $0.offset % shards == index }.map(\.element))
            try Self.part(part, files, shard: DeviceShard(index: index, count: shards)!, counted: counted)
            parts.append(part)
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        // Parts in reverse order: the merged store orders the files as the run read them.
        let outcome = try StoreMerge.merge(parts: parts.reversed(), into: merged)
        #expect(outcome.partsMerged == shards)
        let expected = try Self.analyzed(files)
        let actual = try Self.tables(of: merged)
        for name in TableName.exported { #expect(actual[name] == expected[name], "\(name.rawValue), \(shards) shards") }
        let paths = try ResultsStore(readingAt: merged).read { try String.fetchAll($0, sql: "SELECT display_path FROM input_files ORDER BY id") }
        #expect(paths == files)
    }

    /// Small files' leads (`input_files.lead_sha256`) follow their files through `merge`, which renumbers the
    /// files in the order the run read them: each is the digest of its own file's first bytes.
    @Test func leadsFollowTheirFilesThroughMerge() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = LogFixtures.stream(seed: 9, sessions: 12, eventsPerSession: 2...6)
        var files: [String] = []
        for (index, chunk) in LogFixtures.chunks(lines, count: 8).enumerated() {
            let path = directory.appendingPathComponent("upload-\(index).ndjson").path
            try Data(LogFixtures.text(chunk).utf8).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let small = try files.filter {
            FileIdentity.narrowsByLead(headLength: try Data(contentsOf: URL(fileURLWithPath: $0)).count)
        }
        try #require(small.count >= 4)
        // The part merged first reads the later files only, so that the merged store numbers its
        // files anew once the other part puts the first files before them.
        var parts: [String] = []
        for (index, read) in [Array(files[0..<5]), Array(files[2...])].enumerated() {
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            let counted = Set(index == 0 ? files[0..<5] : files[5...])
            try Self.part(part, read, shard: DeviceShard(index: index, count: 2)!, counted: counted)
            parts.append(part)
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: parts.reversed(), into: merged)
        let leads = try ResultsStore(readingAt: merged).read {
            try Row.fetchAll($0, sql: """
                SELECT display_path, lead_sha256 FROM input_files WHERE lead_sha256 IS NOT NULL ORDER BY id
                """).map { ($0["display_path"] as String, $0["lead_sha256"] as String) }
        }
        #expect(leads.map(\.0) == small)
        for (path, lead) in leads {
            var hasher = SHA256()
            hasher.update(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(FileIdentity.leadBytes)))
            #expect(lead == hasher.finalized().hex, "\(path)")
        }
    }

    @Test func withoutAListShardZeroCountsTheFiles() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory, seed: 9)
        let parts = try (0..<2).map { index in
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            try Self.part(part, files, shard: DeviceShard(index: index, count: 2)!)
            return part
        }
        let one = try ResultsStore(readingAt: parts[1]).read { try StoredTables.load($0) }.ingest
        #expect(one.files == 0 && one.lines == 0 && one.malformedLines == 0 && one.events > 0)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: parts, into: merged)
        #expect(try Self.tables(of: merged) == Self.analyzed(files))
    }

    @Test func mergingTheSamePartsAgainChangesNothing() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        let parts = try (0..<3).map { index in
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            try Self.part(part, files, shard: DeviceShard(index: index, count: 3)!)
            return part
        }
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: [parts[0], parts[1]], into: merged)
        let partial = try Self.tables(of: merged)
        _ = try StoreMerge.merge(parts: [parts[2]], into: merged)
        let complete = try KillRecoveryTests.fingerprint(merged)
        #expect(try Self.tables(of: merged) != partial)
        #expect(try Self.tables(of: merged) == Self.analyzed(files))
        let again = try StoreMerge.merge(parts: parts + [parts[1]], into: merged)
        #expect(again.partsMerged == 0 && again.partsAlreadyMerged == 4)
        #expect(try KillRecoveryTests.fingerprint(merged) == complete)
    }

    @Test func overlappingPartsAreRefusedAndNothingIsWritten() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        let first = directory.appendingPathComponent("a.sqlite").path
        let retried = directory.appendingPathComponent("b.sqlite").path
        let other = directory.appendingPathComponent("c.sqlite").path
        try Self.part(first, files, shard: DeviceShard(index: 0, count: 2)!)
        try Self.part(retried, files, shard: DeviceShard(index: 0, count: 2)!)
        try Self.part(other, files, shard: DeviceShard(index: 1, count: 2)!)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: [first], into: merged)
        let before = try KillRecoveryTests.fingerprint(merged)
        #expect {
            try StoreMerge.merge(parts: [other, retried], into: merged)
        } throws: { error in
            guard case StoreMergeError.overlappingSessions(let part, _) = error else { return false }
            return part == retried
        }
        #expect(try KillRecoveryTests.fingerprint(merged) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains("merge-tmp") })
    }

    @Test func partsOfAnotherConfigurationAreRefused() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        let zero = directory.appendingPathComponent("0.sqlite").path
        let one = directory.appendingPathComponent("1.sqlite").path
        try Self.part(zero, files, shard: DeviceShard(index: 0, count: 2)!)
        var stricter = StoreTestConfiguration.standard
        stricter.rules["haptic-overuse"] = RuleSettings(enabled: true, parameters: ["burst_count": 2])
        try Self.part(one, files, shard: DeviceShard(index: 1, count: 2)!, stricter)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        #expect(throws: StoreMergeError.differentConfiguration(part: one)) {
            try StoreMerge.merge(parts: [zero, one], into: merged)
        }
        #expect(!FileManager.default.fileExists(atPath: merged))
    }

    @Test func storesThatAreNotClosedPartsAreRefused() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        let plain = directory.appendingPathComponent("plain.sqlite").path
        try nightly(plain, files, closeOpen: true)
        let open = directory.appendingPathComponent("open.sqlite").path
        try Self.part(open, Array(files.prefix(2)), shard: DeviceShard(index: 0, count: 1)!, closeOpen: false)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        #expect(throws: StoreMergeError.notAPart(plain)) { try StoreMerge.merge(parts: [plain], into: merged) }
        #expect {
            try StoreMerge.merge(parts: [open], into: merged)
        } throws: { error in
            guard case StoreMergeError.openSessions(open, let count) = error else { return false }
            return count > 0
        }
        #expect(throws: StoreMergeError.notAMergedStore(plain)) {
            try StoreMerge.merge(parts: [open], into: plain)
        }
    }

    /// A shard count past what a run can hold is a usage error before any work, not a trap mid-run.
    @Test func shardCountsPastTheBoundAreUsageErrors() throws {
        guard let executable = KillRecoveryTests.executable else {
            Issue.record("the hig-audit executable was not found under .build; build with `swift build --build-tests` first")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.files(in: directory)
        for shard in ["0/4611686018427387904", "0/1048577", "9223372036854775806/9223372036854775807"] {
            let store = directory.appendingPathComponent("part-\(shard.count).sqlite").path
            let result = try SparkJobTests.run(executable, ["nightly", "--store", store, "--close-open", "--shard", shard] + files)
            #expect(result.status == 64, "\(shard): \(result.errors)")
            #expect(result.errors.contains("--shard takes K/N with 0 ≤ K < N ≤ 1048576"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: store))
        }
    }
}
