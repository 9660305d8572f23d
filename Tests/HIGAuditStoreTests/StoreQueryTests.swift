import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `query`: filters and group-bys over the store, checked against counts made here from the
/// violations table of one `analyze` and the sessions the store recorded.
@Suite struct StoreQueryTests {
    /// A store of three nights and the reference over the same files.
    static let fixture: (store: String, paths: [String]) = {
        do {
            let directory = try LogFixtures.temporaryDirectory()
            let lines = LogFixtures.stream(seed: 21, sessions: 80)
            let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 3), in: directory)
            let store = directory.appendingPathComponent("store.sqlite").path
            try nightly(store, [paths[0]])
            try nightly(store, [paths[1]])
            try nightly(store, [paths[2]], closeOpen: true)
            return (store, paths)
        } catch {
            return ("", [])
        }
    }()

    struct Row: Hashable {
        var rule, severity, session, device, version, screen: String
        var startTs: Int64
    }

    /// analyze's violations, and sessions as (version, device, first_ts, last_ts).
    static func reference() throws -> (violations: [Row], sessions: [String: (version: String, device: String, first: Int64, last: Int64)]) {
        let run = AuditRun(configuration: StoreTestConfiguration.standard, reader: try InputReader(), onDiagnostic: { _ in })
        for path in fixture.paths { run.read(InputSource(path: path)) }
        let table = run.finish().violationsTable(sources: run.sources)
        let violations = table.materializedRows.map { cells -> Row in
            guard case .timestamp(let start) = cells[6] else { return Row(rule: "", severity: "", session: "", device: "", version: "", screen: "", startTs: 0) }
            return Row(rule: cells[0].plainText, severity: cells[1].plainText, session: cells[2].plainText,
                       device: cells[3].plainText, version: cells[4].plainText, screen: cells[5].plainText, startTs: start)
        }
        var sessions: [String: (String, String, Int64, Int64)] = [:]
        let store = try ResultsStore(readingAt: fixture.store)
        try store.read { db in
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM sessions") {
                sessions[row["session"]] = (row["app_version"], row["device"], row["first_ts"], row["last_ts"])
            }
        }
        return (violations, sessions)
    }

    func grouped(_ dimensions: [GroupDimension], _ selection: StoreSelection) throws -> [[String]] {
        try ResultsStore(readingAt: Self.fixture.store).read { db in
            try StoreQuery.grouped(db, by: dimensions, selection: selection).materializedRows.map { $0.map(\.plainText) }
        }
    }

    @Test func groupByRuleWithinOneVersion() throws {
        let (violations, sessions) = try Self.reference()
        let version = "5.2"
        let rows = try grouped([.rule], StoreSelection(filter: TableFilter(appVersions: [version])))
        let total = sessions.values.filter { $0.version == version }.count
        #expect(total > 0)
        let rules = RuleRegistry.descriptions.map(\.identifier).sorted()
        #expect(rows.map { $0[0] } == rules)
        for row in rows {
            let matching = violations.filter { $0.rule == row[0] && $0.version == version }
            let affected = Set(matching.map(\.session)).count
            #expect(row[1] == String(matching.count), "\(row[0])")
            #expect(row[2] == String(affected))
            #expect(row[3] == String(total))
            #expect(row[4] == FixedDecimal.ratio(Int64(affected), Int64(total), scale: 100).description)
        }
        #expect(rows.contains { $0[1] != "0" })
    }

    @Test func groupByScreenWithSeverityAndTimeFilters() throws {
        let (violations, sessions) = try Self.reference()
        let since = LogFixtures.base + 600_000
        let until = LogFixtures.base + 2_400_000
        let selection = StoreSelection(filter: TableFilter(since: since, until: until), severities: [.error])
        let rows = try grouped([.screen, .device], selection)
        let matching = violations.filter { $0.severity == "error" && $0.startTs >= since && $0.startTs < until }
        var expected: [[String]: [Row]] = [:]
        for violation in matching { expected[[violation.screen, violation.device], default: []].append(violation) }
        #expect(rows.count == expected.count)
        for row in rows {
            let group = expected[[row[0], row[1]]] ?? []
            let total = sessions.values.filter { $0.device == row[1] && $0.last >= since && $0.first < until }.count
            #expect(row[2] == String(group.count))
            #expect(row[3] == String(Set(group.map(\.session)).count))
            #expect(row[4] == String(total))
        }
        #expect(!rows.isEmpty)
    }

    @Test func groupByVersionAndDay() throws {
        let (violations, sessions) = try Self.reference()
        let rows = try grouped([.appVersion, .day], .everything)
        func day(_ ms: Int64) -> String { TimestampFormatter.rfc3339(ms).prefix(10).description }
        #expect(rows.map { $0[0] } == rows.map { $0[0] }.sorted { VersionOrder.areInIncreasingOrder($0, $1) })
        for row in rows {
            let group = violations.filter { $0.version == row[0] && day($0.startTs) == row[1] }
            let total = sessions.values.filter { $0.version == row[0] && day($0.first) <= row[1] && day($0.last) >= row[1] }.count
            #expect(row[2] == String(group.count))
            #expect(row[3] == String(Set(group.map(\.session)).count))
            #expect(row[4] == String(total))
        }
        #expect(Set(rows.map { $0[0] }) == ["5.1", "5.2", "5.10"])
    }

    @Test(arguments: [
        TableFilter(rules: ["forced-tab-switch"], appVersions: ["5.10"]),
        TableFilter(screens: ["home"], devices: ["iPad1", "iPad2"]),
        TableFilter(since: LogFixtures.base + 900_000, until: LogFixtures.base + 1_800_000),
    ])
    func filteredTablesEqualAnalyzeWithTheSameFilters(filter: TableFilter) throws {
        let run = AuditRun(configuration: StoreTestConfiguration.standard, reader: try InputReader(), filter: filter, onDiagnostic: { _ in })
        for path in Self.fixture.paths { run.read(InputSource(path: path)) }
        let accumulator = run.finish()
        let stored = try ResultsStore(readingAt: Self.fixture.store).read { try StoredTables.load($0, selection: StoreSelection(filter: filter)) }
        for name in [TableName.violations, .summary, .byVersion, .byScreen, .haptics] {
            #expect(CSVWriter().render(stored.table(name)) == CSVWriter().render(accumulator.table(name, ingest: run.statistics, sources: run.sources)), "\(name.rawValue)")
        }
    }

    @Test func sqlRunsReadOnly() throws {
        let store = try ResultsStore(readingAt: Self.fixture.store)
        let count = try store.read { try StoreQuery.sql($0, "SELECT COUNT(*) AS n, 'x' AS t FROM violations") }
        #expect(count.columnNames == ["n", "t"])
        #expect(count.materializedRows.first?.first.map { if case .integer(let n) = $0 { n > 0 } else { false } } == true)
        #expect(throws: (any Error).self) { try store.read { try StoreQuery.sql($0, "DELETE FROM violations") } }
        #expect(throws: (any Error).self) { try store.read { try StoreQuery.sql($0, "SELEC nonsense") } }
        let after = try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM violations") }
        #expect(after.map { $0 > 0 } == true)
    }

    /// A decimal an analyst selects is a JSON number, as every other table's decimals are; CSV prints
    /// the same digits it always did. JSON has no infinity: SQLite's is `null` there.
    @Test func sqlDecimalsAreJSONNumbers() throws {
        let table = try DatabaseQueue().read {
            try StoreQuery.sql($0, "SELECT 2.5 AS a, -2.5 AS b, 7 AS c, 1.0 AS d, 1e-5 AS e, '2.5' AS f, 1e999 AS g")
        }
        #expect(JSONWriter().render(table) == "[\n{\"a\":2.5,\"b\":-2.5,\"c\":7,\"d\":1.0,\"e\":1e-05,\"f\":\"2.5\",\"g\":null}\n]\n")
        #expect(CSVWriter().render(table) == "a,b,c,d,e,f,g\r\n2.5,-2.5,7,1.0,1e-05,2.5,inf\r\n")
    }
}
