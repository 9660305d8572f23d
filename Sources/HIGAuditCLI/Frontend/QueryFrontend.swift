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
        do {
            try execute()
        } catch let error as FatalError {
            throw error.exit()
        }
    }

    private func execute() throws {
        let store = try command.storeOptions.open()
        ShardCoverageWarning.check(store, path: command.storeOptions.store, verbosity: command.verbosity.level)
        let selection = try command.storeOptions.selection(command.filters)
        let output = command.output
        let tables: [Table]
        do {
            if let sql = command.sql {
                tables = [try store.runReadOnlySQL(sql, timeLimit: command.sqlTimeout)]
            } else {
                // The notes are said after the read, which answers nothing from a damaged store.
                let notes: [String]
                (notes, tables) = try store.read { db -> ([String], [Table]) in
                    let notes = try StoredTables.filterMisses(db, filter: selection.filter)
                    if !command.groupBy.isEmpty { return (notes, [try StoreQuery.grouped(db, by: command.groupBy, selection: selection, order: command.sort)]) }
                    let stored = try StoredTables.load(db, selection: selection)
                    if !output.tables.isEmpty { return (notes, output.tables.map { output.printed(stored.table($0), $0) }) }
                    if output.format != .table { return (notes, [stored.table(.summary)]) }
                    return (notes, [stored.table(.summary), stored.table(.worstScreens), stored.table(.ingest).transposed(name: "ingest")])
                }
                for note in notes where command.verbosity.level.saysNotes { StandardError.write("hig-audit: note: \(note)\n") }
            }
        } catch {
            throw FatalError("\(error)")
        }
        if let directory = output.out {
            do {
                try StoreExport.write(store, to: directory, selection: selection)
            } catch {
                throw FatalError("\(error)")
            }
        }
        var stdout = FileOutput.standardOutput()
        output.format.writer(colors: output.color.isEnabledForStandardOutput).write(tables, to: &stdout)
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)")
        }
    }
}

