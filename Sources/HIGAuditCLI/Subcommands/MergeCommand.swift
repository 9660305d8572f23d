import ArgumentParser
import HIGAuditStore

/// `hig-audit merge`: partial stores of a sharded run into one store.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the partial stores of a run split by device (nightly --shard K/N) into one store.",
        discussion: """
            Unions the parts' runs, input files, sessions, violations, haptics, unknown types and rules into \
            --store (created if missing), which query, compare and export then read as any store: its tables \
            equal those of one run over all the files. The store is built under a temporary name and renamed \
            when every part is in, so a merge that fails or is killed changes nothing (the next merge removes \
            what a killed one left). Merges into one store take turns (a lock on STORE.lock): a second one \
            waits, then adds its parts to what the first wrote. --store must be new or a store merge wrote, as \
            its own file: not a symbolic or hard link, not one of the parts, not a partial store.

            A part is refused, and nothing is written, when it holds a session the store or another part \
            holds (the same shard twice, or runs split differently), when it was made with another \
            configuration, or when it left sessions open. A part already merged is skipped: merging the same \
            parts again changes nothing.

            Examples:
              hig-audit nightly --store part-0.sqlite --close-open --shard 0/2 logs/
              hig-audit nightly --store part-1.sqlite --close-open --shard 1/2 logs/
              hig-audit merge --store results.sqlite part-0.sqlite part-1.sqlite

            The store must end up with every shard 0 to N-1 of the run: when one is missing (a part not \
            merged yet, or a shard whose job failed), the store is written, the missing shards are named on \
            standard error, and the exit status is 3; query, export, compare and dashboard warn about it \
            too, since their answers cover only the shards merged.

            Exit status: 0 on success; 3 when the store is written but lacks some shards of the run (named on \
            standard error); 1 when a part is refused or a store cannot be read or written; 64 on a usage error.
            """
    )

    @Option(help: ArgumentHelp("The merged store: created if missing, else a store made by merge.", valueName: "file"))
    var store: String

    @Argument(help: ArgumentHelp("Partial stores written by `nightly --shard K/N --close-open`.", valueName: "part"))
    var parts: [String] = []

    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<MergeMessages>

    func validate() throws {
        if parts.isEmpty { throw ValidationError("Give at least one partial store to merge.") }
        if parts.contains(store) { throw ValidationError("--store \(store) is one of the parts; merge into another path.") }
    }

    func run() throws {
        try reportingCommandErrors {
            let outcome: StoreMergeOutcome
            do {
                let quiet = verbosity.level == .quiet
                outcome = try StoreMerge.merge(parts: parts, into: store, waiting: {
                    if !quiet { StandardError.write("hig-audit: another merge into \(store) is running; waiting for it to finish\n") }
                })
            } catch {
                throw FatalError("nothing was merged, \(store) is unchanged: \(error)")
            }
            if verbosity.level.saysNotes {
                StandardError.write(
                    "hig-audit: merged \(outcome.partsMerged) parts into \(store) (\(outcome.partsAlreadyMerged) already in it): "
                        + "\(outcome.sessions) sessions, \(outcome.violations) violations\n")
            }
            // A store without every shard answers for part of the sessions: said here, and by every reader.
            let coverage = try? ResultsStore(readingAt: store).read { try ShardCoverage.of($0) }
            if let warning = coverage?.warning(store: store) {
                if verbosity.level != .quiet { StandardError.write("hig-audit: warning: \(warning)\n") }
                throw ExitCode(ExitStatus.skippedInput)
            }
        }
    }
}
