import Foundation
import Testing

/// A named input that does not exist, or inputs without a log file, stop a run before it reads or
/// commits anything, with exit status 66; `--allow-missing` reads what exists (exit 3).
@Suite struct MissingInputTests {
    @Test func aMissingInputIsFatalForAnalyze() throws {
        let result = try HigAuditBinary.run(["analyze", "SampleLogs/night-2026-11-02", "--table", "summary"])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty, "no all-zero tables")
        #expect(result.stderr.contains("input SampleLogs/night-2026-11-02 does not exist"))
    }

    @Test func anEmptyDirectoryIsFatalAndAllowMissingReadsWhatExists() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try HigAuditBinary.run(["analyze", empty.path, "--table", "ingest"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("no log file in"))
        let allowed = try HigAuditBinary.run([
            "analyze", "--allow-missing", empty.path, "Tests/HIGAuditCLITests/Fixtures/mixed.ndjson", "nope.zst",
            "--table", "ingest", "--format", "csv",
        ])
        #expect(allowed.status == 3)
        #expect(allowed.stdout.contains("files,"))
        #expect(allowed.stderr.contains("nope.zst"))
    }

    @Test func nightlyCommitsNothingWhenAnInputIsMissing() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        let result = try HigAuditBinary.run(["nightly", "--store", store, "/srv/uploads/nope"])
        #expect(result.status == 66)
        #expect(!FileManager.default.fileExists(atPath: store), "no store made, no run committed")
        let allowed = try HigAuditBinary.run(["nightly", "--store", store, "--allow-missing", "/srv/uploads/nope"])
        #expect(allowed.status == 3)
    }

    /// The wrapper says so in the journal and exits non-zero.
    @Test func theWrapperReportsAMissingMount() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let yaml = """
            inputs:
              - /mnt/uploads-not-mounted
            store: state/results.sqlite
            hig_audit: \(HigAuditBinary.executable.path)

            """
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path
        let result = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(result.status == 66)
        #expect(result.stderr.contains("hig-audit-nightly: an input in nightly.yml does not exist"))
    }
}
