import Foundation
import Testing

/// `query --session` and `export --session` take the start of an id as `show` does, and `export --out`
/// makes its parent folders.
@Suite struct SessionPrefixQueryTests {
    static func store() throws -> String { try ExampleFixtures.url().appendingPathComponent("results.sqlite").path }

    @Test func aUniquePrefixNamesItsSession() throws {
        let result = try HigAuditBinary.run(["query", "--store", try Self.store(), "--table", "violations", "--session", "9F3A", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\r\n").dropFirst()
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.contains(ExampleFixtures.uuidSession) }, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func aPrefixOfSeveralIdsListsThemAndIsAUsageError() throws {
        let store = try Self.store()
        let ids = try HigAuditBinary.run(["query", "--store", store, "--sql", "SELECT session FROM sessions ORDER BY session", "--format", "csv"])
            .stdout.split(separator: "\r\n").dropFirst().map(String.init)
        let first = try #require(ids.first)
        let shared = ids.filter { $0.first == first.first }
        try #require(shared.count >= 2)
        let result = try HigAuditBinary.run(["query", "--store", store, "--session", String(first.prefix(1))])
        #expect(result.status == 64)
        #expect(result.stderr.contains("starts several session ids: \(shared[0]), \(shared[1])"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // A whole id wins, and export takes prefixes too.
        let whole = try HigAuditBinary.run(["query", "--store", store, "--session", first, "--format", "csv"])
        #expect(whole.status == 0)
        #expect(whole.stdout.contains(",1,") || whole.stdout.contains(",1\r\n"), "\(whole.stdout)")
        let export = try HigAuditBinary.run(["export", "--store", store, "--out", "/dev/null/x", "--session", String(first.prefix(1))])
        #expect(export.status == 64)
    }

    @Test func aPrefixOfNoIdSaysSo() throws {
        let result = try HigAuditBinary.run(["query", "--store", try Self.store(), "--session", "zz-none"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("--session zz-none matches no session id"))
    }

    @Test func exportMakesTheFoldersOfItsOutput() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("exports/5.2").path
        let result = try HigAuditBinary.run(["export", "--store", try Self.store(), "--out", out, "--app-version", "5.2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/violations.csv"))
        let analyzed = directory.appendingPathComponent("a/b/results").path
        let analyze = try HigAuditBinary.run(["analyze", "Tests/HIGAuditCLITests/Fixtures/launch.ndjson", "--out", analyzed, "-q"])
        #expect([0, 3].contains(analyze.status), "\(analyze.stderr)")
        #expect(FileManager.default.fileExists(atPath: analyzed + "/summary.csv"))
    }
}
