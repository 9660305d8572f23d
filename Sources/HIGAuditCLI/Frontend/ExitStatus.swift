import ArgumentParser

/// The exit statuses a caller (cron, CI, a wrapper script) can act on (SPEC §5); the README lists them.
enum ExitStatus {
    /// All input was read; reports are written.
    static let success: Int32 = 0
    /// A fatal error: unreadable config, unwritable output, or skipped input under `--strict`.
    static let fatal: Int32 = 1
    /// The run finished and its reports are written, but some input was skipped (malformed lines, corrupt or
    /// refused frames, truncated or unreadable files). For `merge`: the store is written but lacks some
    /// shards of a split run, the same "finished, but not over all the input" a scheduler acts on.
    static let skippedInput: Int32 = 3
    /// `nightly` only: the run is committed to the store, but an output (`--out`, `--malformed-report`)
    /// could not be written afterwards. Re-running commits nothing new; `export` writes the tables.
    static let committedOutputsNotWritten: Int32 = 4
    /// `compare --fail-on worse`: the table is printed and at least one rule's verdict is `worse`, so that
    /// a scheduled job can alert on it and still keep the table. `analyze` and `query` `--fail-on new`:
    /// every output is written and a violation's `(rule, screen)` pair is not in `--baseline` (SPEC §6).
    static let worseVerdict: Int32 = 5
    /// A named input does not exist, or the inputs hold no log file (sysexits' `EX_NOINPUT`): nothing
    /// was read or committed. `--allow-missing` makes it skipped input (3) instead.
    static let noInput: Int32 = 66
    /// The command line was wrong (ArgumentParser's own status for usage errors).
    static let usage: Int32 = ExitCode.validationFailure.rawValue
}
