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
