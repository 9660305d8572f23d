import Foundation
import Testing

/// `compare` run as a user runs it: the kinds of sides, its usage errors and `--fail-on worse`.
@Suite(.serialized) struct CompareCommandTests {
    /// A store of two sample days, each read by its own nightly run (run 1: 2026-11-20, run 2: 2026-11-21).
    static let store: String = {
        do {
            let directory = try HigAuditBinary.temporaryDirectory()
            let logs = directory.appendingPathComponent("logs").path
            let store = directory.appendingPathComponent("results.sqlite").path
            _ = try HigAuditBinary.run([
                "sample", "--out", logs, "--sessions", "300", "--days", "2", "--seed", "5", "--session-length", "short",
                "--move-sampling-ms", "250", "--no-noise",
            ])
            for day in ["2026-11-20", "2026-11-21"] {
                _ = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", "--quiet", logs + "/" + day])
            }
            return store
        } catch {
            return "/nonexistent/results.sqlite"
        }
    }()

    func compare(_ arguments: [String]) throws -> HigAuditBinary.Result {
        try HigAuditBinary.run(["compare", "--store", Self.store] + arguments)
    }

    /// 5.2.0 plants regressions that 5.1.0 lacks, so comparing them one way is worse, the other better.
    @Test func failOnWorseExitsFiveAfterPrintingTheTable() throws {
        let plain = try compare(["--base", "5.1.0", "--head", "5.2.0"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains(" worse"))
        let gated = try compare(["--base", "5.1.0", "--head", "5.2.0", "--fail-on", "worse"])
        #expect(gated.status == 5)
        #expect(gated.stdout == plain.stdout, "the table is printed in full before the status")
        #expect(gated.stderr.contains("worse (--fail-on worse): ") && gated.stderr.contains("forced-tab-switch"))
        let reversed = try compare(["--base", "5.2.0", "--head", "5.1.0", "--fail-on", "worse"])
        #expect(reversed.status == 0, "\(reversed.stderr)")
        #expect(reversed.stdout.contains(" better") && !reversed.stdout.contains(" worse"))
    }

    /// Two nights by day and by run: every night's sessions are in its day and were closed by its run.
    @Test func nightsCompareByDayByRangeAndByRun() throws {
        let byDay = try compare(["--base-day", "2026-11-20", "--head-day", "2026-11-21", "--format", "csv"])
        #expect(byDay.status == 0, "\(byDay.stderr)")
        let byRun = try compare(["--base-run", "1", "--head-run", "2", "--format", "csv"])
        #expect(byRun.status == 0, "\(byRun.stderr)")
        let byRange = try compare([
            "--base-since", "2026-11-20", "--base-until", "2026-11-21", "--head-since", "2026-11-21", "--format", "csv",
        ])
        #expect(byRange.stdout == byDay.stdout)
        let rows = byDay.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 16, "a header and fifteen rules")
        let sessions = rows.dropFirst().map { [$0[1], $0[4]] }
        #expect(Set(sessions).count == 1 && sessions[0].allSatisfy { Int($0) ?? 0 > 50 })
        // The same populations by run, as long as no session crossed midnight.
        #expect(byRun.stdout == byDay.stdout)
    }

    /// p_value is a number in CSV and JSON (a plain decimal), readable text in the terminal table
    /// (`4.4e-16` rather than `0.000000000000000436`).
    @Test func pValueIsANumberInCSVAndJSON() throws {
        let csv = try compare(["--base", "5.1.0", "--head", "5.2.0", "--format", "csv"])
        let rows = csv.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows[0][10] == "p_value")
        for row in rows.dropFirst() {
            #expect(row[10].allSatisfy { $0.isNumber || $0 == "." } && Double(row[10]) != nil, "\(row)")
        }
        let json = try compare(["--base", "5.1.0", "--head", "5.2.0", "--format", "json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 15 && objects.allSatisfy { $0["p_value"] is NSNumber })
        // The table shows the same values as text for people: small ones in scientific notation, two
        // significant digits (the bound below 10⁻¹⁶ aside, which this store lacks).
        let table = try compare(["--base", "5.1.0", "--head", "5.2.0"])
        let texts = table.stdout.split(whereSeparator: \.isNewline).dropFirst(2).map { $0.split(separator: " ").dropLast().last.map(String.init) ?? "" }
        #expect(texts.count == rows.count - 1)
        for (text, row) in zip(texts, rows.dropFirst()) {
            let shown = try #require(Double(text), "\(text)"), number = try #require(Double(String(row[10])))
            #expect(abs(shown - number) <= 0.051 * max(shown, 0.0001), "\(text) against \(row[10])")
            #expect(number >= 0.001 || text.contains("e-"), "\(text) is below 0.001 and not in scientific notation")
        }
        #expect(!table.stdout.contains("0.0000000"), "no run of zeros for people")
        #expect(rows.dropFirst().contains { $0[10].hasPrefix("0.0000000") }, "a change far beyond noise, in plain digits")
    }

    @Test(arguments: [
        (["--base-day", "2026-11-20", "--head", "5.2.0"], "both sides must be of the same kind"),
        (["--base", "5.1.0", "--base-day", "2026-11-20", "--head-day", "2026-11-21"], "--base and --base-day cannot be combined"),
        (["--head", "5.2.0"], "Missing the base side"),
        (["--base", "5.1.0"], "Missing the head side"),
        (["--base-day", "2026-11-2", "--head-day", "2026-11-21"], "--base-day takes a UTC date"),
        (["--base-run", "1", "--head-since", "2026-11-21", "--head-until", "2026-11-20"], "--head-since (2026-11-21) must be before --head-until"),
        (["--base-since", "noon", "--head-day", "2026-11-21"], "--base-since takes an RFC 3339 time"),
        (["--base-run", "1", "--head-run", "2", "--fail-on", "better"], "fail-on"),
    ])
    func aBadChoiceOfSidesIsAUsageError(arguments: [String], message: String) throws {
        let result = try compare(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aSideWithoutSessionsIsFatal() throws {
        let result = try compare(["--base-run", "1", "--head-run", "9"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no sessions closed by run 9; runs that closed sessions: 1, 2"))
        let day = try compare(["--base-day", "2026-11-20", "--head-day", "2026-12-01"])
        #expect(day.status == 1 && day.stderr.contains("its sessions span"))
    }
}

/// `compare` names the app versions each side holds, and refuses sides that overlap.
@Suite struct CompareSidesTests {
    static func compare(_ arguments: [String]) throws -> HigAuditBinary.Result {
        let store = try ExampleFixtures.url().appendingPathComponent("results.sqlite").path
        return try HigAuditBinary.run(["compare", "--store", store] + arguments)
    }

    @Test func eachSideSaysWhichVersionsItHolds() throws {
        let result = try Self.compare(["--base", "5.1", "--head", "5.2"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        let head = try #require(lines.first { $0.contains("head is app version '5.2'") }, "\(result.stderr)")
        #expect(head.contains("5.2.0 (") && head.contains("5.2.1 ("))
        #expect(lines.contains { $0.contains("base is app version '5.1', holding 5.1.0 (") })
        let quiet = try Self.compare(["--base", "5.1", "--head", "5.2", "--quiet"])
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.stdout == result.stdout)
    }

    @Test func versionSidesSharingAVersionAreRefused() throws {
        let result = try Self.compare(["--base", "5.2", "--head", "5.2.1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("share app version 5.2.1"), "\(result.stderr)")
        #expect(result.stderr.contains("--base 5.2.0 --head 5.2.1"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        ["--base-run", "3", "--head-run", "3"],
        ["--base-since", "2026-11-10", "--base-until", "2026-11-15", "--head-since", "2026-11-12"],
        ["--base-day", "2026-11-19", "--head-since", "2026-11-19T12:00:00Z", "--head-until", "2026-11-21"],
    ])
    func sidesThatOverlapByDefinitionAreRefused(arguments: [String]) throws {
        let result = try Self.compare(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("overlap"))
        #expect(result.stdout.isEmpty)
    }

    @Test func adjacentDaysDoNotOverlap() throws {
        let result = try Self.compare(["--base-day", "2026-11-19", "--head-day", "2026-11-20"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
