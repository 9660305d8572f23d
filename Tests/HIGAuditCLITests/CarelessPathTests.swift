import Foundation
import Testing

/// Operator mistakes with paths (issue 24): an output that names an input, a special file or a link,
/// an `--out` that cannot be written, special files inside an input folder. None may lose data, hang,
/// or report an exit status that says something else happened.
@Suite struct CarelessPathTests {
    /// A copy of the golden fixture (two malformed lines) in a fresh directory.
    private func copiedFixture(in directory: URL, named name: String = "mixed.ndjson") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(
            atPath: HigAuditBinary.packageRoot.appendingPathComponent(GoldenOutputTests.fixture).path, toPath: path)
        return path
    }

    @Test func aMalformedReportThatIsAnInputIsAUsageErrorAndTheInputIsKept() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let link = directory.appendingPathComponent("report-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)

        for report in [input, link] {
            let result = try HigAuditBinary.run(["analyze", input, "--malformed-report", report, "--table", "summary"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--malformed-report would write \(report), which is an input of this run"))
            #expect(result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    /// Every file a run reads is protected from its outputs, not only its logs: the config, a
    /// dictionary, a file list, the templates (issue 45.3). Each case failed before: the file was replaced.
    @Test func anOutputThatIsAnotherFileTheRunReadsIsAUsageError() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let config = directory.appendingPathComponent("rules.yml").path
        try Data("max_lateness_ms: 10000\n".utf8).write(to: URL(fileURLWithPath: config))
        let dictionary = directory.appendingPathComponent("uploads.dict").path
        let samples = directory.appendingPathComponent("samples")
        try FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
        for index in 0..<200 {
            try #"{"ts":\#(index),"session":"s\#(index % 7)","type":"touch","phase":"began","screen":"canvas.editor"}"#
                .write(to: samples.appendingPathComponent("\(index).ndjson"), atomically: true, encoding: .utf8)
        }
        let train = try HigAuditBinary.shell(["sh", "-c", "zstd -q --train '\(samples.path)'/*.ndjson --maxdict=4096 -o '\(dictionary)'"])
        #expect(train.status == 0, "\(train.stderr)")
        let list = directory.appendingPathComponent("shard-0.files").path
        try Data("count\t\(input)\n".utf8).write(to: URL(fileURLWithPath: list))
        let templates = directory.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let template = templates.appendingPathComponent("index.mustache").path
        try Data("<p>{{generatedAt}}</p>".utf8).write(to: URL(fileURLWithPath: template))
        let store = directory.appendingPathComponent("part.sqlite").path
        let page = directory.appendingPathComponent("page").path
        let cases: [(arguments: [String], message: String)] = [
            (["analyze", input, "--config", config, "--malformed-report", config],
             "--malformed-report would write \(config), which is the config file (--config) of this run"),
            (["show", "--session", "s-alpha", input, "--config", config, "--malformed-report", config], "which is the config file (--config)"),
            (["nightly", "--store", store, "--config", config, "--malformed-report", config, input], "which is the config file (--config)"),
            (["analyze", input, "--dictionary", dictionary, "--malformed-report", dictionary], "which is a dictionary (--dictionary)"),
            (["nightly", "--store", store, "--close-open", "--shard", "0/1", "--shard-files", list, "--malformed-report", list],
             "which is the file list (--shard-files)"),
            (["analyze", input, "--dashboard", page, "--dashboard-templates", templates.path, "--malformed-report", template],
             "which is a template (--dashboard-templates)"),
        ]
        let kept = try [config, dictionary, list, template].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for (arguments, message) in cases {
            let result = try HigAuditBinary.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try [config, dictionary, list, template].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == kept)
        #expect(!FileManager.default.fileExists(atPath: store) && !FileManager.default.fileExists(atPath: page))
    }

    /// `--dashboard DIR` replaces DIR whole: a run that reads from it, or writes other outputs into it,
    /// would lose them with the old page.
    @Test func aDashboardDirectoryHoldingWhatTheRunReadsOrWritesIsAUsageError() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let site = directory.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let input = try copiedFixture(in: site, named: "index.html")
        _ = try copiedFixture(in: site, named: "logs.ndjson")
        let outside = try copiedFixture(in: directory)
        let config = site.appendingPathComponent("rules.yml").path
        try Data("max_lateness_ms: 10000\n".utf8).write(to: URL(fileURLWithPath: config))
        let store = site.appendingPathComponent("results.sqlite").path
        let cases: [(arguments: [String], message: String)] = [
            (["analyze", input, "--dashboard", site.path], "--dashboard \(site.path) is replaced whole, and it holds an input (\(input))"),
            (["analyze", site.path, "--dashboard", site.path + "/"], "holds an input"),
            (["analyze", outside, "--dashboard", site.path, "--config", config], "holds the config file (--config)"),
            (["analyze", outside, "--dashboard", site.path, "--out", site.path + "/tables"], "holds the --out directory"),
            (["analyze", outside, "--dashboard", site.path, "--out", site.path], "holds the --out directory"),
            (["nightly", "--store", store, "--dashboard", site.path, outside], "holds the store"),
        ]
        for (arguments, message) in cases {
            let result = try HigAuditBinary.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: input) && FileManager.default.fileExists(atPath: config))
        #expect(!FileManager.default.fileExists(atPath: store))

        // `hig-audit dashboard --out DIR` likewise, for the store it reads.
        let kept = directory.appendingPathComponent("kept.sqlite").path
        #expect(try HigAuditBinary.run(["nightly", "--store", kept, outside]).status == 3)
        let result = try HigAuditBinary.run(["dashboard", "--store", kept, "--out", directory.path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("holds the store"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: kept))
    }

    /// `--shard-files` and the files it names are regular files: `/dev/zero` was read for ever, and a FIFO
    /// blocked the run (issue 45.8). Each is a usage error naming the list's line, before any work.
    @Test func aShardFileListOrAListedFileThatIsNotARegularFileIsAUsageError() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let store = directory.appendingPathComponent("part.sqlite").path
        func list(_ lines: [String]) throws -> String {
            let path = directory.appendingPathComponent("list-\(UUID().uuidString).files").path
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let zeroList = try list(["count\t\(input)", "read\t/dev/zero"])
        let cases: [(list: String, message: String)] = [
            ("/dev/zero", "--shard-files /dev/zero is a device, not a regular file"),
            (fifo, "--shard-files \(fifo) is a FIFO, not a regular file"),
            (directory.path, "is a folder, not a file"),
            (zeroList, "--shard-files \(zeroList):2: /dev/zero is a device, not a regular file; the list names log files only"),
            (try list(["count\t\(fifo)"]), ":1: \(fifo) is a FIFO, not a regular file"),
            (try list(["count\t\(directory.path)"]), ":1: \(directory.path) is a folder, not a file"),
        ]
        for (list, message) in cases {
            let result = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", "--shard", "0/1", "--shard-files", list])
            #expect(result.status == 64, "\(list): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func anOutDirectoryFileThatIsAnInputIsAUsageError() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory, named: "summary.csv")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = try HigAuditBinary.run(["analyze", input, "--out", directory.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--out would write \(input)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func aNightlyOutputThatIsTheStoreIsAUsageError() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let store = directory.appendingPathComponent("results.sqlite").path
        #expect(try HigAuditBinary.run(["nightly", "--store", store, input]).status == 3)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try HigAuditBinary.run(["nightly", "--store", store, "--malformed-report", store, input])
        #expect(result.status == 64)
        #expect(result.stderr.contains("which is the store of this run"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// `/dev/stdout` is a link to `/proc/self/fd/1`: the report shares standard output with the tables.
    @Test func aMalformedReportOnStandardOutputIsWrittenThrough() throws {
        let result = try HigAuditBinary.run(
            ["analyze", GoldenOutputTests.fixture, "--malformed-report", "/dev/stdout", "--table", "summary", "--format", "csv"])
        #expect(result.status == 3)
        #expect(result.stdout.contains("\(GoldenOutputTests.fixture):"))
        #expect(result.stdout.contains("rule,severity,violations"))
        var status = stat()
        #expect(lstat("/dev/stdout", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFLNK)
    }

    /// `nightly --out afile` committed the run, then failed with status 1, which says nothing was
    /// committed; the wrapper then logged that the store was unchanged.
    @Test func anOutThatIsAFileFailsBeforeTheRunCommits() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let store = directory.appendingPathComponent("results.sqlite").path
        let notADirectory = directory.appendingPathComponent("afile").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: notADirectory))
        let result = try HigAuditBinary.run(["nightly", "--store", store, "--out", notADirectory, input])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("committed"))
        #expect(result.stderr.contains("exists and is not a directory"))
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try String(contentsOfFile: notADirectory, encoding: .utf8) == "keep")
    }

    /// An output that fails after the commit gets its own status (4), not the fatal one (1).
    @Test func anOutputFailingAfterTheCommitExitsFour() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try copiedFixture(in: directory)
        let store = directory.appendingPathComponent("results.sqlite").path
        // A full device of the test's own (as root), else the system's, which stays as it is.
        let ownFull = directory.appendingPathComponent("full").path
        let full = mknod(ownFull, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 ? ownFull : "/dev/full"
        let result = try HigAuditBinary.run(["nightly", "--store", store, "--malformed-report", full, input])
        #expect(result.status == 4)
        #expect(result.stderr.contains("run 1 committed"))
        #expect(result.stderr.contains("run 1 is committed, but the malformed-line report was not written"))
        let runs = try HigAuditBinary.run(["query", "--store", store, "--sql", "SELECT COUNT(*) AS runs FROM runs", "--format", "csv"])
        #expect(runs.stdout == "runs\r\n1\r\n")
        var status = stat()
        #expect(lstat(full, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
    }

    /// A FIFO in an input folder hung the scan for ever; now it is skipped input (status 3), said
    /// where, and the folder's logs are read.
    @Test func aFifoAndADeviceInAnInputFolderAreSkippedNotWaitedFor() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExitStatusTests.clean.write(to: directory.appendingPathComponent("b.ndjson"), atomically: true, encoding: .utf8)
        let fifo = directory.appendingPathComponent("a.ndjson.zst").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("z.zst").path, withDestinationPath: "/dev/zero")
        for command in [["analyze", directory.path, "--table", "ingest", "--format", "csv"],
                        ["nightly", "--store", directory.appendingPathComponent("s.sqlite").path, directory.path]] {
            let result = try HigAuditBinary.run(command)
            #expect(result.status == 3)
            #expect(result.stderr.contains("\(fifo): unreadable file: not a regular file (a FIFO)"))
            #expect(result.stderr.contains("z.zst: unreadable file: not a regular file (a character device)"))
        }
    }

    /// An upload folder where one device's log came gzipped: the run reads the rest, says which file it
    /// left out and why, and ends with the status of skipped input.
    @Test func aGzippedLogInAnInputFolderIsSkippedInputNotSilence() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExitStatusTests.clean.write(to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        try ExitStatusTests.clean.write(to: directory.appendingPathComponent("b.ndjson.gz"), atomically: true, encoding: .utf8)
        try "{}".write(to: directory.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", directory.path, "--table", "ingest", "--format", "csv"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("b.ndjson.gz: unreadable file: a log compressed with gzip"))
        #expect(!result.stderr.contains("manifest.json"))
        #expect(result.stdout.contains("\r\n1,"))

        // With nothing else in the folder, the refusal says why its one log was not taken.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("a.ndjson"))
        let alone = try HigAuditBinary.run(["analyze", directory.path])
        #expect(alone.status == 66)
        #expect(alone.stderr.contains("no log file in \(directory.path); nothing was read"))
        #expect(alone.stderr.contains("; \(directory.path)/b.ndjson.gz: a log compressed with gzip"))
    }

    /// A writer that sends `ts` in seconds (`date +%s`) has every event read in January 1970 and every
    /// time window a thousand times too wide, with no malformed line to show it. The run says so once a
    /// file, where the first such event is, in the same place for every `--jobs`, and reads on.
    @Test func secondsInTsAreSaidOnceAFileAndReadAsWritten() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seconds = """
            {"ts":1795208645,"session":"s","type":"session.start"}
            {"ts":1795208646,"session":"s","type":"haptic","kind":"selection"}
            {"ts":1795208647,"session":"s","type":"session.end"}

            """
        try seconds.write(to: directory.appendingPathComponent("a-seconds.ndjson"), atomically: true, encoding: .utf8)
        try ExitStatusTests.clean.write(to: directory.appendingPathComponent("b-ms.ndjson"), atomically: true, encoding: .utf8)
        var stderrs: Set<String> = []
        for jobs in ["1", "2", "3"] {
            let result = try HigAuditBinary.run(["analyze", "--jobs", jobs, directory.path, "--table", "ingest", "--format", "csv"])
            #expect(result.status == 0)
            let suspect = result.stderr.split(separator: "\n").filter { $0.contains("suspect timestamp") }
            #expect(suspect.count == 1, "\(result.stderr)")
            #expect(suspect.first?.contains("a-seconds.ndjson:1: suspect timestamp: ts reads as 1970-01-21T18:40:08.645Z") == true)
            // Read as written: all six events count, none is malformed.
            let rows = result.stdout.split(separator: "\r\n").map { $0.split(separator: ",").map(String.init) }
            let ingest = Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
            #expect(ingest["events"] == "6", "\(result.stdout)")
            #expect(ingest["malformed_lines"] == "0")
            stderrs.insert(result.stderr)
        }
        #expect(stderrs.count == 1)
    }

    /// A writer that dumps its events as one JSON array, or pretty-prints them, gives a log whose lines
    /// are nearly all malformed: the run says once, before them, what the file holds and how to turn it
    /// into NDJSON, whether the file is plain or zstd and whatever `--jobs` is. A log whose first line
    /// is merely broken gets no such note.
    @Test func aJSONArrayOrPrettyPrintedJSONIsNamedBeforeItsMalformedLines() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let array = """
            [
              {"ts":1000,"session":"s","type":"session.start"},
              {"ts":2000,"session":"s","type":"session.end"}
            ]

            """
        let pretty = "\n{\n  \"ts\": 1000,\n  \"session\": \"t\",\n  \"type\": \"session.start\"\n}\n"
        let broken = "{\"ts\":1000,\n" + ExitStatusTests.clean
        try array.write(to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        let prettyPlain = directory.appendingPathComponent("pretty.txt")
        try pretty.write(to: prettyPlain, atomically: true, encoding: .utf8)
        _ = try HigAuditBinary.shell(["zstd", "-q", prettyPlain.path, "-o", directory.appendingPathComponent("b.ndjson.zst").path])
        try broken.write(to: directory.appendingPathComponent("c.ndjson"), atomically: true, encoding: .utf8)
        var stderrs: Set<String> = []
        for jobs in ["1", "2"] {
            let result = try HigAuditBinary.run(["analyze", "--jobs", jobs, directory.path, "--table", "ingest", "--format", "csv"])
            #expect(result.status == 3)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            let notes = lines.filter { $0.contains(": not NDJSON: ") }
            #expect(notes.count == 2, "\(result.stderr)")
            let arrayNote = lines.firstIndex { $0.hasSuffix("a.ndjson: not NDJSON: the file is a JSON array of events, and a log holds one JSON object a line (NDJSON): an object alone on its line is read, the other lines are malformed (convert it with jq -c '.[]')") }
            let arrayFirst = lines.firstIndex { $0.contains("a.ndjson:1: malformed line") }
            #expect(arrayNote != nil && arrayFirst != nil && arrayNote! < arrayFirst!, "\(result.stderr)")
            #expect(lines.contains { $0.hasSuffix("b.ndjson.zst: not NDJSON: the file holds JSON objects laid out over several lines, and a log holds one JSON object a line (NDJSON): lines laid out this way are malformed (convert it with jq -c .)") })
            #expect(!notes.contains { $0.contains("c.ndjson") })
            stderrs.insert(result.stderr)
        }
        #expect(stderrs.count == 1)
    }
}
