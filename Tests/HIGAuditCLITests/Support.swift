import Foundation
import HIGAuditSample

/// Runs the built `hig-audit` executable the way a user would, from the package root.
enum HigAuditBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (SwiftPM builds every product before testing).
    static let executable: URL = {
        var candidates: [URL] = []
        if let bundlePath = Bundle.main.executablePath {
            candidates.append(URL(fileURLWithPath: bundlePath).deletingLastPathComponent().appendingPathComponent("hig-audit"))
        }
        for argument in CommandLine.arguments.prefix(1) {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("hig-audit"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/hig-audit"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        try shell([executable.path] + arguments, stdin: stdin, environment: environment)
    }

    /// Runs any command line from the package root (or `workingDirectory`); stdout and stderr are captured whole.
    static func shell(
        _ command: [String], stdin: Data? = nil, environment: [String: String] = [:], workingDirectory: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.currentDirectoryURL = workingDirectory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read standard error on another thread so that neither pipe can fill up and stall the child.
        let collected = ErrorCollector()
        let reader = Thread {
            collected.data = err.fileHandleForReading.readDataToEndOfFile()
            collected.done.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        collected.done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: collected.data, as: UTF8.self))
    }

    private final class ErrorCollector: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension NoiseProfile {
    /// Realistic noise at many times its usual rates, so that every kind of bad line and frame shows up
    /// in a few hundred sessions.
    static let heavy: NoiseProfile = {
        var noise = NoiseProfile.realistic
        noise.reorder = 0.05
        noise.duplicate = 0.02
        noise.late = 0.01
        noise.unknownType = 0.01
        noise.malformed = 0.005
        noise.blank = 0.005
        noise.crlfFile = 0.2
        noise.skippableFrame = 0.2
        return noise
    }()
}
