import Foundation
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `query --group-by day,rule --since/--until`: a session overlapping the window counts on each of its
/// days within it, and the days outside the window, on which no violation of the window starts, get no
/// rows of zeros.
@Suite struct GroupedDayWindowTests {
    @Test func daysOutsideTheWindowGetNoRows() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let midnight: Int64 = 1_795_219_200_000  // 2026-11-21T00:00:00Z
        let lines = [
            #"{"ts":\#(midnight - 60_000),"session":"late","type":"session.start","device":"d1","app_version":"1.0"}"#,
            #"{"ts":\#(midnight + 60_000),"session":"late","type":"haptic","kind":"custom","duration_ms":2000}"#,
            #"{"ts":\#(midnight + 120_000),"session":"late","type":"session.end"}"#,
        ]
        let path = try closedStore(of: lines, in: directory)
        try ResultsStore(readingAt: path).read { db in
            func days(_ filter: TableFilter) throws -> Set<String> {
                Set(try StoreQuery.grouped(db, by: [.day, .rule], selection: StoreSelection(filter: filter))
                    .materializedRows.map { $0[0].plainText })
            }
            #expect(try days(.none) == ["2026-11-20", "2026-11-21"])
            #expect(try days(TableFilter(since: midnight)) == ["2026-11-21"])
            #expect(try days(TableFilter(until: midnight)) == ["2026-11-20"])
            #expect(try days(TableFilter(since: midnight - 1, until: midnight + 1)) == ["2026-11-20", "2026-11-21"])
            let row = try StoreQuery.grouped(db, by: [.day, .rule], selection: StoreSelection(filter: TableFilter(since: midnight)))
                .materializedRows.first { $0[1].plainText == "haptic-overuse" }
            #expect(row?.map(\.plainText) == ["2026-11-21", "haptic-overuse", "1", "1", "1", "100.00"])
        }
    }
}
