import HIGAuditCore
import Testing
@testable import HIGAuditDashboard

/// The page as a function of its model: what it shows, and that text from logs stays text.
struct DashboardRenderingTests {
    static func model(screen: String = "home", isEmpty: Bool = false, hasHistory: Bool = true) -> DashboardModel {
        let rate = Rate(affected: "3", total: "120", perThousand: "25.00")
        return DashboardModel(
            source: "the store test.sqlite", generatedAt: "2026-11-21T02:30:00.000Z", hasHistory: hasHistory, isEmpty: isEmpty,
            lastDay: hasHistory ? "2026-11-20" : nil,
            overview: [
                RuleOverview(
                    rule: "haptic-overuse", severity: "warning", overall: rate, lastNight: rate, last7: rate, last30: nil,
                    trend: hasHistory ? [rate, nil, rate] : [])
            ],
            trendDays: hasHistory ? ["2026-11-18", "2026-11-19", "2026-11-20"] : [],
            releases: Releases(
                versions: ["5.1.0", "5.2.0"], rates: [("haptic-overuse", [rate, nil])],
                comparisons: [
                    Comparison(base: "5.1.0", head: "5.2.0", rule: "haptic-overuse", baseRate: "25.00", headRate: "80.00",
                               change: "55.00", test: "z-test", pValue: "0.0001", verdict: "worse")
                ]),
            worstScreens: [RuleScreens(rule: "haptic-overuse", screens: [ScreenCount(screen: screen, violations: "4", sessionsAffected: "3")])],
            examples: [
                RuleExamples(rule: "haptic-overuse", total: 40, violations: [
                    Example(session: "s1", device: "iPad1", appVersion: "5.2.0", screen: screen, time: "2026-11-20T20:00:00.000Z",
                            detail: "6 haptics in 1000 ms", source: "logs/a.ndjson.zst:12")
                ])
            ],
            examplesPerRule: 10,
            health: [NightHealth(label: "run 1", finished: "2026-11-21T02:30:00.000Z", files: 3, events: 900, malformedLines: 2, lateEvents: 1, duplicateEvents: 0, faults: 0)],
            catalogue: RuleRegistry.descriptions.map(CatalogueEntry.init), csvLink: "../tables/violations.csv")
    }

    static func render(_ model: DashboardModel) throws -> String {
        try DashboardTemplates.builtIn().render(model)
    }

    @Test func everySectionIsThere() throws {
        let html = try Self.render(Self.model())
        for id in ["overview", "releases", "screens", "examples", "health", "catalogue", "comparisons", "version-rates"] {
            #expect(html.contains("id=\"\(id)\""), "\(id)")
        }
        #expect(html.contains(#"<td class="verdict-worse">▲ worse</td>"#))
        #expect(html.contains(#"data-window="last-30">–</td>"#), "a window without sessions shows a dash")
        #expect(html.contains(": 1 of 40"))
        #expect(html.contains(#"<a href="../tables/violations.csv">All 40 in the CSV export.</a>"#))
        for description in RuleRegistry.descriptions { #expect(html.contains("id=\"catalogue-\(description.identifier)\"")) }
    }

    @Test func everyChartIsAFigureWithACaptionAndItsNumbers() throws {
        let html = try Self.render(Self.model())
        let figures = PageText.all("(<figure.*?</figure>)", in: html)
        #expect(!figures.isEmpty)
        for figure in figures {
            #expect(figure.contains("<figcaption>"))
            #expect(figure.contains("<svg") && figure.contains("role=\"img\"") && figure.contains("aria-label="))
        }
        // The trend's table holds its numbers, the missing day as a dash.
        let trend = PageText.first(#"(<figure id="trend-haptic-overuse">.*?</figure>)"#, in: html) ?? ""
        #expect(PageText.all(#"<td class="num">(25\.00)</td>"#, in: trend).count == 2)
        #expect(trend.contains("<td>2026-11-19</td><td class=\"num\">–</td>"))
    }

    @Test func textFromLogsIsEscaped() throws {
        let html = try Self.render(Self.model(screen: #"<script>alert("x")</script>&"#))
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;"))
    }

    @Test func anEmptyModelSaysThereIsNoDataYet() throws {
        var model = Self.model(isEmpty: true)
        model.overview = []
        let html = try Self.render(model)
        #expect(html.contains("There is no data yet"))
        #expect(!html.contains(#"id="overview""#))
    }

    @Test func withoutHistoryThePageSaysSoAndShowsNoWindows() throws {
        let html = try Self.render(Self.model(hasHistory: false))
        #expect(html.contains(#"id="no-history""#))
        #expect(!html.contains(#"data-window="last-7""#))
        #expect(!html.contains(#"id="trend-"#))
    }

    @Test func chartsScaleToTheirLargestValue() {
        let svg = SVGChart.trend(["0.00", "50.00", nil, "100.00"], label: "x", width: 108, height: 48)
        #expect(svg.contains(#"<polyline class="series" points="4,44 37.3,24"/>"#))
        #expect(svg.contains(#"<circle class="series" cx="104" cy="4" r="2"/>"#))
        #expect(SVGChart.format(-0.25) == "-0.2" || SVGChart.format(-0.25) == "-0.3")
        #expect(SVGChart.escape(#"a<b>"c"&'"#) == "a&lt;b&gt;&quot;c&quot;&amp;&#39;")
    }
}
