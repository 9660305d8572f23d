import HIGAuditCore

/// The run's input files by index, and what the engine's callbacks say with them: a late event's
/// location, a violation's related event. A class, because the engine is made before the files are
/// known and its callbacks must see files registered later. Touched only on the run's thread.
public final class RunFiles {
    public var table: SourceFileTable

    public init(_ table: SourceFileTable = SourceFileTable()) {
        self.table = table
    }

    /// Registers the next input; its index is the `file` of its events' locations.
    public func add(_ displayPath: String) -> Int32 {
        table.add(displayPath)
    }

    /// The diagnostic for a late event, located at its file and line (SPEC §5).
    public func lateDiagnostic(_ event: Event, _ reason: LateReason) -> Diagnostic {
        Diagnostic(.lateEvent, at: table.describe(event.source), reason.message(forEventAt: event.ts))
    }

    /// The report with each violation's related event named by file and line, while the file table is
    /// at hand: the tables and the store keep the text, not the location. The report is taken, not
    /// borrowed (the engine hands it over), so its violations change in their own array, not a copy.
    public func namingRelatedEvents(of report: consuming SessionReport) -> SessionReport {
        for index in report.violations.indices where report.violations[index].related != nil {
            report.violations[index].detail = report.violations[index].detail(describing: table)
            report.violations[index].related = nil
        }
        return report
    }
}
