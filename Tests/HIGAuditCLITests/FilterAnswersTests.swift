import Foundation
import Testing

/// Questions whose filters match nothing get a word on standard error, not silent empty tables.
@Suite struct FilterAnswersTests {
    let night = "SampleLogs/night-2026-11-20"

    @Test func aReleaseTakesItsPatchVersions() throws {
        let release = try HigAuditBinary.run(["analyze", night, "--app-version", "5.2", "--table", "by_version", "--format", "csv"])
        let versions = Set(release.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[0] })
        #expect(versions == ["5.2.0", "5.2.1"])
        #expect(!release.stderr.contains("matches no session"))
    }

    @Test func aVersionThatMatchesNothingIsSaid() throws {
        let result = try HigAuditBinary.run(["analyze", night, "--app-version", "5.3", "--table", "summary", "--format", "csv"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("hig-audit: note: --app-version 5.3 matches no session; app versions seen: 5.1.0, 5.2.0, 5.2.1"))
    }

    /// `analyze --session` takes whole ids (it reads the logs once, and keeps no list of every id to
    /// resolve a prefix against): one that matched no session read is said, with that hint.
    @Test func aSessionThatMatchesNothingIsSaid() throws {
        let table = ["--table", "summary", "--format", "csv", "--jobs", "2"]
        let session = try HigAuditBinary.run(["analyze", night, "--table", "violations", "--format", "csv"])
            .stdout.split(separator: "\r\n").dropFirst().first.map { String($0.split(separator: ",")[2]) } ?? ""
        #expect(!session.isEmpty)
        let found = try HigAuditBinary.run(["analyze", night, "--session", session] + table)
        #expect(!found.stderr.contains("--session"), "\(found.stderr)")
        let missed = try HigAuditBinary.run(["analyze", night, "--session", session, "--session", String(session.prefix(4))] + table)
        #expect(missed.stderr.contains("hig-audit: note: --session \(session.prefix(4)) matches no session read (a session id, whole)"),
                "\(missed.stderr)")
        #expect(!missed.stderr.contains("--session \(session) "), "\(missed.stderr)")
        #expect(missed.stdout == found.stdout)
    }

    @Test func sinceAfterUntilIsAUsageErrorAndADateIsMidnightUTC() throws {
        let reversed = try HigAuditBinary.run(["analyze", night, "--since", "2026-11-21", "--until", "2026-11-20"])
        #expect(reversed.status == 64)
        #expect(reversed.stderr.contains("--since (2026-11-21) must be before --until (2026-11-20)"))
        let byDate = try HigAuditBinary.run(["analyze", night, "--since", "2026-11-20", "--until", "2026-11-20T21:00:00Z", "--table", "summary", "--format", "csv"])
        let byTime = try HigAuditBinary.run(["analyze", night, "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T21:00:00Z", "--table", "summary", "--format", "csv"])
        #expect(byDate.status == 3)
        #expect(byDate.stdout == byTime.stdout)
        #expect(!byDate.stdout.isEmpty)
    }
}
