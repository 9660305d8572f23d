import ArgumentParser
import Foundation
import HIGAuditDashboard
import HIGAuditStore
import HIGAuditIO

/// `hig-audit dashboard`: the static HTML page of a results store.
struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Write the results store as a static HTML dashboard (DIR/index.html) that opens from a file or any web server.",
        discussion: """
            One self-contained page: per rule the percent of sessions it affected last night, over the \
            last 7 and 30 nights and over everything, with a trend chart per day; app versions × rules and \
            compare's verdict between consecutive versions, regressions first; the worst screens per rule; the \
            latest violations of each rule with their log file and line; the input's health per run; and the \
            rule catalogue. The numbers are those of `query --group-by` and `compare` on the same store. Charts \
            are inline SVG, each with the table of its numbers; the page loads nothing from the network and \
            needs no JavaScript.

            DIR is replaced whole, in one step: the page is written to a new directory beside it, which then \
            takes its place. DIR must be new, empty or an earlier dashboard. --templates DIR takes any of the \
            page's Mustache templates (index, style, overview, releases, screens, examples, accepted, health, catalogue \
            .mustache; the defaults are in Dashboards/templates) from a directory instead.

            A section "Accepted findings" appears when a nightly run had exclude: entries or --baseline is \
            given: per rule the violations the runs suppressed (counted nowhere else on the page), the latest \
            run's entries with their config lines and reasons, and with --baseline FILE the violations whose \
            (rule, screen) pair the baseline lacks, as `query --baseline` counts them.

            Examples:
              hig-audit dashboard --store results.sqlite --out /var/www/hig-audit
              hig-audit dashboard --store results.sqlite --out site \\
                  --csv-link ../tables/violations.csv
              hig-audit dashboard --store results.sqlite --out site \\
                  --templates our-templates/

            Exit status: 0 on success; 1 when the store cannot be read (missing, damaged, not a hig-audit store \
            or of a schema this version does not know), the baseline cannot be read, a template does not parse, or DIR cannot be written \
            (checked before the store is read); 64 on a usage error.
            """
    )

    @Option(help: ArgumentHelp("The results store written by `hig-audit nightly` (opened read-only).", valueName: "file"))
    var store: String

    @Option(help: ArgumentHelp("The directory to write index.html to (replaced whole).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Mustache templates that replace the built-in ones of the same name.", valueName: "dir"))
    var templates: String?

    @Option(
        name: .customLong("csv-link"),
        help: ArgumentHelp("Where the page links the whole violations table: a URL or a path relative to the page.", valueName: "url"))
    var csvLink: String?

    @Option(
        help: ArgumentHelp(
            "A baseline written by `hig-audit baseline`: the page counts, per rule, the violations whose (rule, screen) pair is not in it.",
            valueName: "file"))
    var baseline: String?

    /// dashboard says nothing on standard error but errors and the warning of a store that lacks shards.
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<DashboardMessages>

    func validate() throws {
        // --out is replaced whole: the store or the templates inside it would be lost with it (a store
        // that does not exist is reported as such when it is opened).
        let kept = ([store] + (templates.map { [$0] } ?? [])).filter { FileManager.default.fileExists(atPath: $0) }
        if let inside = OutputPaths.firstPathInside(out, of: kept) {
            throw ValidationError(
                "--out \(out) is replaced whole, and it holds \(inside == store ? "the store" : "the templates") (\(inside)); choose a directory of its own.")
        }
        if let csvLink, !DashboardLink.isAllowed(csvLink) {
            throw ValidationError(
                "--csv-link takes an http(s) URL or a path relative to the page, not \(csvLink.debugDescription).")
        }
    }

    func run() throws {
        try reportingCommandErrors {
            let baselineRead = try BaselineOptions(baseline: baseline).load()
            let output = try DashboardOutput.prepare(out: out, templates: templates)
            let results: ResultsStore
            do {
                results = try ResultsStore(readingAt: store)
            } catch {
                throw FatalError("cannot open the store \(store): \(error)")
            }
            ShardCoverageWarning.check(results, path: store, verbosity: verbosity.level)
            let model: DashboardModel
            do {
                model = try StoreDashboard.model(
                    results, source: "the store \(store)", generatedAt: DashboardOutput.now(), csvLink: csvLink,
                    baseline: baselineRead, baselinePath: baseline)
            } catch {
                throw FatalError("cannot read the store \(store): \(error)")
            }
            try output.write(model)
        }
    }
}
