import Foundation

/// The `hig-audit` executable that `swift build` put beside this test bundle, run as a user runs it.
enum BuiltCommand {
    /// The package root, found from this file's path (`<root>/Tests/HIGAuditCLITests/…`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable of the configuration being tested (debug or release), else the debug one.
    static var executable: URL? {
        var candidates: [URL] = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("hig-audit")]
        if let runner = Bundle.main.executableURL {
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("hig-audit"))
            candidates.append(runner.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("hig-audit"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/hig-audit"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "hig-audit is not built next to the tests; run `swift build` first" }
    }

    /// Runs `hig-audit arguments…` in the package root and waits for it.
    static func run(_ arguments: [String]) throws -> Result {
        guard let executable else { throw NotBuilt() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error on another thread so that neither pipe can fill up and stall the child.
        let errorData = ErrorCollector()
        let reader = Thread { errorData.data = error.fileHandleForReading.readDataToEndOfFile(); errorData.done.signal() }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorData.done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self))
    }

    private final class ErrorCollector: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
