import Foundation
import Testing

/// The dashboard in a real browser, Debian's headless Chromium (`.ci/run` installs it): the DOM holds
/// the numbers `query` and `compare` print, the page logs nothing to the console and requests nothing,
/// and its light and dark renderings are pictures, not blank pages. Skipped when Chromium is missing,
/// except on CI (`CI` set), where a missing browser is a failure.
struct DashboardBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Quiet Chromium: none of its own background traffic, no sandbox (CI runs as root), no network.
    static let flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-domain-reliability",
        "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars",
    ]

    @Test func pageShowsTheCommandsNumbersAndAsksNothingOfTheNetwork() throws {
        guard let chromium = Self.chromium else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed; .ci/run installs it") }
            return
        }
        let sample = try SampleStore.get()
        let work = try HigAudit.temporaryDirectory()
        let site = work.appendingPathComponent("site").path
        let written = try HigAudit.run(["dashboard", "--store", sample.store, "--out", site])
        #expect(written.status == 0, "\(written.stderr)")
        let page = "file://" + site + "/index.html"

        let netLog = work.appendingPathComponent("net-log.json").path
        let dom = try HigAudit.shell(
            [chromium] + Self.flags + [
                "--user-data-dir=\(work.path)/profile-dom", "--log-net-log=\(netLog)", "--enable-logging=stderr", "--v=0",
                "--dump-dom", page,
            ])
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        #expect(dom.stdout.contains(#"id="overview""#), "the DOM is the page")
        let problems = try CommandNumbers.mismatches(page: dom.stdout, store: sample.store)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")

        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console: \(console.joined(separator: "\n"))")
        let requests = try Self.pageRequests(netLog)
        #expect(requests.isEmpty, "the page requested \(requests)")

        var luminance: [String: Int] = [:]
        for (scheme, setting) in [("light", 1), ("dark", 0)] {
            let png = work.appendingPathComponent("\(scheme).png").path
            let shot = try HigAudit.shell(
                [chromium] + Self.flags + [
                    "--user-data-dir=\(work.path)/profile-\(scheme)", "--window-size=900,1200",
                    "--blink-settings=preferredColorScheme=\(setting)", "--screenshot=\(png)", page,
                ] + (scheme == "dark" ? ["--force-dark-mode"] : []))
            #expect(shot.status == 0, "\(shot.stderr.suffix(2000))")
            let summary = try HigAudit.shell(["python3", "Tests/HIGAuditDashboardTests/png-summary.py", png])
            let numbers = summary.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(numbers.count == 4, "\(summary.stderr)")
            guard numbers.count == 4 else { continue }
            #expect(numbers[0] == 900 && numbers[1] == 1200)
            #expect(numbers[2] >= 16, "\(scheme): \(numbers[2]) colours, a blank page")
            luminance[scheme] = numbers[3]
        }
        if let light = luminance["light"], let dark = luminance["dark"] {
            #expect(light > 150 && dark < 100, "light \(light), dark \(dark): the colour scheme did not apply")
        }
    }

    /// The URLs of requests the page made: the net log's request starts with a page as initiator
    /// (the browser's own traffic has none).
    static func pageRequests(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let log = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let constants = log["constants"] as? [String: Any],
              let types = constants["logEventTypes"] as? [String: Int],
              let start = types["URL_REQUEST_START_JOB"],
              let events = log["events"] as? [[String: Any]]
        else { throw Failure("\(path) is not a Chromium net log") }
        return events.compactMap { event in
            guard event["type"] as? Int == start, let parameters = event["params"] as? [String: Any],
                  let initiator = parameters["initiator"] as? String, initiator != "not an origin" else { return nil }
            return parameters["url"] as? String ?? "?"
        }
    }
}
