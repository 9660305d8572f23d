/// The tables a run can print, by the names the CLI and output files use (SPEC §4, plus the
/// breakdown of unknown event types and the worst screens of the terminal overview).
public enum TableName: String, CaseIterable, Sendable {
    case violations
    case summary
    case byVersion = "by_version"
    case byScreen = "by_screen"
    case haptics
    case ingest
    case unknownTypes = "unknown_types"
    case worstScreens = "worst_screens"
}

extension AnalysisAccumulator {
    /// The table called `name`. `worstScreens` shows the ten worst screens.
    public func table(_ name: TableName, ingest: IngestStatistics, sources: SourceFileTable) -> Table {
        switch name {
        case .violations: violationsTable(sources: sources)
        case .summary: summaryTable()
        case .byVersion: byVersionTable()
        case .byScreen: byScreenTable()
        case .haptics: hapticsTable()
        case .ingest: IngestTables.ingestTable(ingest)
        case .unknownTypes: IngestTables.unknownTypesTable(ingest)
        case .worstScreens: worstScreensTable(limit: 10)
        }
    }
}
