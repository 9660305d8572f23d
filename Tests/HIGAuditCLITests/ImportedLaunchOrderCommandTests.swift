import Foundation
import Testing

/// A launch read after an event of its SDK session (SPEC §7 "Sessions", docs/importing.md
/// "Sessions"), through `analyze --from` and through `import` then `analyze`, which must agree.
@Suite struct ImportedLaunchOrderCommandTests {
    static func posthog(_ name: String, _ uuid: String, _ time: String, _ properties: String = "") -> String {
        #"{"uuid":"\#(uuid)","event":"\#(name)","timestamp":"2026-11-20T\#(time)Z","properties":{"$session_id":"S1","$device_id":"dev1","$app_version":"1.0"\#(properties)}}"#
    }

    /// The violations of `lines` read directly and read from what `import` writes, sources aside
    /// (equal), and what the direct run said on standard error.
    static func violations(_ lines: [String]) throws -> (rows: [String], stderr: String) {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.jsonl").path
        let imported = directory.appendingPathComponent("imported.ndjson").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: export, atomically: true, encoding: .utf8)
        let table = ["--table", "violations", "--format", "csv"]
        let direct = try HigAuditBinary.run(["analyze", "--from", "posthog", export] + table)
        let importing = try HigAuditBinary.run(["import", "--from", "posthog", export, "-o", imported, "--quiet"])
        #expect(importing.status == 0, "\(importing.stderr)")
        let viaImport = try HigAuditBinary.run(["analyze", imported] + table)
        #expect(direct.status == viaImport.status)
        let rows = ImportCommandTests.withoutSources(direct.stdout)
        #expect(rows == ImportCommandTests.withoutSources(viaImport.stdout))
        return (rows, direct.stderr)
    }

    /// The tester's F3: a rating prompt read before the launch it came 2 s after (within
    /// `max_lateness_ms`) is judged from that launch, as the same events in NDJSON are.
    @Test func aPromptReadBeforeItsLaunchIsTimedFromIt() throws {
        let (rows, stderr) = try Self.violations([
            Self.posthog("hig.rating.prompt", "r1", "10:00:02"),
            Self.posthog("Application Opened", "o1", "10:00:00", #","from_background":false"#),
        ])
        #expect(rows.contains(
            "early-rating-prompt,warning,S1,dev1,1.0,,2026-11-20T10:00:02.000Z,2026-11-20T10:00:02.000Z,1,"
                + "rating prompt 2000 ms after launch (less than 60000 ms)"), "\(rows)")
        #expect(!stderr.contains("late event"), "\(stderr)")
    }

    /// A launch after the backgrounding of a session read without one is the next launch, `S1#2`:
    /// in `S1`, past its `session.end`, it and its events would be late.
    @Test func aLaunchAfterALaunchlessSessionEndedIsNotLost() throws {
        let (rows, stderr) = try Self.violations([
            Self.posthog("hig.rating.prompt", "r1", "10:00:02"),
            Self.posthog("Application Backgrounded", "b1", "10:00:03"),
            Self.posthog("Application Opened", "o1", "10:05:00", #","from_background":false"#),
            Self.posthog("hig.rating.prompt", "r2", "10:05:05"),
        ])
        #expect(rows.contains(
            "early-rating-prompt,warning,S1#2,dev1,1.0,,2026-11-20T10:05:05.000Z,2026-11-20T10:05:05.000Z,1,"
                + "rating prompt 5000 ms after launch (less than 60000 ms)"), "\(rows)")
        #expect(!stderr.contains("late event"), "\(stderr)")
    }
}
