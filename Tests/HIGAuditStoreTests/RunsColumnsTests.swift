import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// The store's `runs` table against `IngestStatistics.counters`, the one list of ingest counters: each
/// counter has its column, a run's counters come back as they were written, and the columns keep the
/// order stores of the first version have.
@Suite struct RunsColumnsTests {
    /// The `runs` columns of a store made by the first version, in their order; the counters added
    /// since follow (`StoreSchema.completeForWriting`). A store made today must have them so, or
    /// `runs_readable` and any analyst's `SELECT *` would differ between old and new stores.
    static let firstVersionColumns = [
        "id", "started_at", "finished_at", "close_open", "files", "files_skipped", "files_changed",
        "compressed_bytes", "decompressed_bytes", "frames", "lines", "events", "sessions", "sessions_closed",
        "open_sessions", "malformed_lines", "late_events", "duplicate_events", "unknown_types", "skipped_bytes",
        "truncated_files", "unbalanced_dismisses", "faults", "violations",
    ]

    @Test func aNewStoreHasTheFirstVersionsColumnsThenEveryLaterCounter() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        _ = try ResultsStore(writingAt: path)
        let columns = try DatabaseQueue(path: path).read { try $0.columns(in: "runs").map(\.name) }
        let later = IngestStatistics.counters.map(\.name).filter { !Self.firstVersionColumns.contains($0) }
        #expect(columns == Self.firstVersionColumns + later)
    }

    /// Every counter a run counted is what the store gives back for that run (`faults` adds the files
    /// refused as changed; none are here).
    @Test func everyCounterComesBackFromTheStore() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        var lines = LogFixtures.stream(seed: 7, sessions: 30)
        lines.insert("{not json", at: 5)
        lines.insert(#"{"ts":1795000000000,"session":"x","type":"future.thing"}"#, at: 9)
        let files = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 2), in: directory)
        let (outcome, _) = try nightly(path, files, closeOpen: true)
        let stored = try ResultsStore(readingAt: path).read { try StoredTables.load($0).ingest }
        for counter in IngestStatistics.counters {
            #expect(counter.value(in: stored) == counter.value(in: outcome.statistics), "\(counter.name)")
        }
        #expect(stored.unknownTypes == outcome.statistics.unknownTypes)
        for name in ["lines", "events", "malformed_lines", "unknown_types", "late_events", "duplicate_events"] {
            let counter = try #require(IngestStatistics.counters.first { $0.name == name })
            #expect(counter.value(in: stored) > 0, "\(name): the fixture has some")
        }
    }

    /// `Pipelines/README.md` documents each `runs` column for analysts.
    @Test func everyRunsColumnIsDocumented() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Pipelines/README.md"),
            encoding: .utf8)
        for column in Self.firstVersionColumns + IngestStatistics.counters.map(\.name) {
            #expect(readme.contains("`\(column)`"), "\(column)")
        }
    }
}
