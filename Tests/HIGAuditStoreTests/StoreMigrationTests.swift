import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// The schema's migrations (`StoreMigrations`, issue 46): a store made by the release of 2026-11-28,
/// before the migrator, is read as it is and migrated by its next nightly run, which continues its
/// open sessions; a store of a later version is refused, naming the migrations.
@Suite struct StoreMigrationTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = here.deletingLastPathComponent().deletingLastPathComponent()

    /// Fixtures/README.md says how it was made: two nights of `SampleLogs` (the uploads of iPads 0000–0199
    /// at 18:00 and 18:10), each leaving open sessions in the checkpoint, by the release at 42eae43.
    static let releaseStore = here.appendingPathComponent("Fixtures/store-2026-11-28-42eae43.sqlite").path

    /// The uploads of iPads 0000–0199 of the sample night's 10 minutes from `slot`, in the order the
    /// fixture's shell listed them.
    static func uploads(_ slot: String) throws -> [String] {
        let folder = repository.appendingPathComponent("SampleLogs/night-2026-11-20/2026-11-20/\(slot)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".ndjson.zst") && ($0.hasPrefix("ipad-00") || $0.hasPrefix("ipad-01")) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { folder.appendingPathComponent($0).path }
    }

    static func copyOfReleaseStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: releaseStore, toPath: path)
        return path
    }

    /// Each file's lead, by file id, as `sql` (id, lead) selects them.
    static func leads(_ db: Database, sql: String) throws -> [Int64: String] {
        var leads: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: sql) { leads[row[0]] = row[1] }
        return leads
    }

    static func migrations(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }

    @Test func aStoreOfTheReleaseIsReadAsItIsAndMigratedByItsNextNight() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.copyOfReleaseStore(in: directory)
        #expect(try Self.migrations(path) == ["v1", "v2"])
        let (openBefore, leadsBefore) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT open_sessions FROM engine_checkpoint") ?? 0,
             try Self.leads(db, sql: """
                SELECT f.id, l.lead_sha256 FROM input_file_leads l JOIN input_files f ON f.id = l.file AND f.head_sha256 = l.head_sha256
                """))
        }
        #expect(leadsBefore.count == 34)
        #expect(openBefore > 0)

        // Readers read the unmigrated store, and leave it so.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let unmigrated = try ResultsStore(readingAt: path).read { db in
            (try StoredTables.load(db).table(.summary).rows.count, try StoredCheckpoint.load(db).sessions.count)
        }
        #expect(unmigrated.0 > 0 && unmigrated.1 == openBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // The next night migrates it and continues its open sessions: one store over the three nights
        // gives the tables of one `analyze` over them.
        let configuration = AuditConfiguration()
        let (night, _) = try nightly(path, try Self.uploads("1820"), closeOpen: true, configuration)
        #expect(night.filesRead > 0 && night.openSessions == 0)
        #expect(try Self.migrations(path) == StoreMigrations.identifiers.sorted())
        let migrated = try DatabaseQueue(path: path).read { db in
            (try db.tableExists("input_file_leads"),
             try Self.leads(db, sql: "SELECT id, lead_sha256 FROM input_files WHERE lead_sha256 IS NOT NULL"),
             try db.columns(in: "checkpoint_sessions").map(\.name))
        }
        // The leads moved into `input_files`; the files read since have theirs too.
        #expect(migrated.0 == false)
        #expect(migrated.1.filter { leadsBefore[$0.key] != nil } == leadsBefore)
        #expect(migrated.1.count > leadsBefore.count)
        #expect(migrated.2 == ["session", "device", "state"])
        let everything = try Self.uploads("1800") + Self.uploads("1810") + Self.uploads("1820")
        let expected = try analyzeTables(everything, configuration)
        let actual = try storeTables(path)
        // `violations` names each file as the run that read it did (the fixture by relative paths).
        for name in [TableName.summary, .byVersion, .byScreen, .haptics] {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
        let violations = { (table: String?) in table?.split(separator: "\n").count ?? 0 }
        #expect(violations(actual[.violations]) == violations(expected[.violations]))
    }

    @Test func aStoreOfALaterVersionIsRefusedNamingTheMigrations() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.copyOfReleaseStore(in: directory)
        try ResultsStore(writingAt: path).queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let expected = StoreError.otherSchemaVersion(
            store: path, migrations: ["v9-from-the-future"], known: StoreMigrations.identifiers)
        #expect(throws: expected) { _ = try ResultsStore(writingAt: path) }
        #expect(throws: expected) { _ = try ResultsStore(readingAt: path) }
        #expect(expected.description.contains("(migrations v9-from-the-future)"))
        #expect(expected.description.contains("knows only v1, v2, "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Every migration is recorded once, in order, on a new store.
    @Test func aNewStoreRecordsEveryMigration() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        _ = try ResultsStore(writingAt: path)
        #expect(try Self.migrations(path) == StoreMigrations.identifiers.sorted())
        #expect(StoreMigrations.identifiers.prefix(2) == ["v1", "v2"])
    }
}
