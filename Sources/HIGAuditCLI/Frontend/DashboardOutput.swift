import Foundation
import HIGAuditDashboard
import HIGAuditIO

/// A dashboard directory and its templates, both checked before any work (`--out`, `--dashboard`), so
/// that a run never reads everything only to find it cannot write the page.
struct DashboardOutput {
    let directory: DashboardDirectory
    let templates: DashboardTemplates

    static func prepare(out: String, templates: String?) throws(FatalError) -> DashboardOutput {
        do {
            let loaded = try templates.map(TemplateDirectory.load) ?? DashboardTemplates.builtIn()
            return DashboardOutput(directory: try DashboardDirectory(checking: out), templates: loaded)
        } catch let error as DashboardTemplateError {
            throw FatalError("\(error)")
        } catch {
            throw FatalError("\(error)")
        }
    }

    func write(_ model: DashboardModel) throws(FatalError) {
        // After the exchange the staging folder holds the old page and is removed; until then it is
        // the interrupted command's debris.
        Interruption.track(createdFolder: directory.stagingPath)
        defer { Interruption.untrack(directory.stagingPath) }
        do {
            try directory.replace(with: ["index.html": templates.render(model)])
        } catch {
            throw FatalError("\(error)")
        }
    }

    /// Milliseconds since the epoch, for the page's "read at".
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// `file` as a path relative to `directory` (both made absolute from the working directory), for
    /// the page's link to the CSV export that `--out` writes beside it.
    static func relativePath(from directory: String, to file: String) -> String {
        func components(_ path: String) -> [String] {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var parts: [String] = []
            for part in absolute.split(separator: "/") {
                switch part {
                case ".": continue
                case "..": _ = parts.popLast()
                default: parts.append(String(part))
                }
            }
            return parts
        }
        let from = components(directory), to = components(file)
        var shared = 0
        while shared < min(from.count, to.count - 1), from[shared] == to[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: from.count - shared)
        return (ups + to[shared...]).joined(separator: "/")
    }
}
