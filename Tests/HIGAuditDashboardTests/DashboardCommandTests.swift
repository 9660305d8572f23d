import Foundation
import Testing

/// `hig-audit dashboard`, `analyze --dashboard` and `nightly --dashboard` as a user runs them.
@Suite(.serialized)
struct DashboardCommandTests {
    @Test func pageShowsTheNumbersQueryAndComparePrint() throws {
        let sample = try SampleStore.get()
        let out = sample.directory.appendingPathComponent("page-\(UUID().uuidString)").path
        let result = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out, "--csv-link", "../tables/violations.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let problems = try CommandNumbers.mismatches(page: html, store: sample.store)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        #expect(html.contains(#"href="../tables/violations.csv""#))
        // Every chart is a figure with a caption; the page asks nothing of the network: the only web
        // addresses are links a reader may follow, each rule's page of Apple's guidelines.
        #expect(PageText.all("(<figure)", in: html).count == PageText.all("(<figcaption)", in: html).count)
        #expect(PageText.all("(<svg)", in: html).count >= 3)
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://"))
        let guidelinesLink = #"<a href="https://developer.apple.com/design/human-interface-guidelines/"#
        #expect(PageText.all("(https://)", in: html).count == PageText.all("(\(guidelinesLink))", in: html).count)
        for rule in ["haptic-overuse", "forced-tab-switch", "widget-placeholder"] {
            let entry = try #require(PageText.all(#"(<h3 id="catalogue-\#(rule)">.*?</table>|<h3 id="catalogue-\#(rule)">.*?<h3)"#, in: html).first)
            #expect(entry.contains(guidelinesLink), "\(rule)")
        }
        // The contract's background texts are not the reader's: no seed file names, no quotes from them.
        #expect(!html.contains("_a5135006b5b70e41") && !html.contains("<blockquote"))
    }

    /// `--csv-link` goes into an `href`: a `javascript:` link would run when a reader clicks it.
    @Test func aCSVLinkThatWouldRunCodeIsAUsageError() throws {
        let sample = try SampleStore.get()
        let out = sample.directory.appendingPathComponent("page-\(UUID().uuidString)").path
        for link in ["javascript:alert(document.domain)", " javascript:alert(1)", "data:text/html,x"] {
            let result = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out, "--csv-link", link])
            #expect(result.status == 64, "\(link): \(result.stderr)")
            #expect(result.stderr.contains("--csv-link takes an http(s) URL or a path relative to the page"))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func rerunReplacesThePageAndLeavesNoStagingDirectory() throws {
        let sample = try SampleStore.get()
        let parent = try HigAudit.temporaryDirectory()
        let out = parent.appendingPathComponent("site").path
        for _ in 0..<2 {
            let result = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["index.html"])
    }

    /// `kill -9` while the page was written leaves `.DIR.new-PID` (a partial page) or `.DIR.old-PID`; the
    /// next run removes those whose process is gone and keeps those of a run still going.
    @Test func leftoversOfAKilledRunAreRemovedByTheNext() throws {
        let sample = try SampleStore.get()
        let parent = try HigAudit.temporaryDirectory()
        let out = parent.appendingPathComponent("site").path
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let sleeping = Process()
        sleeping.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeping.arguments = ["30"]
        try sleeping.run()
        defer { sleeping.terminate() }
        for name in [".site.new-\(ended.processIdentifier)", ".site.old-\(ended.processIdentifier)", ".site.new-\(sleeping.processIdentifier)"] {
            let folder = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("<html><body>half a pa".utf8).write(to: folder.appendingPathComponent("index.html"))
        }
        let result = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == ["site", ".site.new-\(sleeping.processIdentifier)"])
    }

    /// The page stays small whatever the store holds (issue 45.13): 2,000 app versions made a page of
    /// about 8 KB each, and screens or details from log data may be a mebibyte long. The newest versions
    /// are shown with the count of those left out, and every value from log data is cut short.
    @Test func thePageStaysSmallWithThousandsOfVersionsAndHugeValues() throws {
        let directory = try HigAudit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = String(repeating: "canvas.", count: 40_000)
        var lines: [String] = []
        for index in 0..<2_000 {
            let ts = 1_795_197_600_000 + Int64(index) * 10_000
            let screen = index % 500 == 0 ? huge : "editor"
            let common = #""session":"s\#(index)","device":"d\#(index)","app_version":"1.0.\#(index)""#
            lines.append(#"{"ts":\#(ts),\#(common),"type":"session.start","screen":"\#(screen)"}"#)
            lines.append(#"{"ts":\#(ts + 10),\#(common),"type":"modal.present","modal":"p","style":"popover","screen":"\#(screen)"}"#)
            lines.append(#"{"ts":\#(ts + 20),\#(common),"type":"modal.present","modal":"s","style":"form_sheet","screen":"\#(screen)"}"#)
        }
        let log = directory.appendingPathComponent("versions.ndjson")
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: log)
        let store = directory.appendingPathComponent("results.sqlite").path
        let night = try HigAudit.run(["nightly", "--quiet", "--close-open", "--store", store, log.path])
        #expect(night.status == 0, "\(night.stderr)")
        let out = directory.appendingPathComponent("page").path
        let result = try HigAudit.run(["dashboard", "--store", store, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try Data(contentsOf: URL(fileURLWithPath: out + "/index.html"))
        #expect(page.count < 1_000_000, "\(page.count) bytes")
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.contains("1,988 older ones are left out") || html.contains("1988 older ones are left out"))
        #expect(html.contains(">1.0.1999<") && !html.contains(">1.0.1000<"))
        #expect(!html.contains(String(repeating: "canvas.", count: 100)))

        // analyze --dashboard, from one run's tables, likewise.
        let analyzed = directory.appendingPathComponent("analyzed").path
        let run = try HigAudit.run(["analyze", log.path, "--dashboard", analyzed, "--table", "summary"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: analyzed + "/index.html")).count < 1_000_000)
    }

    @Test func emptyStoreSaysThereIsNoDataYet() throws {
        let directory = try HigAudit.temporaryDirectory()
        let store = directory.appendingPathComponent("empty.sqlite").path
        // A run over an empty log file commits a run and closes no session.
        let log = directory.appendingPathComponent("empty.ndjson").path
        _ = FileManager.default.createFile(atPath: log, contents: Data())
        let nightly = try HigAudit.run(["nightly", "--store", store, "--quiet", log])
        #expect([0, 3].contains(nightly.status), "\(nightly.stderr)")
        let out = directory.appendingPathComponent("page").path
        let result = try HigAudit.run(["dashboard", "--store", store, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains(#"id="no-data""#))
        #expect(html.contains("There is no data yet"))
        #expect(html.contains(#"id="catalogue""#))
    }

    @Test func aFileThatIsNotAStoreIsRefused() throws {
        let directory = try HigAudit.temporaryDirectory()
        let notAStore = directory.appendingPathComponent("notes.txt").path
        try "not a database".write(toFile: notAStore, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("page").path
        let result = try HigAudit.run(["dashboard", "--store", notAStore, "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("hig-audit: error: cannot open the store \(notAStore)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aStoreOfAnotherSchemaVersionIsRefused() throws {
        let sample = try SampleStore.get()
        let directory = try HigAudit.temporaryDirectory()
        let store = directory.appendingPathComponent("later.sqlite").path
        try FileManager.default.copyItem(atPath: sample.store, toPath: store)
        let insert = try HigAudit.shell([
            "python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO grdb_migrations VALUES ('v99')\"); c.commit()",
            store,
        ])
        #expect(insert.status == 0, "\(insert.stderr)")
        let result = try HigAudit.run(["dashboard", "--store", store, "--out", directory.appendingPathComponent("page").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has a schema this version of hig-audit does not know (migrations v99)"), "\(result.stderr)")
    }

    @Test func anUnwritableOutFailsBeforeTheStoreIsRead() throws {
        let directory = try HigAudit.temporaryDirectory()
        let file = directory.appendingPathComponent("a-file").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        // The store does not exist: the error is about --out, so nothing was read first.
        let missingStore = directory.appendingPathComponent("missing.sqlite").path
        for out in [file, directory.appendingPathComponent("no/such/parent").path, directory.path] {
            let result = try HigAudit.run(["dashboard", "--store", missingStore, "--out", out])
            #expect(result.status == 1, "\(out)")
            #expect(result.stderr.contains("cannot write the dashboard to"), "\(result.stderr)")
        }
    }

    @Test func analyzeDashboardShowsOneRunWithoutHistory() throws {
        let directory = try HigAudit.temporaryDirectory()
        let page = directory.appendingPathComponent("page").path
        let tables = directory.appendingPathComponent("tables").path
        let result = try HigAudit.run(["analyze", "SampleLogs/night-2026-11-20/2026-11-20/1800", "--out", tables, "--dashboard", page])
        #expect([0, 3].contains(result.status), "\(result.stderr)")
        let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
        #expect(html.contains(#"id="no-history""#))
        #expect(html.contains(#"href="../tables/violations.csv""#))
        // Each rule's rate is summary's pct_sessions_affected.
        let summary = try HigAudit.run(["analyze", "SampleLogs/night-2026-11-20/2026-11-20/1800", "--table", "summary", "--format", "csv", "--quiet"])
        for row in SimpleCSV.rows(summary.stdout) {
            let rule = row["rule"] ?? "", affected = Int64(row["sessions_affected"] ?? "") ?? -1, total = Int64(row["sessions_total"] ?? "") ?? -1
            let shown = PageText.first(#"<tr data-rule="\#(rule)">.*?data-window="all">([^<]*)</td><td class="num count">([^<]*)</td>"#, in: html)
            let count = PageText.first(#"<tr data-rule="\#(rule)">.*?<td class="num count">([^<]*)</td>"#, in: html)
            #expect(count == "\(affected) of \(total)", "\(rule)")
            let expected = total == 0 ? 0 : Double(affected) * 100 / Double(total)
            #expect(abs((Double(shown ?? "") ?? -1) - expected) <= 0.005, "\(rule): \(shown ?? "nothing") vs \(expected)")
        }
    }

    @Test func nightlyDashboardIsCheckedBeforeTheRunAndWrittenAfterIt() throws {
        let directory = try HigAudit.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        let file = directory.appendingPathComponent("a-file").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try HigAudit.run(["nightly", "--store", store, "--dashboard", file, "SampleLogs/night-2026-11-20/2026-11-20/1800"])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: store), "nothing is committed when --dashboard cannot be written")

        let page = directory.appendingPathComponent("page").path
        let run = try HigAudit.run(["nightly", "--store", store, "--quiet", "--close-open", "--dashboard", page, "SampleLogs/night-2026-11-20/2026-11-20/1800"])
        #expect([0, 3].contains(run.status), "\(run.stderr)")
        let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
        #expect(try CommandNumbers.mismatches(page: html, store: store).filter { !$0.contains("fewer than two") }.isEmpty)
    }

    @Test func templatesDirectoryReplacesTemplatesByName() throws {
        let sample = try SampleStore.get()
        let directory = try HigAudit.temporaryDirectory()
        let templates = directory.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "body { background: rebeccapurple; }\n".write(to: templates.appendingPathComponent("style.mustache"), atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("page").path
        let result = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out, "--templates", templates.path])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("rebeccapurple"))
        #expect(html.contains(#"id="overview""#))

        try "{{#broken}}".write(to: templates.appendingPathComponent("health.mustache"), atomically: true, encoding: .utf8)
        let broken = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out, "--templates", templates.path])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("health.mustache"), "\(broken.stderr)")

        try FileManager.default.removeItem(at: templates.appendingPathComponent("health.mustache"))
        try "x".write(to: templates.appendingPathComponent("sidebar.mustache"), atomically: true, encoding: .utf8)
        let unknown = try HigAudit.run(["dashboard", "--store", sample.store, "--out", out, "--templates", templates.path])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("sidebar.mustache is not a template of the dashboard"), "\(unknown.stderr)")
    }
}
