#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HIGAuditCore
import HIGAuditDashboard
import HIGAuditIO

/// Does what `analyze` asks: resolve inputs, run the audit over them, write the tables,
/// and decide the exit status (SPEC §5).
struct AnalysisFrontend {
    let input: InputOptions
    let config: ConfigOptions
    let output: OutputOptions
    let filters: FilterOptions
    let verbosity: Verbosity
    var dashboard = DashboardOptions()
    /// `--show-suppressed`: list the violations exclusions suppressed, flagged, in `violations`.
    var showsSuppressed = false
    var baselineOptions: BaselineOptions

    func run() throws -> Int32 {
        try reportingCommandErrors(execute)
    }

    private func execute() throws -> Int32 {
        let configuration = try config.resolved()
        let baseline = try baselineOptions.load()
        let printed = tablesToPrint()
        let keepsViolations = output.out != nil || printed.contains(.violations) || dashboard.dashboard != nil
        guard let analysed = try analyse(configuration, keepsViolations: keepsViolations, outDirectory: output.out) else {
            return ExitStatus.fatal
        }
        let accumulator = analysed.accumulator
        let statistics = analysed.statistics
        let marking = baseline.map { BaselineMarking(baseline: $0, byScreen: accumulator.byScreenTable()) }
        try writeDirectory(accumulator: accumulator, statistics: statistics, sources: analysed.sources, marking: marking)
        if let dashboardOutput = analysed.dashboardOutput {
            let accepted = AcceptedFindings.ofRun(
                summary: accumulator.summaryTable(), byScreen: accumulator.byScreenTable(),
                exclusions: configuration.exclusions, today: try RunDay.today(),
                baseline: baseline.map { ($0, baselineOptions.baseline ?? "") })
            try dashboardOutput.write(
                RunDashboard.model(
                    accumulator, ingest: statistics, sources: analysed.sources, source: "one analyze run over \(input.inputs.joined(separator: " "))",
                    generatedAt: DashboardOutput.now(), csvLink: dashboard.csvLink(out: output.out), accepted: accepted))
        }
        try printTables(printed, accumulator: accumulator, statistics: statistics, sources: analysed.sources, marking: marking)
        let status = statistics.skippedInput ? ExitStatus.skippedInput : ExitStatus.success
        return marking?.status(after: status, gate: baselineOptions.failOn, verbosity: verbosity) ?? status
    }

    /// What one run over the inputs produced, ready to be written.
    struct Analysed {
        let accumulator: AnalysisAccumulator
        let statistics: IngestStatistics
        let sources: SourceFileTable
        let dashboardOutput: DashboardOutput?
    }

    /// Reads every input and runs the rules: the part of `analyze` that `baseline` shares. Nil when
    /// `--strict` stopped the run (already said on standard error; the status is fatal).
    func analyse(
        _ configuration: AuditConfiguration, keepsViolations: Bool, outDirectory: String?
    ) throws -> Analysed? {
        // Ctrl-C while reading: the --out folder made for the run and the report's temporary file go.
        Interruption.install(.exitAtOnce(message: "nothing written"))
        let suppression = configuration.suppression(today: try RunDay.today())
        let filter = try filters.tableFilter()
        let progress = verbosity == .quiet ? ProgressLine(enabled: false) : ProgressLine()
        let inputs = try ResolvedInputs(
            input, outDirectory: outDirectory, exportedTables: TableName.exported.map(\.rawValue),
            otherReads: config.readFiles + baselineOptions.readFiles, dashboard: dashboard, progress: progress, verbosity: verbosity)
        let sources = inputs.sources
        let dashboardOutput = try dashboard.prepare()
        let run = AuditRun(
            configuration: configuration, reader: inputs.reader, filter: filter, keepsViolations: keepsViolations,
            suppression: suppression, showsSuppressed: showsSuppressed, jobs: input.jobCount, onDiagnostic: inputs.reporter.report)
        if let format = input.from { run.pipeline.importer = EventImporter(format: format, settings: configuration.importSettings) }
        // Unowned: the run keeps this closure, which would otherwise keep the run (and its engine).
        run.pipeline.onProgress = { [unowned run] bytes in
            progress.update(file: run.pipeline.inputsReached, of: sources.count, path: run.pipeline.currentPath,
                            bytes: bytes, events: run.engine.statistics.events)
        }

        for problem in inputs.problems { run.recordUnreadable(problem) }
        if input.strict, !inputs.problems.isEmpty { return abortStrict(progress: progress) }
        let strict = input.strict
        if run.read(sources, stopAfter: { strict && $0.skippedInput }) { return abortStrict(progress: progress) }
        let accumulator = run.finish()
        progress.finish()
        Interruption.setMode(.exitAtOnce(message: "while writing the reports; no partial file is left"))
        try inputs.finishReporting()

        if verbosity.saysNotes {
            for note in accumulator.filterMisses { StandardError.write("hig-audit: note: \(note)\n") }
        }
        return Analysed(accumulator: accumulator, statistics: run.statistics, sources: run.sources, dashboardOutput: dashboardOutput)
    }

    private func abortStrict(progress: ProgressLine) -> Analysed? {
        progress.finish()
        StandardError.write("hig-audit: error: input was skipped and --strict makes that fatal; no report written\n")
        return nil
    }

    /// What goes to standard output: the tables asked for, else an overview for a person.
    private func tablesToPrint() -> [TableName] {
        if !output.tables.isEmpty { return output.tables }
        return output.format == .csv ? [.summary] : []
    }

    private func printTables(
        _ names: [TableName], accumulator: AnalysisAccumulator, statistics: IngestStatistics, sources: SourceFileTable,
        marking: BaselineMarking?
    ) throws {
        let mark = { (table: Table) in marking?.marked(table) ?? table }
        let tables = names.isEmpty
            ? accumulator.overview(ingest: statistics).map(mark)
            : names.map { output.printed(mark(accumulator.table($0, ingest: statistics, sources: sources)), $0) }
        var stdout = FileOutput.standardOutput()
        output.format.writer(colors: output.color.isEnabledForStandardOutput, screen: .standardOutput(pathBases: input.inputs))
            .write(tables, to: &stdout)
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)")
        }
    }

    /// `--out DIR`: every table as CSV and JSON, each file written to a temporary name and renamed.
    private func writeDirectory(
        accumulator: AnalysisAccumulator, statistics: IngestStatistics, sources: SourceFileTable, marking: BaselineMarking?
    ) throws {
        guard let directory = output.out else { return }
        let failure = OutputPaths.makeDirectory(directory)
        if failure != 0 {
            throw FatalError("cannot create the output directory \(directory): \(String(cString: strerror(failure)))")
        }
        let files = TableName.exported.flatMap { name in
            let plain = accumulator.table(name, ingest: statistics, sources: sources)
            let table = marking?.marked(plain) ?? plain
            return [OutputFormat.csv, .json].map { format in
                TableFile(path: "\(directory)/\(name.rawValue).\(format.fileExtension)", table: table, writer: format.writer())
            }
        }
        do {
            try TableFiles.write(files)
        } catch {
            throw FatalError("cannot write \(error.path): \(error.underlying)")
        }
    }
}
