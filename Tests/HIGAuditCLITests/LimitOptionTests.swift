import Foundation
import Testing

/// `--limit N`: the first N rows of record tables on standard output, in `analyze` and `query` alike.
@Suite struct LimitOptionTests {
    static let golden = HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/violations.csv")

    /// CSV records of `text` (the fixture's fields hold no line breaks), line ends kept.
    static func lines(_ text: String) -> [String] {
        text.components(separatedBy: "\r\n").dropLast().map { $0 + "\r\n" }
    }

    @Test(arguments: [0, 1, 3, 10_000])
    func analyzePrintsTheFirstRowsOfViolations(limit: Int) throws {
        let whole = Self.lines(try String(contentsOf: Self.golden, encoding: .utf8))
        #expect(whole.count > 4, "the fixture has several violations")
        let result = try HigAuditBinary.run([
            "analyze", GoldenOutputTests.fixture, "--table", "violations", "--format", "csv", "--limit", String(limit),
        ])
        #expect(result.status == 3)
        #expect(result.stdout == whole.prefix(1 + limit).joined())
    }

    /// Aggregate tables printed beside a limited one, and the `--out` files, stay whole.
    @Test func aggregatesAndOutFilesStayWhole() throws {
        let directory = try HigAuditBinary.temporaryDirectory().appendingPathComponent("out")
        let result = try HigAuditBinary.run([
            "analyze", GoldenOutputTests.fixture, "--table", "violations", "--table", "summary", "--format", "json",
            "--limit", "1", "--out", directory.path,
        ])
        #expect(result.status == 3)
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [Any]])
        #expect(printed["violations"]?.count == 1)
        let summary = try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Golden/summary.csv"), encoding: .utf8)
        #expect(printed["summary"]?.count == Self.lines(summary).count - 1)
        let written = try String(contentsOf: directory.appendingPathComponent("violations.csv"), encoding: .utf8)
        #expect(written == (try String(contentsOf: Self.golden, encoding: .utf8)))
    }

    @Test func queryPrintsTheFirstRowsOfViolations() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        #expect(try HigAuditBinary.run(["nightly", "--store", store, "--close-open", "--quiet", GoldenOutputTests.fixture]).status == 3)
        let whole = try HigAuditBinary.run(["query", "--store", store, "--table", "violations", "--format", "csv"])
        #expect(whole.status == 0 && Self.lines(whole.stdout).count > 4)
        let limited = try HigAuditBinary.run(["query", "--store", store, "--table", "violations", "--format", "csv", "--limit", "3"])
        #expect(limited.status == 0)
        #expect(limited.stdout == Self.lines(whole.stdout).prefix(4).joined())
    }

    @Test(arguments: [
        ["analyze", GoldenOutputTests.fixture, "--limit", "2"],
        ["analyze", GoldenOutputTests.fixture, "--table", "summary", "--limit", "2"],
        ["query", "--store", "results.sqlite", "--group-by", "rule", "--limit", "2"],
        ["query", "--store", "results.sqlite", "--sql", "SELECT 1", "--limit", "2"],
    ])
    func limitWithoutARecordTableIsAUsageError(arguments: [String]) throws {
        let result = try HigAuditBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--limit cuts tables whose rows are records (violations)"), "\(result.stderr)")
    }
}
