import Foundation
import Testing

/// The ready pipeline in `Pipelines/`: the wrapper reads its YAML, runs the nightly job, exports, and
/// exits with the job's status; a second run finds everything already counted.
@Suite struct PipelineScriptTests {
    @Test func wrapperRunsTheNightlyJobAndExports() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let logs = HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs/night-2026-11-20/2026-11-20/1800").path
        let yaml = """
            # test pipeline
            inputs:
              - \(logs)   # one ten-minute slice of the sample night
            store: state/results.sqlite
            config:
            out: tables
            dashboard: site
            excel_out: excel
            close_open: true
            strict: false
            idle_runs: 2
            verbose: true
            hig_audit: \(HigAuditBinary.executable.path)

            """
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path

        let first = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(first.status == 0 || first.status == 3, "\(first.stderr)")
        #expect(first.stderr.contains("hig-audit-nightly: run committed"))
        #expect(first.stderr.contains(" --idle-runs 2 "), "idle_runs is passed on")
        #expect(first.stderr.contains(" --verbose "), "verbose is passed on")
        #expect(first.stderr.contains(".ndjson.zst: read"), "verbose lists every file")
        for file in ["state/results.sqlite", "tables/summary.csv", "tables/violations.json", "excel/violations.csv", "site/index.html"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file) missing")
        }
        let page = try String(contentsOf: directory.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(page.contains(#"href="../tables/violations.csv""#), "the page links the CSV export beside it")
        let exported = try Data(contentsOf: directory.appendingPathComponent("excel/violations.csv"))
        #expect(exported.starts(with: [0xEF, 0xBB, 0xBF]), "the Excel export starts with a byte order mark")

        let second = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(second.status == 0)
        #expect(second.stderr.contains("0 files read"))
    }

    @Test func aMissingStoreSettingIsFatal() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let pipeline = directory.appendingPathComponent("nightly.yml")
        try "inputs:\n  - /tmp\n".write(to: pipeline, atomically: true, encoding: .utf8)
        let script = HigAuditBinary.packageRoot.appendingPathComponent("Pipelines/hig-audit-nightly.sh").path
        let result = try HigAuditBinary.shell(["bash", script, pipeline.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("sets no store"))
    }
}
