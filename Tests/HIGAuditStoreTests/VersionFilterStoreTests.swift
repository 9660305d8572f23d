import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// The store answers version filters as `analyze` does: by whole components.
@Suite struct VersionFilterStoreTests {
    @Test func aVersionFilterTakesExtendingVersionsButNotLongerNumbers() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // LogFixtures labels sessions 5.1, 5.2 and 5.10.
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(LogFixtures.stream(seed: 4), count: 2), in: directory)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, paths, closeOpen: true)
        let store = try ResultsStore(readingAt: storePath)
        let (exact, all) = try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions WHERE app_version = '5.1'") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? 0)
        }
        #expect(exact > 0 && exact < all)
        let selected = try storeTables(storePath, selection: StoreSelection(filter: TableFilter(appVersions: ["5.1"])))
        let totals = Set((selected[.summary] ?? "").split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[4] })
        #expect(totals == [Substring(String(exact))], "5.1 is not 5.10")

        let notes = try store.read { try StoredTables.filterMisses($0, filter: TableFilter(appVersions: ["5", "5.3"])) }
        #expect(notes == ["--app-version 5.3 matches no session; app versions seen: 5.1, 5.2, 5.10"])

        let comparison = try store.read { try ReleaseComparison.table($0, base: "5", head: "5.1") }
        #expect(comparison.rows.first?[0] != nil)
        #expect(throws: StoreError.self) { try store.read { try ReleaseComparison.table($0, base: "4.9", head: "5.1") } }
        do {
            _ = try store.read { try ReleaseComparison.table($0, base: "4.9", head: "5.1") }
        } catch {
            #expect("\(error)".contains("versions in the store: 5.1, 5.2, 5.10"))
        }
    }

    @Test func versionCountsFromOneGroupingGiveCompareTablesExactly() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(LogFixtures.stream(seed: 9), count: 2), in: directory)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, paths, closeOpen: true)
        try ResultsStore(readingAt: storePath).read { db in
            let counts = VersionCounts(grouped: try StoreQuery.grouped(db, by: [.appVersion, .rule]))
            let rules = try String.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
            // "5" takes all three versions: a side that sums several.
            for base in ["5", "5.1", "5.2", "5.10"] {
                for head in ["5", "5.1", "5.2", "5.10"] where head != base {
                    let counted = ReleaseComparison.table(rules: rules, base: counts.side(base), head: counts.side(head))
                    let compared = try ReleaseComparison.table(db, base: .version(base), head: .version(head))
                    #expect(counted.columns == compared.columns && counted.materializedRows == compared.materializedRows, "\(base) against \(head)")
                }
            }
            #expect(counts.side("5").sessions == (try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions")))
            #expect(counts.side("4.9") == ComparisonCounts(sessions: 0, affected: [:]))
        }
    }
}
