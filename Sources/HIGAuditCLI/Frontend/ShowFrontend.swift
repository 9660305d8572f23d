import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// Does what `show` asks: read every input through the engine, keep one session aside, print it.
///
/// Exit status: as `analyze` (0, 3 for skipped input, 1 fatal, 66 missing input, 64 usage), and an
/// ambiguous prefix is a usage error (64) that lists the candidates, a session that no id matches is
/// a fatal error (1: nothing is printed). A session that is found is printed also when input was
/// skipped, with status 3: the skipped lines may have held more of its events.
struct ShowFrontend {
    let session: String
    let input: InputOptions
    let config: ConfigOptions
    let format: OutputFormat
    let color: ColorChoice
    let verbosity: Verbosity

    /// How many candidates an ambiguous prefix lists.
    static let listedCandidates = 20

    func run() throws -> Int32 {
        try reportingCommandErrors(execute)
    }

    private func execute() throws -> Int32 {
        let configuration = try config.resolved()
        let progress = verbosity == .quiet ? ProgressLine(enabled: false) : ProgressLine()
        let inputs = try ResolvedInputs(
            input, outDirectory: nil, exportedTables: [], otherReads: config.readFiles, progress: progress,
            verbosity: verbosity)
        let sources = inputs.sources
        let run = SessionTraceRun(
            configuration: configuration, reader: inputs.reader, session: session, jobs: input.jobCount,
            onDiagnostic: inputs.reporter.report)
        if let format = input.from { run.importer = EventImporter(format: format, settings: configuration.importSettings) }
        for problem in inputs.problems { run.recordUnreadable(problem) }
        if input.strict, !inputs.problems.isEmpty { return abortStrict(progress: progress) }
        let strict = input.strict
        let stopped = run.read(sources) { index in
            // Once a file: a session's log is found by reading everything, and files are small.
            progress.update(file: index + 1, of: sources.count, path: sources[index].displayPath,
                            bytes: run.statistics.decompressedBytes, events: run.engine.statistics.events)
            return strict && run.statistics.skippedInput
        }
        if stopped { return abortStrict(progress: progress) }
        let (resolution, trace) = run.finish()
        progress.finish()
        try inputs.finishReporting()

        switch resolution {
        case .none:
            throw FatalError("no session id starts with '\(session)' in \(input.inputs.joined(separator: " ")); nothing to show")
        case .ambiguous(let candidates):
            let listed = candidates.prefix(Self.listedCandidates).map(TerminalText.visible).joined(separator: ", ")
            let more = candidates.count > Self.listedCandidates ? " and \(candidates.count - Self.listedCandidates) more" : ""
            throw UsageError(
                "session '\(session)' is ambiguous: \(candidates.count) sessions start with it: \(listed)\(more); give more of the id")
        case .found:
            break
        }
        guard var trace else { throw FatalError("session '\(session)' was found but not recorded") }
        trace.suppression = configuration.suppression(today: try RunDay.today())
        try write(trace, sources: run.sources)
        return run.statistics.skippedInput ? ExitStatus.skippedInput : ExitStatus.success
    }

    private func write(_ trace: SessionTrace, sources: SourceFileTable) throws {
        var stdout = FileOutput.standardOutput()
        switch format {
        case .json:
            stdout.write(SessionTraceJSON.render(trace, sources: sources))
        case .csv:
            format.writer().write(trace.flatTable(sources: sources), to: &stdout)
        case .table, .markdown:
            var tables = [trace.sessionTable(), trace.eventsTable(sources: sources)]
            if !trace.notAccepted.isEmpty { tables.append(trace.notAcceptedTable(sources: sources)) }
            format.writer(colors: color.isEnabledForStandardOutput, screen: .standardOutput(pathBases: input.inputs))
                .write(tables, to: &stdout)
        }
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)")
        }
    }

    private func abortStrict(progress: ProgressLine) -> Int32 {
        progress.finish()
        StandardError.write("hig-audit: error: input was skipped and --strict makes that fatal; nothing shown\n")
        return ExitStatus.fatal
    }
}
