import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// Migration `v7-row-indexes-by-run` (issue 46, "Nights cost what the night holds"): the row indexes
/// of `sessions` and `violations` are made again with `run_id` after their leading columns, so that a
/// night appends to them; the stores made before it (the release of 2026-11-28, today's main) are
/// migrated by their next nightly run, and every table reads as it did.
@Suite struct RowIndexesByRunTests {
    static let fixtures = StoreMigrationTests.here.appendingPathComponent("Fixtures")
    /// Fixtures/README.md: schema `v1`–`v2` (the release of 2026-11-28) and `v1`–`v6` (main before
    /// this migration), each two short nights of `SampleLogs` with open sessions left.
    static let stores = ["store-2026-11-28-42eae43.sqlite", "store-2026-11-29-fbf6955.sqlite"]

    static func copy(_ fixture: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(fixture).path, toPath: path)
        return path
    }

    static let indexesOfV1 = Dictionary(
        uniqueKeysWithValues: (RowIndex.onSessionsOfV1 + RowIndex.onViolationsOfV1).map { ($0.name, $0.creation) })

    @Test(arguments: stores) func anEarlierStoreGetsItsIndexesKeyedByRunAndReadsTheSame(fixture: String) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.copy(fixture, in: directory)
        #expect(try RowIndexTests.rowIndexes(path) == Self.indexesOfV1)
        let before = try storeTables(path)
        _ = try ResultsStore(writingAt: path)
        #expect(try StoreMigrationTests.migrations(path) == StoreMigrations.identifiers.sorted())
        #expect(try RowIndexTests.rowIndexes(path) == RowIndexTests.expected)
        #expect(try storeTables(path) == before)
    }

    /// A night after the migration continues the fixture's open sessions into the new indexes: the
    /// store over the three nights gives `analyze`'s tables of them (as `StoreMigrationTests` checks
    /// for the release's store), and its queries by every index give what they gave before the night
    /// plus the night's rows.
    @Test func aMigratedStoreOfTodaysMainTakesItsNextNight() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.copy(Self.stores[1], in: directory)
        let configuration = AuditConfiguration()
        let (night, _) = try nightly(path, try StoreMigrationTests.uploads("1820"), closeOpen: true, configuration)
        #expect(night.filesRead > 0 && night.openSessions == 0 && !night.rowIndexesBuiltAfterInserts)
        #expect(try RowIndexTests.rowIndexes(path) == RowIndexTests.expected)
        let everything = try ["1800", "1810", "1820"].flatMap(StoreMigrationTests.uploads)
        let expected = try analyzeTables(everything, configuration)
        let actual = try storeTables(path)
        for name in [TableName.summary, .byVersion, .byScreen, .haptics] {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
        #expect(try ResultsStore(readingAt: path).read { try Self.integrity($0) } == ["ok"])
    }

    /// An index its owner dropped, or made again under our name, is left as the owner made it.
    @Test func indexesTheOwnerChangedAreLeftAsTheyAre() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.copy(Self.stores[1], in: directory)
        let own = "CREATE INDEX violations_by_screen ON violations(screen)"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DROP INDEX sessions_by_device")
            try db.execute(sql: "DROP INDEX violations_by_screen")
            try db.execute(sql: own)
        }
        _ = try ResultsStore(writingAt: path)
        var expected = RowIndexTests.expected
        expected["sessions_by_device"] = nil
        expected["violations_by_screen"] = own
        #expect(try RowIndexTests.rowIndexes(path) == expected)
    }

    static func integrity(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
    }
}
