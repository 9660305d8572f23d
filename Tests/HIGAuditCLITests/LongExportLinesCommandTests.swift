import Foundation
import Testing

/// An export line may hold thousands of events: an OpenTelemetry Collector's file exporter writes one
/// request a line, a batch of 8,192 records by default, and a Datadog RUM events-API page holds up to
/// 1,000 events. Such lines, megabytes long, are read (up to `ReaderOptions.exportLineBytes`), as the
/// same events one a line are; a log of hig-audit's own keeps its 1 MiB limit.
@Suite struct LongExportLinesCommandTests {
    static func otlpRecord(_ index: Int) -> String {
        let nanos = 1_795_168_800_000_000_000 + index * 250_000_000
        let kind = ["impact.light", "selection", "notification.success"][index % 3]
        return #"{"timeUnixNano":"\#(nanos)","observedTimeUnixNano":"\#(nanos)","severityNumber":9,"eventName":"hig.haptic","attributes":[{"key":"session.id","value":{"stringValue":"s-\#(index % 40)"}},{"key":"log.record.uid","value":{"stringValue":"u-\#(index)"}},{"key":"screen.name","value":{"stringValue":"Home"}},{"key":"kind","value":{"stringValue":"\#(kind)"}}]}"#
    }

    static func otlpRequest(_ records: [String]) -> String {
        #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"d-1"}},{"key":"service.version","value":{"stringValue":"2.0"}}]},"scopeLogs":[{"scope":{"name":"app"},"logRecords":[\#(records.joined(separator: ","))]}]}]}"#
    }

    /// An events-API item as the API returns one, with the attributes an SDK adds to every event.
    static func datadogItem(_ index: Int) -> String {
        let sdk = #""application":{"id":"9f1c2d3e-0000-4000-8000-0000000000a1","name":"Shop"},"service":"shop-ios","source":"ios","device":{"type":"mobile","name":"iPhone","model":"iPhone16,2","brand":"Apple","architecture":"arm64"},"os":{"name":"iOS","version":"18.1","build":"22B83","version_major":"18"},"connectivity":{"status":"connected","interfaces":["wifi"]},"view":{"id":"v-\#(index / 25)","name":"Home","url":"ShopApp.HomeViewController"},"_dd":{"format_version":2,"session":{"plan":1,"session_precondition":"user_app_launch"}},"display":{"viewport":{"width":393,"height":852}},"feature_flags":{"new_checkout":true,"search_v2":false,"recommendations":"variant-b","onboarding_tour":false}"#
        return #"{"id":"AQ\#(index)","type":"rum","attributes":{"service":"shop-ios","tags":["source:ios","env:prod","version:2.0"],"timestamp":"2026-11-20T11:20:00.000Z","attributes":{"type":"action","date":\#(1_795_168_800_000 + index * 250),\#(sdk),"session":{"id":"s-\#(index % 40)","type":"user"},"usr":{"anonymous_id":"d-2"},"version":"2.0","action":{"id":"a-\#(index)","type":"custom","target":{"name":"hig.haptic"}},"context":{"kind":"selection"}}}}"#
    }

    /// The `summary` and `haptics` tables of `analyze --from FORMAT` on `text`, and what `import` says.
    static func analyzed(_ format: String, _ text: String, in directory: URL, name: String) throws -> (tables: [String], imported: HigAuditBinary.Result) {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var tables: [String] = []
        for table in ["summary", "haptics"] {
            let result = try HigAuditBinary.run(["analyze", "--from", format, path, "--table", table, "--format", "csv"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            tables.append(result.stdout)
        }
        let imported = try HigAuditBinary.run(["import", "--from", format, path, "-o", path + ".ndjson"])
        return (tables, imported)
    }

    @Test func aCollectorBatchAndAFullPageReadAsTheirEventsOneALine() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = (0..<8_192).map(Self.otlpRecord)
        let batch = Self.otlpRequest(records) + "\n"
        #expect(batch.utf8.count > 2 << 20)
        let (batched, batchImport) = try Self.analyzed("otlp", batch, in: directory, name: "batch.jsonl")
        let (alone, _) = try Self.analyzed("otlp", records.map { Self.otlpRequest([$0]) + "\n" }.joined(), in: directory, name: "alone.jsonl")
        #expect(batched == alone)
        #expect(batchImport.stderr.contains("wrote 8232 lines from 1 line of otlp export (0 malformed"), "\(batchImport.stderr)")

        let items = (0..<1_000).map(Self.datadogItem)
        let page = #"{"data":[\#(items.joined(separator: ","))],"meta":{"status":"done"}}"# + "\n"
        #expect(page.utf8.count > 1 << 20)
        let (paged, pageImport) = try Self.analyzed("datadog-rum", page, in: directory, name: "page.jsonl")
        let (oneALine, _) = try Self.analyzed("datadog-rum", items.joined(separator: "\n") + "\n", in: directory, name: "items.jsonl")
        #expect(paged == oneALine)
        #expect(pageImport.stderr.contains("wrote 1040 lines from 1 line of datadog-rum export (0 malformed"), "\(pageImport.stderr)")
    }

    /// The limit stays 1 MiB for hig-audit's own logs.
    @Test func aLogLineKeepsItsLimit() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("long.ndjson").path
        let line = #"{"ts":1795168800000,"session":"s","type":"session.start","note":"\#(String(repeating: "x", count: 1 << 20))"}"#
        try (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", path, "--table", "ingest", "--format", "csv"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("long.ndjson:1: malformed line: line of \(line.utf8.count) bytes is longer than the 1 MiB limit"), "\(result.stderr)")
    }
}
