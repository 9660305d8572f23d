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
        let selection = try command.storeOptions.selection(command.filters)
        let output = command.output
        let tables: [Table]
        do {
            if let sql = command.sql {
                tables = [try store.runReadOnlySQL(sql, timeLimit: command.sqlTimeout)]
            } else {
                tables = try store.read { db -> [Table] in
                for note in try StoredTables.filterMisses(db, filter: selection.filter) where command.verbosity.level.saysNotes {
                    StandardError.write("hig-audit: note: \(note)\n")
                }
                if !command.groupBy.isEmpty { return [try StoreQuery.grouped(db, by: command.groupBy, selection: selection)] }
                let stored = try StoredTables.load(db, selection: selection)
                if !output.tables.isEmpty { return output.tables.map { output.printed(stored.table($0), $0) } }
                if output.format != .table { return [stored.table(.summary)] }
                return [stored.table(.summary), stored.table(.worstScreens), stored.table(.ingest).transposed(name: "ingest")]
                }
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

