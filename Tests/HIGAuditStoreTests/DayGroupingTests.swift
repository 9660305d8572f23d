import GRDB
import Testing
@testable import HIGAuditStore

/// `query --group-by day` names a violation's day by integer arithmetic and `dayLabel`; it must name
/// exactly the day SQLite's `date(start_ts / 1000, 'unixepoch')` names, which `sessions_total` uses.
struct DayGroupingTests {
    static let timestamps: [Int64] = [
        0, 1, 999, 1000, 86_399_999, 86_400_000, -1, -999, -1000, -1001, -86_399_999, -86_400_000, -86_400_001,
        1_795_000_000_000, 1_795_046_399_999, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000,
        -62_167_219_200_001, -62_167_219_201_000, -210_866_673_600_000, -210_866_760_000_000 - 86_400_000 * 2,
        Int64.max / 2, Int64.min / 2,
    ]

    @Test func dayOfAViolationIsSQLitesDate() throws {
        let db = try DatabaseQueue()
        let expression = GroupDimension.day.violationExpression.replacingOccurrences(of: "v.start_ts", with: "?")
        try db.read { db in
            for ts in Self.timestamps {
                let arguments = StatementArguments(Array(repeating: ts, count: expression.filter { $0 == "?" }.count))
                let day = try Int64.fetchOne(db, sql: "SELECT \(expression)", arguments: arguments)
                let sqlite = try String.fetchOne(db, sql: "SELECT date(? / 1000, 'unixepoch')", arguments: [ts]) ?? ""
                #expect(GroupDimension.dayLabel(day) == sqlite, "ts \(ts)")
            }
        }
    }
}
