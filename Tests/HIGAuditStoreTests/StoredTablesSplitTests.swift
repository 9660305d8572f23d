import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// A store read in two halves of its sessions, on two connections at once, and merged gives the
/// tables of one reading, byte for byte, whatever the selection.
@Suite struct StoredTablesSplitTests {
    static func csv(_ tables: StoredTables) -> [String] {
        TableName.allCases.map { CSVWriter().render(tables.table($0)) }
            + [String(tables.openSessions), String(tables.accumulator.sessionsTotal)]
    }

    @Test func twoHalvesGiveTheTablesOfOneReading() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("results.sqlite").path
        // Two nights, the second leaving sessions open, so that runs and the checkpoint count too.
        let first = try LogFixtures.writeZstdFiles(
            LogFixtures.chunks(LogFixtures.stream(seed: 31, sessions: 150), count: 3), in: directory)
        try nightly(path, first)
        let later = directory.appendingPathComponent("later")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try nightly(path, try LogFixtures.writeZstdFiles(
            LogFixtures.chunks(LogFixtures.stream(seed: 32, sessions: 150), count: 2), in: later))
        let store = try ResultsStore(readingAt: path)
        let sessions = try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sessions") } ?? 0
        #expect(sessions > 100)

        let selections = [
            StoreSelection.everything,
            StoreSelection(filter: TableFilter(appVersions: ["5.2", "9.9"])),
            StoreSelection(filter: TableFilter(rules: ["haptic-overuse"], screens: ["home"])),
            StoreSelection(filter: TableFilter(devices: ["iPad1", "iPad3"]), severities: [.error]),
            StoreSelection(runs: [2]),
            StoreSelection(filter: TableFilter(sessions: ["s3-31", "s140-32", "s7-31", "missing"])),
            StoreSelection(filter: TableFilter(since: LogFixtures.base + 1_200_000, until: LogFixtures.base + 2_400_000)),
        ]
        for selection in selections {
            let whole = try store.read { try StoredTables.load($0, selection: selection) }
            let halves = try StoredTables.load(store, selection: selection, minimumSessions: 1)
            #expect(Self.csv(halves) == Self.csv(whole), "\(selection)")
            #expect(halves.accumulator.filterMisses == whole.accumulator.filterMisses)
        }
        // In WAL mode the second half is read after the first, in the same transaction.
        let everything = Self.csv(try store.read { try StoredTables.load($0) })
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        let wal = try ResultsStore(readingAt: path)
        #expect(Self.csv(try StoredTables.load(wal, minimumSessions: 1)) == everything)
    }
}
