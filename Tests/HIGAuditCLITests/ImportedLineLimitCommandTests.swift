import Foundation
import Testing

/// An exported event whose line of ours would pass SPEC §2's 1 MiB limit (a property of 1.1 MB) is
/// malformed, said where, through `analyze --from` as through `import` then `analyze`: `import`
/// writes no line that `analyze` refuses.
@Suite struct ImportedLineLimitCommandTests {
    @Test func aTooLongEventIsMalformedOnBothPaths() throws {
        let haptic = { (uuid: String, time: String, extra: String) in
            ImportedLaunchOrderCommandTests.posthog("hig.haptic", uuid, time, #","kind":"impact.light""# + extra)
        }
        let blob = String(repeating: "x", count: 1_100_000)
        let lines = [
            ImportedLaunchOrderCommandTests.posthog("Application Opened", "o1", "10:00:00", #","from_background":false"#),
            haptic("h1", "10:00:01", ""),
            haptic("h2", "10:00:02", #","blob":"\#(blob)""#),
            haptic("h3", "10:00:03", ""),
        ]
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.jsonl").path
        let imported = directory.appendingPathComponent("imported.ndjson").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: export, atomically: true, encoding: .utf8)
        let ingest = ["--table", "ingest", "--format", "csv"]
        let direct = try HigAuditBinary.run(["analyze", "--from", "posthog", export] + ingest)
        #expect(direct.status == 3)
        #expect(direct.stderr.contains("export.jsonl:3: malformed line: the event's line in this tool's format would be"),
                "\(direct.stderr)")
        let importing = try HigAuditBinary.run(["import", "--from", "posthog", export, "-o", imported])
        #expect(importing.status == 3)
        #expect(importing.stderr.contains("export.jsonl:3: malformed line"), "\(importing.stderr)")
        let viaImport = try HigAuditBinary.run(["analyze", imported] + ingest)
        #expect(viaImport.status == 0, "every line import wrote is read: \(viaImport.stderr)")
        // The events judged agree: three accepted on both paths, the fourth line malformed only at its source.
        let events = { (csv: String) in csv.split(whereSeparator: \.isNewline).last.map { $0.split(separator: ",")[5] } }
        #expect(events(direct.stdout) == "3" && events(viaImport.stdout) == "3", "\(direct.stdout)\n\(viaImport.stdout)")
    }
}
