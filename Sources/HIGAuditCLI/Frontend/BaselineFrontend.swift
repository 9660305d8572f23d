import ArgumentParser
import HIGAuditCore
import HIGAuditIO
import HIGAuditStore

/// Does what `baseline` asks: the `by_screen` pairs of one analysis of the logs, or of the store's
/// tables under the filters, written as a baseline file.
struct BaselineFrontend {
    let command: BaselineCommand

    func run() throws -> Int32 {
        try reportingCommandErrors(execute)
    }

    private func execute() throws -> Int32 {
        try refuseOverwritingWhatIsRead()
        let taken: (baseline: Baseline, status: Int32)
        if let store = command.store {
            taken = (try fromStore(store), ExitStatus.success)
        } else {
            guard let fromLogs = try fromLogs() else { return ExitStatus.fatal }
            taken = fromLogs
        }
        do {
            try BaselineFile.write(taken.baseline, to: command.out)
        } catch {
            throw FatalError("\(error)")
        }
        if command.verbosity.level.saysNotes {
            StandardError.write("hig-audit: wrote \(taken.baseline.pairs.count) (rule, screen) pairs to \(command.out)\n")
        }
        return taken.status
    }

    /// `--out` must not be the store, the config, or a log of this run: nothing is read if it is.
    private func refuseOverwritingWhatIsRead() throws(UsageError) {
        var read = command.config.readFiles
        if let store = command.store { read.append(ReadFile(what: "the store", path: store)) }
        read += InputResolver.resolve(command.input.inputs).sources.compactMap(\.filePath).map { ReadFile(what: "an input", path: $0) }
        if let (_, input) = OutputPaths.firstInputReplaced(by: [command.out], inputs: read.map(\.path)) {
            let what = read.first { $0.path == input }?.what ?? "an input"
            throw UsageError("--out would write \(command.out), which is \(what) of this run (\(input)); nothing was read")
        }
    }

    /// The pairs of one `analyze` of the logs; nil when `--strict` stopped the run.
    private func fromLogs() throws -> (Baseline, Int32)? {
        // Parsed from nothing: an option group made with `init()` has no values to read.
        let frontend = AnalysisFrontend(
            input: command.input, config: command.config, output: try OutputOptions.parse([]), filters: command.filters,
            verbosity: command.verbosity.level, dashboard: try DashboardOptions.parse([]), baselineOptions: try BaselineOptions.parse([]))
        guard let analysed = try frontend.analyse(try command.config.resolved(), keepsViolations: false, outDirectory: nil) else {
            return nil
        }
        let status = analysed.statistics.skippedInput ? ExitStatus.skippedInput : ExitStatus.success
        return (Baseline(byScreen: analysed.accumulator.byScreenTable()), status)
    }

    /// The pairs of the store's tables under the filters, as `query` would print them.
    private func fromStore(_ path: String) throws -> Baseline {
        var options = try StoreOptions.parse(["--store", path])
        options.severities = command.severities
        options.runs = command.runs
        let store = try options.open()
        ShardCoverageWarning.check(store, path: path, verbosity: command.verbosity.level)
        let selection = try options.selection(command.filters, in: store, verbosity: command.verbosity.level)
        do {
            return Baseline(byScreen: try StoredTables.load(store, selection: selection).table(.byScreen))
        } catch {
            throw FatalError("\(error)")
        }
    }
}
