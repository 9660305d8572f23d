import Foundation
import Testing

/// Datadog's RUM events API answers with pages (`{"data": [item, …], "links": …, "meta": …}`); a
/// team that saves each page a line (`curl … >> pages.jsonl`, or `jq -c .` on a saved one) imports
/// them as the events one a line. A page saved pretty-printed is said to be laid out another way.
@Suite struct DatadogPagesCommandTests {
    static let fixture = ImportCommandTests.fixture("datadog-rum.jsonl")

    /// The fixture's lines, `size` items a page, each page on its line.
    static func pages(size: Int) throws -> String {
        let lines = try ImportCommandTests.read(fixture).split(separator: "\n").map(String.init)
        return stride(from: 0, to: lines.count, by: size).map { start in
            let items = lines[start..<min(start + size, lines.count)].joined(separator: ",")
            return #"{"data":[\#(items)],"links":{"next":"https://api.datadoghq.com/api/v2/rum/events?page%5Bcursor%5D=c\#(start)"},"meta":{"page":{"after":"c\#(start)"},"status":"done"}}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test func pagesImportAsTheirEventsOneALine() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pages = directory.appendingPathComponent("pages.jsonl").path
        try Self.pages(size: 5).write(toFile: pages, atomically: true, encoding: .utf8)
        let fromPages = directory.appendingPathComponent("from-pages.ndjson").path
        let fromLines = directory.appendingPathComponent("from-lines.ndjson").path
        for (input, output) in [(pages, fromPages), (Self.fixture, fromLines)] {
            let result = try HigAuditBinary.run(["import", "--from", "datadog-rum", "--config", ImportCommandTests.config, input, "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let written = try String(contentsOfFile: fromPages, encoding: .utf8)
        #expect(!written.isEmpty)
        #expect(written == (try String(contentsOfFile: fromLines, encoding: .utf8)))
        for table in ["summary", "violations", "unknown_types"] {
            let paged = try HigAuditBinary.run([
                "analyze", "--from", "datadog-rum", "--config", ImportCommandTests.config, pages, "--table", table, "--format", "csv",
            ])
            let alone = try HigAuditBinary.run([
                "analyze", "--from", "datadog-rum", "--config", ImportCommandTests.config, Self.fixture, "--table", table, "--format", "csv",
            ])
            #expect(paged.status == alone.status)
            #expect(ImportCommandTests.withoutSources(paged.stdout) == ImportCommandTests.withoutSources(alone.stdout), "\(table)")
        }
    }

    /// A bad item is one malformed record, said at `PATH:LINE#K`; the page's other items are events.
    @Test func aBadItemIsOneMalformedRecord() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.jsonl").path
        let good = #"{"type":"view","date":1795168800000,"session":{"id":"s-1"},"view":{"name":"Home"}}"#
        let undated = #"{"type":"view","session":{"id":"s-1"},"view":{"name":"Home"}}"#
        try #"{"data":[\#(good),\#(undated),"text",\#(good.replacingOccurrences(of: "800000", with: "800001"))]}"#
            .appending("\n").write(toFile: page, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", "--from", "datadog-rum", page, "--table", "ingest", "--format", "csv"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(page):1#2: malformed line: missing date"), "\(result.stderr)")
        #expect(result.stderr.contains("\(page):1#3: malformed line: the page's item is not an object"), "\(result.stderr)")
        let rows = result.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = { (name: String) in rows[1][rows[0].firstIndex(of: name)!] }
        #expect(column("lines") == "1" && column("events") == "3" && column("malformed_lines") == "2", "\(result.stdout)")
        // `import` counts the page's records as they are: a synthetic start and two screen views.
        let output = directory.appendingPathComponent("page.ndjson").path
        let imported = try HigAuditBinary.run(["import", "--from", "datadog-rum", page, "-o", output])
        #expect(imported.stderr.contains("wrote 3 lines from 1 line of datadog-rum export (2 malformed, 0 of unknown types)"), "\(imported.stderr)")
    }

    /// A page saved as the API pretty-prints it: the run says so, with the command that makes it a
    /// page a line, before the lines it cannot read.
    @Test func aPrettyPrintedPageIsNamed() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.json").path
        let object = try JSONSerialization.jsonObject(with: Data(try Self.pages(size: 3).split(separator: "\n")[0].utf8))
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: page))
        for command in [["analyze", "--from", "datadog-rum", page, "--table", "ingest"], ["import", "--from", "datadog-rum", page, "-o", "\(page).ndjson"]] {
            let result = try HigAuditBinary.run(command)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            let note = lines.firstIndex { $0.hasSuffix("page.json: not NDJSON: the file holds JSON objects laid out over several lines, and a log holds one JSON object a line (NDJSON): lines laid out this way are malformed (convert it with jq -c .)") }
            let first = lines.firstIndex { $0.contains("page.json:1: malformed line") }
            #expect(note != nil && first != nil && note! < first!, "\(command[0]): \(result.stderr)")
        }
    }
}
