import Foundation
import Testing
import HIGAuditCore

/// `hig-audit analyze SampleLogs/damaged`, run as an operator runs it: every fault is named on standard
/// error with its place, the good data around the faults is still counted, and the exit status says
/// that input was skipped (SPEC §5).
@Suite struct DamagedSampleLogsTests {
    /// `make-damaged.sh` builds these from 320 clean lines; its header says which lines each holds.
    static let goodEvents = 80 + 55 + 80 + 20

    static func analyze(_ extra: [String]) throws -> HigAuditBinary.Result {
        try HigAuditBinary.run(["analyze", "SampleLogs/damaged"] + extra)
    }

    /// The ingest table as CSV: header names to values.
    static func ingest(_ csv: String) throws -> [String: String] {
        // CSV rows end with CRLF (RFC 4180), a single Character in Swift.
        let lines = csv.split(whereSeparator: \.isNewline).map(String.init)
        try #require(lines.count == 2, "\(csv)")
        let names = lines[0].split(separator: ",").map(String.init)
        let values = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        try #require(names.count == values.count)
        return Dictionary(uniqueKeysWithValues: zip(names, values))
    }

    @Test func exitsWithSkippedInputStatusAndCountsTheGoodData() throws {
        let result = try Self.analyze(["--table", "ingest", "--format", "csv"])
        #expect(result.status == 3, "\(result.stderr)")
        let ingest = try Self.ingest(result.stdout)
        #expect(ingest["files"] == "5")
        #expect(ingest["events"] == String(Self.goodEvents))
        #expect(ingest["sessions"] == "3")
        // Seven lines of the HTML page and five broken lines of malformed-lines.ndjson.
        #expect(ingest["malformed_lines"] == "12")
        #expect(ingest["truncated_files"] == "1")
        #expect(ingest["late_events"] == "0" && ingest["duplicate_events"] == "0")
        // The corrupt frame, the dropped partial line of the cut frame, the 4096 zero bytes.
        #expect((Int(ingest["skipped_bytes"] ?? "") ?? 0) > 4_096)
    }

    /// Each damaged file is reported with its kind of fault and where it is: a byte offset for frame
    /// faults, a line number for broken lines.
    @Test(arguments: [
        (#"SampleLogs/damaged/corrupt-frame\.ndjson\.zst@[0-9]+: corrupt frame: frame 2"#, 1),
        (#"SampleLogs/damaged/garbage\.ndjson\.zst:[1-7]: malformed line"#, 7),
        (#"SampleLogs/damaged/malformed-lines\.ndjson:(5|15|25|35|45): malformed line"#, 5),
        (#"SampleLogs/damaged/truncated-upload\.ndjson\.zst@[0-9]+: truncated file: frame 3"#, 1),
        (#"SampleLogs/damaged/zero-filled-tail\.ndjson\.zst@[0-9]+: trailing garbage: 4096 bytes"#, 1),
    ])
    func reportsEachDamagedFileWithItsLocation(pattern: String, count: Int) throws {
        let result = try Self.analyze(["--table", "summary", "--format", "csv"])
        let regex = try Regex("^hig-audit: " + pattern)
        let matching = result.stderr.split(separator: "\n").filter { $0.contains(regex) }
        #expect(matching.count == count, "\(result.stderr)")
    }

    /// The damage does not hide the good data's problems: the rules still run on what was read.
    @Test func rulesStillRunOnTheGoodData() throws {
        let result = try Self.analyze(["--table", "summary", "--format", "csv"])
        #expect(result.status == 3)
        let rows = result.stdout.split(whereSeparator: \.isNewline)
        #expect(rows.first == "rule,severity,violations,sessions_affected,sessions_total,sessions_not_judged,pct_sessions_affected")
        #expect(rows.count == 1 + RuleRegistry.descriptions.count)
        #expect(rows.dropFirst().allSatisfy { $0.split(separator: ",")[4] == "3" })
    }
}
