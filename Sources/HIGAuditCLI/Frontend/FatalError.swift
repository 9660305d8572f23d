import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// An error that ends a command: said once on standard error, then the exit status of its kind, so
/// that a caller (cron, a wrapper script) can tell the kinds apart (SPEC §5, `ExitStatus`).
protocol CommandError: Error, CustomStringConvertible {
    static var status: Int32 { get }
}

extension CommandError {
    /// Reports the error and turns it into its exit status.
    func exit() -> ExitCode {
        StandardError.write("hig-audit: error: \(description)\n")
        return ExitCode(Self.status)
    }
}

/// A run that cannot go on: exit status 1.
struct FatalError: CommandError {
    static let status = ExitStatus.fatal
    var description: String

    init(_ description: String) { self.description = description }
}

/// A command line that would make the run destroy its own input or fail after doing its work (an
/// output that is one of the inputs): said before anything is read, then the usage status (64).
struct UsageError: CommandError {
    static let status = ExitStatus.usage
    var description: String

    init(_ description: String) { self.description = description }
}

/// A named input that does not exist, or inputs that hold no log file at all: said before anything is
/// read or committed, then `EX_NOINPUT` (66), so that a cron job tells a missing mount from an ordinary
/// night with a few bad lines (3). `--allow-missing` turns it into skipped input.
struct NoInputError: CommandError {
    static let status = ExitStatus.noInput
    var description: String

    init(_ description: String) { self.description = description }

    /// Refuses a run over `arguments` whose named paths do not exist, or whose inputs hold no log.
    /// `problems` are the resolver's: a folder whose only logs it could not take says why.
    static func check(
        _ arguments: [String], resolved sources: [InputSource], problems: [Diagnostic] = [], allowMissing: Bool
    ) throws(NoInputError) {
        guard !allowMissing else { return }
        let missing = InputResolver.missingPaths(arguments)
        if let first = missing.first {
            let more = missing.count > 1 ? " (and \(missing.count - 1) more)" : ""
            throw NoInputError(
                "input \(first) does not exist\(more); nothing was read (--allow-missing reads what exists and exits 3)")
        }
        if sources.isEmpty {
            let skipped = problems.filter { $0.category == .unreadableFile }
            let why = skipped.first.map { first in
                "; \(first.location): \(first.message)"
                    + (skipped.count > 1 ? "; and \(skipped.count - 1) more file(s) skipped" : "")
            } ?? ""
            throw NoInputError(
                "no log file in \(arguments.joined(separator: " ")); nothing was read (--allow-missing accepts an empty input)\(why)")
        }
    }
}

/// A file a run reads besides its logs, named as the user knows it: "the config file (--config)".
struct ReadFile {
    var what: String
    var path: String
}

/// The checks every reading command makes on its outputs before it reads anything.
enum OutputCheck {
    /// Refuses outputs that are files the run reads (inputs, the store, the config, dictionaries, file
    /// lists, templates), and a replaced-whole directory (`--dashboard`) that holds any of them or
    /// another output; then prepares `--out`'s directory.
    static func validate(
        malformedReport: String?, outDirectory: String?, exportedTables: [String], inputs: [InputSource],
        inputArguments: [String] = [], store: String? = nil, otherReads: [ReadFile] = [],
        replacedDirectory: (option: String, path: String)? = nil
    ) throws {
        var outputs: [(option: String, path: String)] = []
        if let malformedReport { outputs.append(("--malformed-report", malformedReport)) }
        if let outDirectory {
            for path in OutputPaths.tableFiles(in: outDirectory, tables: exportedTables) { outputs.append(("--out", path)) }
        }
        var protected = inputs.compactMap(\.filePath).map { ReadFile(what: "an input", path: $0) }
        if let store { protected.append(ReadFile(what: "the store", path: store)) }
        protected += otherReads
        if let (output, input) = OutputPaths.firstInputReplaced(by: outputs.map(\.path), inputs: protected.map(\.path)) {
            let option = outputs.first { $0.path == output }?.option ?? "an output"
            let what = protected.first { $0.path == input }?.what ?? "an input"
            throw UsageError("\(option) would write \(output), which is \(what) of this run (\(input)); nothing was read")
        }
        if let replacedDirectory {
            var kept = inputArguments.filter { $0 != "-" }.map { ReadFile(what: "an input", path: $0) }
            if let store { kept.append(ReadFile(what: "the store", path: store)) }
            kept += otherReads
            if let outDirectory { kept.append(ReadFile(what: "the --out directory", path: outDirectory)) }
            if let malformedReport { kept.append(ReadFile(what: "the --malformed-report file", path: malformedReport)) }
            if let inside = OutputPaths.firstPathInside(replacedDirectory.path, of: kept.map(\.path)) {
                let what = kept.first { $0.path == inside }?.what ?? "a file of this run"
                throw UsageError(
                    "\(replacedDirectory.option) \(replacedDirectory.path) is replaced whole, and it holds \(what) (\(inside)); "
                        + "choose a directory of its own; nothing was read")
            }
        }
        if let outDirectory, let problem = OutputPaths.prepareDirectory(outDirectory) {
            throw FatalError(problem)
        }
    }
}

/// Runs a command's work; a `CommandError` it throws is reported and becomes its exit status.
func reportingCommandErrors<Outcome>(_ work: () throws -> Outcome) throws -> Outcome {
    do {
        return try work()
    } catch let error as any CommandError {
        throw error.exit()
    }
}
