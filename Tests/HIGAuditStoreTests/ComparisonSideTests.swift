import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// `compare` between two nights, two time ranges and two runs, checked against counts made here from
/// the sessions and violations the store recorded.
@Suite struct ComparisonSideTests {
    /// Midnight UTC of the day `LogFixtures.base` falls on.
    static let firstDay = LogFixtures.base - LogFixtures.base % ComparisonSide.dayMs

    /// A store of two nights: run 1 reads a stream on `firstDay`, run 2 another stream one day later.
    static let fixture: String = {
        do {
            let directory = try LogFixtures.temporaryDirectory()
            let store = directory.appendingPathComponent("store.sqlite").path
            for (night, seed) in [(0, UInt64(41)), (1, UInt64(42))] {
                let lines = shifted(LogFixtures.stream(seed: seed, sessions: 90), by: Int64(night) * ComparisonSide.dayMs)
                let nightDirectory = directory.appendingPathComponent("night\(night)")
                try FileManager.default.createDirectory(at: nightDirectory, withIntermediateDirectories: true)
                let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 2), in: nightDirectory)
                try nightly(store, paths, closeOpen: true)
            }
            return store
        } catch {
            return ""
        }
    }()

    /// `lines` with every numeric `ts` moved by `offset` milliseconds.
    static func shifted(_ lines: [String], by offset: Int64) -> [String] {
        lines.map { line in
            guard let match = line.firstMatch(of: /^\{"ts":(\d+)/), let ts = Int64(match.1) else { return line }
            return line.replacingCharacters(in: match.range, with: "{\"ts\":\(ts + offset)")
        }
    }

    struct Recorded {
        var sessions: [(session: String, first: Int64, last: Int64, run: Int64)] = []
        var violations: [(rule: String, session: String, start: Int64, run: Int64)] = []
        var rules: [String] = []
    }

    static func recorded() throws -> Recorded {
        try ResultsStore(readingAt: fixture).read { db in
            var recorded = Recorded()
            for row in try Row.fetchAll(db, sql: "SELECT session, first_ts, last_ts, run_id FROM sessions") {
                recorded.sessions.append((row[0], row[1], row[2], row[3]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT rule, session, start_ts, run_id FROM violations") {
                recorded.violations.append((row[0], row[1], row[2], row[3]))
            }
            recorded.rules = try String.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
            return recorded
        }
    }

    /// Sessions and affected sessions per rule of a period, counted here: a session overlapping
    /// `since ≤ t < until`, a violation starting inside.
    static func expectedPeriod(_ recorded: Recorded, since: Int64, until: Int64) -> (total: Int, affected: [String: Int]) {
        let total = recorded.sessions.filter { $0.first < until && $0.last >= since }.count
        var affected: [String: Set<String>] = [:]
        for violation in recorded.violations where violation.start >= since && violation.start < until {
            affected[violation.rule, default: []].insert(violation.session)
        }
        return (total, affected.mapValues(\.count))
    }

    func compare(_ base: ComparisonSide, _ head: ComparisonSide, pValues: ReleaseComparison.PValueStyle = .readable) throws -> HIGAuditCore.Table {
        try ResultsStore(readingAt: Self.fixture).read { try ReleaseComparison.table($0, base: base, head: head, pValues: pValues) }
    }

    func check(_ table: HIGAuditCore.Table, recorded: Recorded, base: (total: Int, affected: [String: Int]), head: (total: Int, affected: [String: Int])) {
        let rows = table.materializedRows.map { $0.map(\.plainText) }
        #expect(rows.map { $0[0] } == recorded.rules)
        for row in rows {
            #expect(row[1] == String(base.total) && row[4] == String(head.total), "\(row[0])")
            #expect(row[2] == String(base.affected[row[0]] ?? 0), "\(row[0])")
            #expect(row[5] == String(head.affected[row[0]] ?? 0), "\(row[0])")
            let test = RateTest.compare(
                affectedBase: Int64(base.affected[row[0]] ?? 0), totalBase: Int64(base.total),
                affectedHead: Int64(head.affected[row[0]] ?? 0), totalHead: Int64(head.total))
            #expect(row[10] == ReleaseComparison.format(test.pValue), "\(row[0])")
        }
    }

    @Test func twoNightsByDayCountWhatOverlapsEachDay() throws {
        let recorded = try Self.recorded()
        let day = ComparisonSide.dayMs
        let base = Self.expectedPeriod(recorded, since: Self.firstDay, until: Self.firstDay + day)
        let head = Self.expectedPeriod(recorded, since: Self.firstDay + day, until: Self.firstDay + 2 * day)
        #expect(base.total > 50 && head.total > 50)
        #expect(base.affected.values.reduce(0, +) > 0 && head.affected.values.reduce(0, +) > 0)
        let table = try compare(.day(startingAt: Self.firstDay), .day(startingAt: Self.firstDay + day))
        check(table, recorded: recorded, base: base, head: head)
    }

    /// Each night's sessions lie within its day and were closed by its run, so runs give the same table.
    @Test func twoRunsGiveTheSessionsEachRunClosed() throws {
        let recorded = try Self.recorded()
        #expect(Set(recorded.sessions.map(\.run)) == [1, 2])
        func counts(_ run: Int64) -> (total: Int, affected: [String: Int]) {
            var affected: [String: Set<String>] = [:]
            for violation in recorded.violations where violation.run == run { affected[violation.rule, default: []].insert(violation.session) }
            return (recorded.sessions.filter { $0.run == run }.count, affected.mapValues(\.count))
        }
        let byRun = try compare(.run(1), .run(2))
        check(byRun, recorded: recorded, base: counts(1), head: counts(2))
        let byDay = try compare(.day(startingAt: Self.firstDay), .day(startingAt: Self.firstDay + ComparisonSide.dayMs))
        #expect(byRun.materializedRows == byDay.materializedRows)
    }

    /// Ranges cut through sessions: a session counts when it overlaps, a violation when it starts inside.
    @Test func twoRangesCountOverlapsAndViolationsStartingInside() throws {
        let recorded = try Self.recorded()
        let since = LogFixtures.base + 600_000, until = LogFixtures.base + 2_400_000
        let later = ComparisonSide.dayMs
        let base = Self.expectedPeriod(recorded, since: since, until: until)
        let head = Self.expectedPeriod(recorded, since: since + later, until: until + later)
        #expect(recorded.sessions.contains { $0.first < since && $0.last >= since }, "some session straddles the range's start")
        let table = try compare(.period(since: since, until: until), .period(since: since + later, until: until + later))
        check(table, recorded: recorded, base: base, head: head)
        // An open end takes everything from `since` on: here, the whole second night.
        let open = try compare(.period(since: nil, until: Self.firstDay + later), .period(since: Self.firstDay + later, until: nil))
        #expect(open.materializedRows == (try compare(.run(1), .run(2))).materializedRows)
    }

    @Test func aSideWithoutSessionsIsAnErrorThatSaysWhatExists() throws {
        let empty = ComparisonSide.day(startingAt: Self.firstDay + 5 * ComparisonSide.dayMs)
        #expect { try compare(.day(startingAt: Self.firstDay), empty) } throws: { error in
            "\(error)".contains("no sessions in the period") && "\(error)".contains("its sessions span")
        }
        #expect { try compare(.run(7), .run(2)) } throws: { error in
            "\(error)".contains("no sessions closed by run 7") && "\(error)".contains("runs that closed sessions: 1, 2")
        }
    }

    /// JSON and CSV get p as a number: plain decimals, no exponent; people get small ones in scientific
    /// notation (`4.4e-16`, `<1e-16`), not a run of zeros.
    @Test func pValuesAsNumbersHaveNoExponent() throws {
        let table = try compare(.run(1), .run(2), pValues: .number)
        let column = try #require(table.columnIndex(named: "p_value"))
        #expect(table.columns[column].kind == .decimal)
        let readable = try compare(.run(1), .run(2))
        for (number, text) in zip(table.materializedRows, readable.materializedRows) {
            guard case .decimal = number[column] else { Issue.record("p_value is \(number[column])"); continue }
            // The same value, the text rounded to two significant digits or given as the bound.
            let shown = text[column].plainText, value = Double(number[column].plainText) ?? -1
            if shown == "<1e-16" {
                #expect(value == 0)
            } else {
                let read = try #require(Double(shown))
                #expect(abs(read - value) <= 0.051 * max(read, 0.0001), "\(shown) against \(value)")
            }
        }
        let cases: [(Double, String, String)] = [
            (1, "1.0000", "1.0000"), (0.0123, "0.0123", "0.0123"), (0.000723, "0.0007", "7.2e-4"),
            (0.000996, "0.0010", "1.0e-3"), (0.00001234, "0.00001234", "1.2e-5"),
            (1.234e-10, "0.0000000001234", "1.2e-10"), (4.36e-16, "0.000000000000000436", "4.4e-16"),
            (3e-17, "0.0000000000000000", "<1e-16"), (1e-300, "0.0000000000000000", "<1e-16"),
        ]
        for (p, number, text) in cases {
            #expect(ReleaseComparison.decimal(p).description == number, "\(p)")
            #expect(ReleaseComparison.format(p) == text, "\(p)")
        }
    }
}
