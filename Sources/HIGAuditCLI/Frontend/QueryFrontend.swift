#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HIGAuditCore
import HIGAuditIO
import HIGAuditStore

extension StoreOptions {
    func selection(_ filters: FilterOptions) throws -> StoreSelection {
        StoreSelection(filter: try filters.tableFilter(), severities: Set(severities), runs: Set(runs))
    }

    /// The selection with each `--session` taken as an id or the start of one, as `show` takes it: the
    /// session whose id it is, else the only one it starts. A prefix of several ids is a usage error
    /// that lists them; one that starts none is kept (it matches nothing) and said in a note.
    func selection(_ filters: FilterOptions, in store: ResultsStore, verbosity: Verbosity) throws -> StoreSelection {
        var selection = try selection(filters)
        guard !selection.filter.sessions.isEmpty else { return selection }
        let matches: [(String, SessionPrefix.Match)]
        do {
            matches = try store.read { db in
                try selection.filter.sessions.sorted().map { ($0, try SessionPrefix.match(db, prefix: $0)) }
            }
        } catch {
            throw FatalError("\(error)")
        }
        var sessions = Set<String>()
        for (given, match) in matches {
            switch match {
            case .session(let id):
                sessions.insert(id)
            case .none:
                sessions.insert(given)
                if verbosity.saysNotes { StandardError.write("hig-audit: note: --session \(given) matches no session id in \(self.store)\n") }
            case .ambiguous(let ids, let more):
                throw UsageError(
                    "--session \(given) starts several session ids: \(ids.joined(separator: ", "))\(more ? ", …" : ""); give more of the id")
            }
        }
        selection.filter.sessions = sessions
        return selection
    }

    func open() throws(FatalError) -> ResultsStore {
        do {
            return try ResultsStore(readingAt: store)
        } catch {
            throw FatalError("cannot open the store \(store): \(error)")
        }
    }
}

/// Does what `query` asks, from one read transaction.
struct QueryFrontend {
    let command: QueryCommand

    func run() throws {
        try reportingCommandErrors(execute)
    }

    private func execute() throws {
        let baseline = try command.baseline.load()
        let store = try command.storeOptions.open()
        ShardCoverageWarning.check(store, path: command.storeOptions.store, verbosity: command.verbosity.level)
        let selection = try command.storeOptions.selection(command.filters, in: store, verbosity: command.verbosity.level)
        let output = command.output
        let tables: [Table]
        // With a baseline or --show-suppressed, the tables of --out come from this same snapshot, as printed.
        var marked: (stored: StoredTables, marking: BaselineMarking?)?
        do {
            if let sql = command.sql {
                tables = [try store.runReadOnlySQL(sql, timeLimit: command.sqlTimeout)]
            } else if command.judgements {
                // As the overview: a CSV holds one table, the runs'; `--sql` reads run_exclusions as CSV.
                tables = try store.read { db in
                    let runs = try RecordedJudgements.judgementsTable(db, runs: selection.runs)
                    if output.format == .csv { return [runs] }
                    return [runs, try RecordedJudgements.exclusionsTable(db, runs: selection.runs)]
                }
            } else {
                // The notes are said after the read, which answers nothing from a damaged store.
                let notes: [String]
                (notes, tables) = try store.read { db -> ([String], [Table]) in
                    let notes = try StoredTables.filterMisses(db, filter: selection.filter)
                    if !command.groupBy.isEmpty { return (notes, [try StoreQuery.grouped(db, by: command.groupBy, selection: selection, order: command.sort)]) }
                    let stored = try StoredTables.load(db, selection: selection, showsSuppressed: command.showSuppressed)
                    let marking = baseline.map { BaselineMarking(baseline: $0, byScreen: stored.table(.byScreen)) }
                    if marking != nil || command.showSuppressed { marked = (stored, marking) }
                    let table = { (name: TableName) in marking?.marked(stored.table(name)) ?? stored.table(name) }
                    if !output.tables.isEmpty { return (notes, output.tables.map { output.printed(table($0), $0) }) }
                    // As analyze: a CSV holds one table, the summary; every other format gets the overview.
                    if output.format == .csv { return (notes, [table(.summary)]) }
                    return (notes, [table(.summary), stored.table(.worstScreens), stored.table(.ingest).transposed(name: "ingest")])
                }
                for note in notes where command.verbosity.level.saysNotes { StandardError.write("hig-audit: note: \(note)\n") }
            }
        } catch {
            throw FatalError("\(error)")
        }
        if let directory = output.out {
            if let marked {
                try writeMarked(marked.stored, marking: marked.marking, to: directory)
            } else {
                do {
                    try StoreExport.write(store, to: directory, selection: selection)
                } catch {
                    throw FatalError("\(error)")
                }
            }
        }
        var stdout = FileOutput.standardOutput()
        output.format.writer(colors: output.color.isEnabledForStandardOutput, screen: .standardOutput()).write(tables, to: &stdout)
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)")
        }
        if let marking = marked?.marking ?? nil {
            let status = marking.status(after: ExitStatus.success, gate: command.baseline.failOn, verbosity: command.verbosity.level)
            if status != ExitStatus.success { throw ExitCode(status) }
        }
    }

    /// `--out DIR` under `--baseline` or `--show-suppressed`: every table as CSV and JSON, as
    /// `StoreExport` writes them, with the baseline's columns and the suppressed violations as printed;
    /// each file written to a temporary name and renamed.
    private func writeMarked(_ stored: StoredTables, marking: BaselineMarking?, to directory: String) throws(FatalError) {
        let failure = OutputPaths.makeDirectory(directory)
        if failure != 0 {
            throw FatalError("cannot create the output directory \(directory): \(String(cString: strerror(failure)))")
        }
        let files = TableName.exported.flatMap { name in
            let table = marking?.marked(stored.table(name)) ?? stored.table(name)
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
