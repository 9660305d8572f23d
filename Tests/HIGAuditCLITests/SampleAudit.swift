import Foundation
import HIGAuditCore
import HIGAuditIO
import HIGAuditSample

/// What the real engine reports for a directory of logs, in the shape of a `SampleManifest`, so that
/// tests compare the rules' findings with the generator's ground truth field by field.
struct SampleAudit {
    /// Violations per app version and rule.
    var violations: [String: [String: Int]] = [:]
    /// Sessions with at least one violation, per app version and rule.
    var sessionsAffected: [String: [String: Int]] = [:]
    /// Sessions per app version.
    var sessions: [String: Int] = [:]
    var statistics = IngestStatistics()
    var diagnostics: [Diagnostic] = []

    /// Reads `directory` as `hig-audit analyze DIRECTORY` does, with the default configuration.
    init(directory: String) throws {
        var diagnostics: [Diagnostic] = []
        let run = AuditRun(configuration: AuditConfiguration(), reader: try InputReader(), keepsViolations: false) {
            diagnostics.append($0)
        }
        let (sources, problems) = InputResolver.resolve([directory])
        for problem in problems { run.recordUnreadable(problem) }
        for source in sources { run.read(source) }
        let table = run.finish().byVersionTable()
        statistics = run.statistics
        self.diagnostics = diagnostics

        let column = { (name: String) in table.columnIndex(named: name) ?? 0 }
        for row in table.rows {
            let version = row[column("app_version")].plainText
            let rule = row[column("rule")].plainText
            violations[version, default: [:]][rule] = Int(row[column("violations")].plainText) ?? -1
            sessionsAffected[version, default: [:]][rule] = Int(row[column("sessions_affected")].plainText) ?? -1
            sessions[version] = Int(row[column("sessions_total")].plainText) ?? -1
        }
    }
}
