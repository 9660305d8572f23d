import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HIGAuditCore
import HIGAuditDashboard
import HIGAuditIO
import HIGAuditStore

/// Does what `nightly` asks: one run into the store, then the optional table directory.
struct NightlyFrontend {
    let command: NightlyCommand

    func run() throws -> Int32 {
        try reportingCommandErrors(execute)
    }

    private func execute() throws -> Int32 {
        // Ctrl-C before the store is opened leaves nothing to undo but an --out folder made for the run.
        Interruption.install(.exitAtOnce(message: Self.unchanged))
        var configuration = try command.config.resolved()
        if let idleRuns = command.idleRuns { configuration.idleRuns = idleRuns }
        // The baseline and the run's day are settled before anything is read: a bad one commits nothing.
        let baseline = try command.baseline.load()
        let judgement = try judgement(configuration, baseline: baseline)
        for note in judgement.suppression.expiryNotes { StandardError.write("hig-audit: warning: \(note)\n") }
        // Every output is checked before the run: once it has committed, a failing output can no
        // longer mean "nothing was committed".
        let shardPlan = try command.shardFiles.map(ShardFileList.read)
        var inputOptions = command.input
        if let shardPlan { inputOptions.inputs = shardPlan.paths }
        if command.shard != nil, FileManager.default.fileExists(atPath: command.store) {
            throw UsageError("--shard writes a new partial store in one run, and \(command.store) exists")
        }
        let fileList = command.shardFiles.map { [ReadFile(what: "the file list (--shard-files)", path: $0)] } ?? []
        let inputs = try ResolvedInputs(
            inputOptions, outDirectory: command.out, exportedTables: TableName.exported.map(\.rawValue),
            store: command.store, otherReads: command.config.readFiles + command.baseline.readFiles + fileList,
            dashboard: command.dashboard,
            progress: nil, verbosity: command.verbosity.level)
        let dashboardOutput = try command.dashboard.prepare()
        // From here a signal asks the run to stop, and the run's transaction is rolled back here.
        let storeExisted = FileManager.default.fileExists(atPath: command.store)
        Interruption.setMode(.stopTheRun(otherwise: stoppedAtOnce, hooks: []))
        let store: ResultsStore
        do {
            store = try ResultsStore(writingAt: command.store)
        } catch {
            if Interruption.isRequested { stopInterrupted(store: nil, created: !storeExisted) }
            throw FatalError("cannot open the store \(command.store): \(error)")
        }
        Interruption.setMode(.stopTheRun(otherwise: stoppedAtOnce, hooks: [store.interrupter]))
        if Interruption.isRequested { stopInterrupted(store: store, created: !storeExisted) }
        let nightly = NightlyRun(
            store: store, configuration: configuration, reader: inputs.reader, closeOpen: command.closeOpen,
            onDiagnostic: inputs.reporter.report)
        nightly.strict = command.input.strict
        nightly.judgement = judgement
        nightly.jobs = command.input.jobCount
        if let format = command.input.from {
            nightly.importer = EventImporter(format: format, settings: configuration.importSettings)
        }
        if let shard = command.shard.flatMap(DeviceShard.init(parsing:)) {
            nightly.shardPart = ShardPart(shard: shard, countedFiles: shardPlan?.counted)
        }
        if command.verbosity.level == .verbose {
            nightly.onFile = { path, what in StandardError.write("hig-audit: \(path): \(what)\n") }
        }
        let outcome: NightlyOutcome
        do {
            outcome = try nightly.run(inputs.sources, unreadable: inputs.problems)
        } catch let error as NightlyRunError {
            if Interruption.isRequested { stopInterrupted(store: store, created: !storeExisted) }
            removeIfEmpty(store: store, created: !storeExisted)
            throw FatalError("\(error)")
        } catch {
            if Interruption.isRequested { stopInterrupted(store: store, created: !storeExisted) }
            throw FatalError("the run was not committed, the store is unchanged: \(StoreError.describing(error, store: command.store))")
        }
        // Committed: a signal now stops the outputs, which `export` and `dashboard` can write later.
        let hasOutputs = command.out != nil || dashboardOutput != nil || command.input.malformedReport != nil
        let committed = "run \(outcome.runID) is committed"
            + (hasOutputs ? ", but the outputs after it were not written (`hig-audit export` writes the tables, `hig-audit dashboard` the page)" : "")
        Interruption.setMode(.exitAtOnce(message: committed))
        if Interruption.isRequested { Interruption.exit(saying: committed) }
        if command.verbosity.level.saysNotes {
            StandardError.write(
                "hig-audit: run \(outcome.runID) committed: \(outcome.filesRead) files read, \(outcome.filesSkipped) already counted, "
                    + "\(outcome.filesChanged) changed, \(outcome.tailsHeldBack) tails held back; \(outcome.statistics.events) events, "
                    + "\(outcome.sessionsClosed) sessions closed, \(outcome.openSessions) open; \(outcome.violations) violations"
                    + (judgement.suppression.hasEntries ? ", \(outcome.suppressed) suppressed" : "") + "\n")
        }
        var outputsWritten = true
        do {
            try inputs.reporter.finish()
        } catch {
            outputsWritten = false
            StandardError.write("hig-audit: error: run \(outcome.runID) is committed, but the malformed-line report was not written: \(error)\n")
        }
        if let directory = command.out {
            do {
                try StoreExport.write(store, to: directory, baseline: baseline)
            } catch {
                outputsWritten = false
                StandardError.write("hig-audit: error: run \(outcome.runID) is committed, but --out was not written: \(error)\n")
            }
        }
        if let dashboardOutput {
            do {
                let model = try StoreDashboard.model(
                    store, source: "the store \(command.store)", generatedAt: DashboardOutput.now(),
                    csvLink: command.dashboard.csvLink(out: command.out), baseline: baseline,
                    baselinePath: command.baseline.baseline)
                try dashboardOutput.write(model)
            } catch {
                outputsWritten = false
                StandardError.write("hig-audit: error: run \(outcome.runID) is committed, but --dashboard was not written: \(error)\n")
            }
        }
        let status = !outputsWritten
            ? ExitStatus.committedOutputsNotWritten : outcome.skippedInput ? ExitStatus.skippedInput : ExitStatus.success
        guard let baseline else { return status }
        return gate(baseline, runID: outcome.runID, store: store, after: status)
    }

    /// The exclusions judged on the run's day, the config's fingerprint and the baseline's, as the
    /// run records them.
    private func judgement(_ configuration: AuditConfiguration, baseline: Baseline?) throws -> RunJudgement {
        let today = try RunDay.today()
        do {
            let configSHA256 = try command.config.config.map(RunJudgement.fingerprint(ofFileAt:))
            let recorded = try command.baseline.baseline.map { path in
                RecordedBaseline(path: path, sha256: try RunJudgement.fingerprint(ofFileAt: path), pairs: baseline?.pairs.count ?? 0)
            }
            return RunJudgement(entries: configuration.exclusions, today: today, configSHA256: configSHA256, baseline: recorded)
        } catch {
            throw FatalError("cannot read a file the run records the fingerprint of (--config, --baseline): \(error.localizedDescription)")
        }
    }

    /// `--baseline` after the commit and every output: the violations this run recorded (the sessions
    /// it closed) marked known or new, said when any is new, and `--fail-on new`'s status (SPEC §5's
    /// order: a fatal error or outputs not written outrank it; it outranks skipped input).
    private func gate(_ baseline: Baseline, runID: Int64, store: ResultsStore, after status: Int32) -> Int32 {
        let night: StoredTables
        do {
            night = try StoredTables.load(store, selection: StoreSelection(runs: [runID]))
        } catch {
            StandardError.write("hig-audit: error: run \(runID) is committed, but its violations could not be read against --baseline: \(error)\n")
            return max(status, ExitStatus.committedOutputsNotWritten)
        }
        let marking = BaselineMarking(baseline: baseline, byScreen: night.table(.byScreen))
        if command.baseline.failOn == nil, command.verbosity.level.saysNotes {
            let newCount = marking.newByRule.reduce(0) { $0 + $1.violations }
            StandardError.write("hig-audit: run \(runID): \(newCount) violations new against --baseline \(command.baseline.baseline ?? "")\n")
        }
        return marking.status(after: status, gate: command.baseline.failOn, verbosity: command.verbosity.level)
    }

    static let unchanged = "the store is unchanged"
    private var stoppedAtOnce: String {
        "stopped at once by a second signal; the store is unchanged (SQLite rolls back its journal, "
            + "\(command.store)-journal, when the store is next opened)"
    }

    /// Ends a run that a signal stopped, after its transaction was rolled back: a store this run
    /// created, and that holds no run, goes too.
    private func stopInterrupted(store: ResultsStore?, created: Bool) -> Never {
        removeIfEmpty(store: store, created: created)
        Interruption.exit(saying: Self.unchanged)
    }

    /// After a run that committed nothing by design (a signal, or `--strict` over skipped input),
    /// removes the store if this run created it and it holds no run: "the store is unchanged" then
    /// means no store, not an empty one where there was none. Not after other failures: a run that
    /// timed out waiting for another run's first night would take that run's new store away.
    private func removeIfEmpty(store: ResultsStore?, created: Bool) {
        if created, (try? store?.runCount()) ?? 0 == 0 {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(command.store + suffix) }
        }
    }
}
