import ArgumentParser

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
