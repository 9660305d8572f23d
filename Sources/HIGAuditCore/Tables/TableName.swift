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

    /// Whether a row is one record (a violation) rather than an aggregate over many: the tables whose
    /// first rows (`--limit`) are a sample of the whole, while a cut aggregate table would mislead.
    public var rowsAreRecords: Bool { self == .violations }

    /// The tables `analyze --out`, `nightly --out` and `export` write, each as CSV and JSON, in this
    /// order: every table.
    public static let exported: [TableName] = allCases
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
