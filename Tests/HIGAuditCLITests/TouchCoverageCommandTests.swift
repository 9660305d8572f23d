import Foundation
import Testing

/// Touch coverage end to end on native NDJSON: a session whose `session.start` says `touches`
/// `sampled` or `none` is counted in `sessions_not_judged` by the rules resting on the absence of a
/// touch, which neither report it nor count it in their `sessions_total`, in `summary` and `by_version`.
@Suite struct TouchCoverageCommandTests {
    /// Three sessions that each switch tabs with no touch, long after launch: one with every touch,
    /// one sampled, one with none, on two versions; a malformed coverage on a fourth line.
    static let log = """
        {"ts":0,"session":"all","type":"session.start","app_version":"1.0"}
        {"ts":60000,"session":"all","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}
        {"ts":0,"session":"sampled","type":"session.start","touches":"sampled","app_version":"1.0"}
        {"ts":60000,"session":"sampled","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}
        {"ts":0,"session":"none","type":"session.start","touches":"none","app_version":"2.0"}
        {"ts":60000,"session":"none","type":"nav.tab_switch","from":"tab:A","to":"tab:B"}
        {"ts":0,"session":"bad","type":"session.start","touches":"most"}

        """

    private func analyze(_ table: String) throws -> (rows: [String], result: HigAuditBinary.Result) {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("coverage.ndjson").path
        try Self.log.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(
            ["analyze", path, "--table", table, "--format", "csv", "--rule", "forced-tab-switch", "--rule", "modal-depth"])
        return (result.stdout.split(separator: "\r\n").map(String.init), result)
    }

    @Test func summaryCountsTheSessionsNotJudged() throws {
        let (rows, result) = try analyze("summary")
        #expect(result.status == 3, "the malformed line is skipped input: \(result.stderr)")
        #expect(result.stderr.contains("coverage.ndjson:7"))
        #expect(result.stderr.contains(#"unknown touch coverage "most""#))
        #expect(rows.first == "rule,severity,violations,sessions_affected,sessions_total,sessions_not_judged,pct_sessions_affected")
        #expect(rows.contains("forced-tab-switch,error,1,1,1,2,100.00"))
        #expect(rows.contains("modal-depth,warning,0,0,3,0,0.00"))
    }

    /// The same log through `nightly`: `query` and `export` give `analyze`'s tables, and `query
    /// --group-by` leaves the sessions not judged out of the rule's totals too.
    @Test func theStoreCountsTheSessionsNotJudgedAsAnalyzeDoes() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("coverage.ndjson").path
        try Self.log.write(toFile: path, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("results.sqlite").path
        let rules = ["--rule", "forced-tab-switch", "--rule", "modal-depth"]
        let night = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", path])
        #expect(night.status == 3, "the malformed line is skipped input: \(night.stderr)")
        let exported = directory.appendingPathComponent("exported").path
        let export = try HigAuditBinary.run(["export", "--store", store, "--out", exported] + rules)
        #expect(export.status == 0, "\(export.stderr)")
        for table in ["summary", "by_version"] {
            let analyzed = try HigAuditBinary.run(["analyze", path, "--table", table, "--format", "csv"] + rules)
            let queried = try HigAuditBinary.run(["query", "--store", store, "--table", table, "--format", "csv"] + rules)
            #expect(queried.status == 0, "\(queried.stderr)")
            #expect(queried.stdout == analyzed.stdout, "\(table): the store's table is analyze's")
            let file = try String(contentsOfFile: "\(exported)/\(table).csv", encoding: .utf8)
            #expect(file == analyzed.stdout, "\(table): the exported file is analyze's")
        }
        let grouped = try HigAuditBinary.run(
            ["query", "--store", store, "--group-by", "app_version", "--group-by", "rule", "--format", "csv"] + rules)
        let rows = grouped.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.contains("1.0,forced-tab-switch,1,1,1,100.00"), "\(rows)")
        #expect(rows.contains("2.0,forced-tab-switch,0,0,0,0.00"), "\(rows)")
        #expect(rows.contains("1.0,modal-depth,0,0,2,0.00"), "\(rows)")
    }

    @Test func byVersionLeavesTheSessionsNotJudgedOutOfTheTotal() throws {
        let (rows, _) = try analyze("by_version")
        #expect(rows.contains("1.0,forced-tab-switch,error,1,1,1,100.00"))
        #expect(rows.contains("2.0,forced-tab-switch,error,0,0,0,0.00"))
        #expect(rows.contains("2.0,modal-depth,warning,0,0,1,0.00"))
    }
}
