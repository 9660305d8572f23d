import ArgumentParser
import Foundation
import HIGAuditDashboard

/// `--dashboard DIR` of `analyze` and `nightly`: the page `hig-audit dashboard` writes, rendered after
/// the run (from the run's tables, or from the store).
struct DashboardOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also write the HTML dashboard (DIR/index.html) after the run; the directory is replaced whole. Checked before any work.",
            valueName: "dir"))
    var dashboard: String?

    @Option(help: ArgumentHelp("Mustache templates for --dashboard that replace the built-in ones of the same name.", valueName: "dir"))
    var dashboardTemplates: String?

    func validate() throws {
        if dashboardTemplates != nil, dashboard == nil {
            throw ValidationError("--dashboard-templates styles the page of --dashboard; give --dashboard DIR too.")
        }
    }

    /// The templates the run reads (every file of `--dashboard-templates`), which no output may replace.
    var templateFiles: [ReadFile] {
        guard let dashboardTemplates else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dashboardTemplates)) ?? []
        return [ReadFile(what: "the templates directory (--dashboard-templates)", path: dashboardTemplates)]
            + names.map { ReadFile(what: "a template (--dashboard-templates)", path: dashboardTemplates + "/" + $0) }
    }

    /// The checked output, or nil without `--dashboard`.
    func prepare() throws(FatalError) -> DashboardOutput? {
        guard let dashboard else { return nil }
        return try DashboardOutput.prepare(out: dashboard, templates: dashboardTemplates)
    }

    /// The page's link to `violations.csv` of `--out DIR`, relative to the page.
    func csvLink(out: String?) -> String? {
        guard let dashboard, let out else { return nil }
        let path = DashboardOutput.relativePath(from: dashboard, to: out + "/violations.csv")
        // A first folder named like `a:b` would read as a scheme: `./` keeps it a path.
        return DashboardLink.isAllowed(path) ? path : "./" + path
    }
}
