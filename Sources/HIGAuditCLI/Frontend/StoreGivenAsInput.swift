import HIGAuditIO

/// Refuses an SQLite file named as an input (the results store, most often: `nightly --store
/// results.sqlite results.sqlite`), before anything is read: read as a log, its pages would be counted
/// as thousands of malformed lines, and `nightly` would commit them.
enum StoreGivenAsInput {
    /// Throws a usage error naming the first input argument that is an SQLite file; `store` is the
    /// run's own store, if it has one.
    static func check(_ arguments: [String], store: String?) throws(UsageError) {
        guard let path = arguments.first(where: { $0 != "-" && SQLiteFileHeader.isSQLite($0) }) else { return }
        if let store, OutputPaths.firstInputReplaced(by: [store], inputs: [path]) != nil {
            throw UsageError(
                "input \(path) is the store of this run (--store), not a log; nothing was read. Name the folders or files of the logs as inputs")
        }
        throw UsageError(
            "input \(path) is an SQLite file and looks like a results store, not a log; nothing was read. "
                + "Read a store with `hig-audit query --store \(path)`, or give it to `hig-audit nightly` with --store")
    }
}
