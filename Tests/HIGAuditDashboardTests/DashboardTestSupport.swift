import Foundation

/// Runs the built `hig-audit` executable as a user would.
enum HigAudit {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let executable: String = {
        var candidates: [String] = []
        if let bundlePath = Bundle.main.executablePath {
            candidates.append(URL(fileURLWithPath: bundlePath).deletingLastPathComponent().appendingPathComponent("hig-audit").path)
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/hig-audit").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    @discardableResult
    static func run(_ arguments: [String]) throws -> Result {
        try shell([executable] + arguments)
    }

    /// Runs a command line from the package root; stdout and stderr captured whole (read on their own
    /// threads, so that neither pipe can fill up and stall the child).
    static func shell(_ command: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.currentDirectoryURL = packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = Collected()
        let reader = Thread {
            collected.data = err.fileHandleForReading.readDataToEndOfFile()
            collected.done.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        collected.done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: collected.data, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A store of three nights of generated logs (three app versions), made once per test process with
/// `hig-audit sample` and one `nightly` run per day, as a nightly job would fill it.
enum SampleStore {
    struct Made: Sendable {
        var directory: URL
        var store: String
        var days: [String]
    }

    static let made: Result<Made, any Error> = Result {
        let directory = try HigAudit.temporaryDirectory()
        let logs = directory.appendingPathComponent("logs").path
        let sample = try HigAudit.run([
            "sample", "--out", logs, "--sessions", "240", "--days", "3", "--seed", "29", "--session-length", "short",
            "--move-sampling-ms", "250",
        ])
        guard sample.status == 0 else { throw Failure("sample failed: \(sample.stderr)") }
        let days = try FileManager.default.contentsOfDirectory(atPath: logs)
            .filter { $0.first?.isNumber == true }.sorted()
        let store = directory.appendingPathComponent("results.sqlite").path
        for (index, day) in days.enumerated() {
            var arguments = ["nightly", "--store", store, "--quiet", "\(logs)/\(day)"]
            if index == days.count - 1 { arguments.append("--close-open") }
            let nightly = try HigAudit.run(arguments)
            guard [0, 3].contains(nightly.status) else { throw Failure("nightly failed: \(nightly.stderr)") }
        }
        return Made(directory: directory, store: store, days: days)
    }

    static func get() throws -> Made { try made.get() }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Rows of a CSV file without quoted commas (the columns the tests read are ids and numbers).
enum SimpleCSV {
    static func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells + Array(repeating: "", count: max(0, header.count - cells.count))))
        }
    }
}
