import HIGAuditStore

/// The warning every reader of a store (`query`, `export`, `compare`, `dashboard`) gives when the store
/// lacks shards of a run split by device: its answers would cover part of the sessions, and nothing
/// in a table shows it.
enum ShardCoverageWarning {
    /// Warns on standard error, unless `--quiet`. A store that cannot be read says nothing here: the
    /// reader's own read reports why.
    static func check(_ store: ResultsStore, path: String, verbosity: Verbosity) {
        guard verbosity != .quiet,
              let coverage = try? store.read({ try ShardCoverage.of($0) }),
              let warning = coverage.warning(store: path)
        else { return }
        StandardError.write("hig-audit: warning: \(warning)\n")
    }
}
