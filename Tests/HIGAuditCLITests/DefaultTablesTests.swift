import Foundation
import Testing

/// Without `--table`, `analyze` and `query` print the same choice of tables whatever standard output
/// is: the overview, or with `--format csv` (one table) the summary. The help says so.
@Suite struct DefaultTablesTests {
    static func tableNames(json: String) throws -> [String] {
        let data = Data(json.utf8)
        let object = try JSONSerialization.jsonObject(with: data)
        if let tables = object as? [String: Any], tables["table"] == nil { return tables.keys.sorted() }
        if let table = object as? [String: Any], let name = table["table"] as? String { return [name] }
        if let tables = object as? [[String: Any]] { return tables.compactMap { $0["table"] as? String ?? $0["name"] as? String } }
        return []
    }

    @Test func queryPrintsTheOverviewInEveryFormatButCSV() throws {
        let store = try ExampleFixtures.url().appendingPathComponent("results.sqlite").path
        let analyzeJSON = try HigAuditBinary.run(["analyze", "Tests/HIGAuditCLITests/Fixtures/launch.ndjson", "--format", "json", "-q"])
        let queryJSON = try HigAuditBinary.run(["query", "--store", store, "--format", "json"])
        #expect(queryJSON.status == 0, "\(queryJSON.stderr)")
        let analyzed = try Self.tableNames(json: analyzeJSON.stdout), queried = try Self.tableNames(json: queryJSON.stdout)
        #expect(analyzed.count == 3, "\(analyzeJSON.stdout.prefix(300))")
        #expect(queried == analyzed)
        let markdown = try HigAuditBinary.run(["query", "--store", store, "--format", "markdown"]).stdout
        #expect(markdown.contains("## worst\\_screens") && markdown.contains("## ingest"))
        let csv = try HigAuditBinary.run(["query", "--store", store, "--format", "csv"]).stdout
        #expect(csv.hasPrefix("rule,severity,"))
        #expect(!csv.contains("worst"))
    }

    @Test func theHelpSaysNoPipeRule() throws {
        for command in ["analyze", "query"] {
            let help = try HigAuditBinary.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(!help.contains("a pipe gets the summary"), "\(command)")
            #expect(help.contains("with --format csv, which holds one table, the summary"), "\(command)")
        }
    }
}

/// `sample` writes into a new or empty folder: into one that holds files it would mix its logs with
/// others and replace a manifest without a word.
@Suite struct SampleOutputFolderTests {
    @Test func aFolderThatHoldsFilesIsRefusedUnlessForced() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = ["--sessions", "2", "--no-noise", "--quiet"]
        let first = try HigAuditBinary.run(["sample", "--out", directory.path] + small)
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try Data(contentsOf: directory.appendingPathComponent("sample-manifest.json"))
        let again = try HigAuditBinary.run(["sample", "--out", directory.path, "--seed", "99"] + small)
        #expect(again.status == 64)
        #expect(again.stderr.contains("already holds") && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("sample-manifest.json")) == manifest)
        let forced = try HigAuditBinary.run(["sample", "--out", directory.path, "--seed", "99", "--force"] + small)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("sample-manifest.json")) != manifest)
        let file = directory.appendingPathComponent("sample-manifest.json").path
        let onAFile = try HigAuditBinary.run(["sample", "--out", file] + small)
        #expect(onAFile.status == 64)
        #expect(onAFile.stderr.contains("is a file"))
        // A folder that cannot be made is said in words, not as the platform's error object.
        let underAFile = try HigAuditBinary.run(["sample", "--out", file + "/logs"] + small)
        #expect(underAFile.status == 1)
        #expect(underAFile.stderr == "hig-audit: error: cannot create the folder \(file)/logs: Not a directory\n", "\(underAFile.stderr)")
        let forcedOnAFile = try HigAuditBinary.run(["sample", "--out", file, "--force"] + small)
        #expect(forcedOnAFile.stderr.contains("it is a file, not a folder") && !forcedOnAFile.stderr.contains("NSCocoaErrorDomain"))
    }
}
