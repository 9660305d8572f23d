import HIGAuditCore
import HIGAuditIO

/// What every subcommand that reads logs settles before reading: the reader, the inputs, and that no
/// output would land on an input. Settled first, so that a mistake costs no reading.
struct ResolvedInputs {
    let reader: InputReader
    let sources: [InputSource]
    /// Paths that could not be listed or opened: the run counts them as faults.
    let problems: [Diagnostic]
    /// The diagnostics' destination: standard error, and the malformed-line report if one was asked for.
    let reporter: DiagnosticReporter

    /// - Throws: `FatalError` for a reader or report that cannot be made, `NoInputError` (66) for a
    ///   missing input without `--allow-missing`, a usage error for an output that names an input or
    ///   for an input that is an SQLite file (`StoreGivenAsInput`).
    ///   `otherReads` are the files the run reads besides its logs and `input`'s dictionaries (the
    ///   config, a file list, templates); `dashboard` the directory the run replaces whole.
    init(
        _ input: InputOptions, outDirectory: String?, exportedTables: [String], store: String? = nil,
        otherReads: [ReadFile] = [], dashboard: DashboardOptions? = nil,
        progress: ProgressLine?, verbosity: Verbosity
    ) throws {
        reader = try input.makeReader()
        var passedOver: [InputResolver.PassedOver] = []
        (sources, problems) = InputResolver.resolve(input.inputs, endings: input.endings, passedOver: &passedOver)
        if verbosity.saysNotes {
            for directory in passedOver { StandardError.write(Self.note(directory)) }
        }
        try NoInputError.check(input.inputs, resolved: sources, problems: problems, allowMissing: input.allowMissing)
        try StoreGivenAsInput.check(input.inputs, store: store)
        let dictionaries = input.dictionaries.map { ReadFile(what: "a dictionary (--dictionary)", path: $0) }
        try OutputCheck.validate(
            malformedReport: input.malformedReport, outDirectory: outDirectory, exportedTables: exportedTables,
            inputs: sources, inputArguments: input.inputs, store: store,
            otherReads: otherReads + dictionaries + (dashboard?.templateFiles ?? []),
            replacedDirectory: dashboard?.dashboard.map { ("--dashboard", $0) })
        do {
            reporter = try DiagnosticReporter(
                malformedReportPath: input.malformedReport, progress: progress, verbosity: verbosity)
        } catch {
            throw FatalError("cannot write the malformed-line report: \(error)")
        }
    }

    /// The note that names a directory's `.json` files, which are not read (`InputResolver.PassedOver`):
    /// the first few, and how many more.
    static func note(_ passedOver: InputResolver.PassedOver, naming limit: Int = 3) -> String {
        let paths = passedOver.paths
        let count = paths.count
        let named = paths.prefix(limit).joined(separator: ", ") + (count > limit ? " and \(count - limit) more" : "")
        let files = count == 1 ? "1 .json file" : "\(count) .json files"
        let endings = InputResolver.exportExtensions.dropLast().joined(separator: ", ") + " and " + InputResolver.exportExtensions.last!
        return "hig-audit: note: \(passedOver.directory): \(files) not read (a directory's exports are its \(endings) files): "
            + "\(named); name a .json file as an input to read it\n"
    }

    /// Ends the diagnostics (the counts of those not shown) and closes the malformed-line report.
    func finishReporting() throws(FatalError) {
        do {
            try reporter.finish()
        } catch {
            throw FatalError("cannot write the malformed-line report: \(error)")
        }
    }
}
