import ArgumentParser
import HIGAuditIO

/// A run that cannot go on: said once on standard error, then exit status 1 (SPEC §5).
struct FatalError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// Reports the error and turns it into the fatal exit status.
    func exit() -> ExitCode {
        StandardError.write("hig-audit: error: \(description)\n")
        return ExitCode(ExitStatus.fatal)
    }
}

/// A command line that would make the run destroy its own input or fail after doing its work (an
/// output that is one of the inputs): said before anything is read, then the usage status (64).
struct UsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    func exit() -> ExitCode {
        StandardError.write("hig-audit: error: \(description)\n")
        return ExitCode(ExitStatus.usage)
    }
}

/// The checks every reading command makes on its outputs before it reads anything.
enum OutputCheck {
    /// Refuses outputs that are inputs (or the store), and prepares `--out`'s directory.
    static func validate(
        malformedReport: String?, outDirectory: String?, exportedTables: [String], inputs: [InputSource],
        store: String? = nil
    ) throws {
        var outputs: [(option: String, path: String)] = []
        if let malformedReport { outputs.append(("--malformed-report", malformedReport)) }
        if let outDirectory {
            for path in OutputPaths.tableFiles(in: outDirectory, tables: exportedTables) { outputs.append(("--out", path)) }
        }
        var protected = inputs.compactMap(\.filePath)
        if let store { protected.append(store) }
        if let (output, input) = OutputPaths.firstInputReplaced(by: outputs.map(\.path), inputs: protected) {
            let option = outputs.first { $0.path == output }?.option ?? "an output"
            let what = input == store ? "the store" : "an input"
            throw UsageError("\(option) would write \(output), which is \(what) of this run (\(input)); nothing was read")
        }
        if let outDirectory, let problem = OutputPaths.prepareDirectory(outDirectory) {
            throw FatalError(problem)
        }
    }
}
