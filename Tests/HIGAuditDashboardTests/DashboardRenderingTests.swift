import HIGAuditCore
import Testing
@testable import HIGAuditDashboard

/// The page as a function of its model: what it shows, and that text from logs stays text.
struct DashboardRenderingTests {
    static func model(screen: String = "home", isEmpty: Bool = false, hasHistory: Bool = true) -> DashboardModel {
        let rate = Rate(affected: "3", total: "120", percent: "2.50")
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
                            detail: "6 haptics in 1000 ms", source: "logs/a.ndjson.zst:12"),
                    Example(session: "6f1c0d2e-8a4b-4c3d-9e2f-0a1b2c3d4e5f", device: "iPad-Pro-12-9-6th-generation-7",
                            appVersion: "5.2.0", screen: screen, time: "2026-11-20T19:59:58.250Z", detail: "7 haptics in 1000 ms",
                            source: "uploads/2026-11-20/iPad-Pro-12-9-6th-generation-7/part-0003.ndjson.zst:4812"),
                ])
            ],
            examplesPerRule: 10,
            health: [NightHealth(label: "run 1", finished: "2026-11-21T02:30:00.000Z", files: 3, events: 900, malformedLines: 2, lateEvents: 1, duplicateEvents: 0, faults: 0)],
            catalogue: RuleRegistry.descriptions.map(CatalogueEntry.init), csvLink: "../tables/violations.csv",
            screens: [
                WorstScreen(screen: screen, violations: "12", sessionsAffected: "7", topRule: "haptic-overuse", topRuleViolations: "9"),
                WorstScreen(screen: "", violations: "2", sessionsAffected: "2", topRule: "modal-depth", topRuleViolations: "2"),
            ])
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
        #expect(html.contains(": 2 of 40"))
        #expect(html.contains(#"<a href="../tables/violations.csv">all 40 in the CSV export</a>"#))
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
        #expect(PageText.all(#"<td class="num">(2\.50)</td>"#, in: trend).count == 2)
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
        // The plot starts right of the value axis (x 40) and spans 6 to 44 vertically.
        let svg = SVGChart.trend(["0.00", "50.00", nil, "100.00"], label: "x", width: 112, height: 48)
        #expect(svg.contains(#"<polyline class="series" points="40,44 62.7,25"/>"#))
        #expect(svg.contains(#"<circle class="series" cx="108" cy="6" r="2"/>"#))
        #expect(SVGChart.format(-0.25) == "-0.2" || SVGChart.format(-0.25) == "-0.3")
        #expect(SVGChart.escape(#"a<b>"c"&'"#) == "a&lt;b&gt;&quot;c&quot;&amp;&#39;")
    }

    /// Trend charts say what their heights mean: the largest value and 0 on the value axis, with the
    /// unit, and the first and last day under the time axis.
    @Test func trendChartsLabelTheirAxes() throws {
        let svg = SVGChart.trend(["0.40", "2.50", nil, "1.25"], label: "x", xLabels: ("2026-11-18", "2026-11-21"), unit: "%")
        #expect(svg.contains(#">2.50%</text>"#) && svg.contains(#">0%</text>"#))
        #expect(svg.contains(#">2026-11-18</text>"#) && svg.contains(#">2026-11-21</text>"#))
        let html = try Self.render(Self.model())
        let trend = PageText.first(#"(<figure id="trend-haptic-overuse">.*?</figure>)"#, in: html) ?? ""
        #expect(trend.contains(#">2.50%</text>"#) && trend.contains(#">2026-11-18</text>"#) && trend.contains(#">2026-11-20</text>"#))
    }

    /// The overall worst screens, as the CLI's `worst_screens` table: screen, violations, sessions
    /// affected and the rule broken most.
    @Test func worstScreensOverAllRulesAreListed() throws {
        let html = try Self.render(Self.model())
        let table = try #require(PageText.first(#"(<table id="worst-screens">.*?</table>)"#, in: html))
        #expect(table.contains(#"<tr><td class="mono">home</td><td class="num">12</td><td class="num">7</td><td><code>haptic-overuse</code></td><td class="num">9</td></tr>"#))
        #expect(table.contains("(no screen)"))
    }

    /// Examples are one compact table: a long id or path is shortened on one line (never broken inside a
    /// token) and whole in its title; the full time is in the `datetime`.
    @Test func examplesAreCompactAndKeepIdsWhole() throws {
        let html = try Self.render(Self.model())
        let section = try #require(PageText.first(#"(<section id="examples">.*?</section>)"#, in: html))
        #expect(PageText.all("(<table)", in: section).count == 1)
        #expect(section.contains(#"<td class="id" title="6f1c0d2e-8a4b-4c3d-9e2f-0a1b2c3d4e5f">6f1c0d2e…</td>"#))
        #expect(section.contains(#"<td class="id" title="iPad-Pro-12-9-6th-generation-7">iPad-Pro…</td>"#))
        #expect(section.contains(#"<td class="id" title="uploads/2026-11-20/iPad-Pro-12-9-6th-generation-7/part-0003.ndjson.zst:4812">part-0003.ndjson.zst:4812</td>"#))
        #expect(section.contains(#"<td class="id" title="s1">s1</td>"#))
        #expect(section.contains(#"<time datetime="2026-11-20T19:59:58.250Z" title="2026-11-20T19:59:58.250Z">2026-11-20 19:59:58</time>"#))
        #expect(html.contains("white-space: nowrap") && html.contains("td.id"))
        #expect(html.contains(#"id="rule-haptic-overuse""#), "the overview links to each rule's examples")
    }

    /// A page shows a bounded number of examples per rule however many violations there are.
    @Test func examplesPerRuleAreBounded() {
        #expect(StoreDashboard.examplesPerRule <= 3)
    }
}
