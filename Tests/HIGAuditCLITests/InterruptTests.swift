import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM: `analyze` says "interrupted: nothing written" and leaves no `--out`
/// folder it made and no temporary file; `nightly` rolls its transaction back, says "interrupted: the
/// store is unchanged" and leaves the store as it was, without a journal. Both exit with 128 + the
/// signal: 130 and 143. The built binary runs as a process, as a user starts it.
@Suite struct InterruptTests {
    private static let night = HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs/night-2026-11-20").path

    /// Starts `hig-audit` with `arguments`; standard error is collected as it comes.
    private static func start(_ arguments: [String]) throws -> (process: Process, errors: Pipe) {
        let process = Process()
        process.executableURL = HigAuditBinary.executable
        process.arguments = arguments
        process.currentDirectoryURL = HigAuditBinary.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// Waits for the process to end; its exit status and all of standard error.
    private static func finish(_ process: Process, _ errors: Pipe, seen: Data = Data()) -> (status: Int32, stderr: String) {
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "the command ends itself rather than being killed by the signal")
        return (process.terminationStatus, String(decoding: seen + rest, as: UTF8.self))
    }

    /// Waits for `process` to end after the signal, then lets go of the FIFO. A binary that ignores the
    /// signal would wait for the FIFO for ever: after a generous while it is killed and the test fails,
    /// rather than hangs.
    private static func awaitEnd(_ process: Process, releasing writer: Int32) {
        var waited = 0
        while process.isRunning, waited < 12_000 {
            usleep(10_000)
            waited += 1
        }
        if writer >= 0 { close(writer) }
        if process.isRunning {
            Issue.record("hig-audit did not end on the signal")
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// The FIFO's write end, once `process` opened it to read (-1 if it ended first).
    private static func openWhenRead(_ fifo: String, by process: Process) -> Int32 {
        while process.isRunning {
            // Without a reader yet, a non-blocking open fails (ENXIO).
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { return writer }
            usleep(10_000)
        }
        return -1
    }

    /// `analyze` reads the sample night and then a FIFO, which holds it until the test has sent the
    /// signal: by then it made the `--out` folder and read every file before the FIFO.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func analyzeInterruptedWritesNothingAndLeavesNoFolder(signal: Int32, status: Int32) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let fifo = directory.appendingPathComponent("upload-in-progress.ndjson").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = directory.appendingPathComponent("tables").path
        let report = directory.appendingPathComponent("malformed.tsv").path
        let (process, errors) = try Self.start(
            ["analyze", Self.night, fifo, "--out", out, "--malformed-report", report, "--quiet"])
        let writer = Self.openWhenRead(fifo, by: process)
        #expect(writer >= 0)
        #expect(FileManager.default.fileExists(atPath: out), "analyze made --out before reading")
        kill(process.processIdentifier, signal)
        Self.awaitEnd(process, releasing: writer)
        let result = Self.finish(process, errors)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr == "hig-audit: interrupted: nothing written\n")
        #expect(!FileManager.default.fileExists(atPath: out), "the --out folder analyze made is gone")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["upload-in-progress.ndjson"], "no report, no temporary file: \(left)")
    }

    /// An `--out` folder that was there before stays, and holds only what it held.
    @Test func analyzeInterruptedKeepsAnOutFolderThatExisted() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let fifo = directory.appendingPathComponent("upload.ndjson").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = directory.appendingPathComponent("tables")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        try "kept\n".write(to: out.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let (process, errors) = try Self.start(["analyze", Self.night, fifo, "--out", out.path, "--quiet"])
        let writer = Self.openWhenRead(fifo, by: process)
        kill(process.processIdentifier, SIGINT)
        Self.awaitEnd(process, releasing: writer)
        let result = Self.finish(process, errors)
        #expect(result.status == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["notes.txt"])
    }

    /// `nightly` over the sample night, signalled once it has read its first file (inside its
    /// transaction, with the store's journal on disk).
    private static func interruptNightly(store: String, out: String, signal: Int32) throws -> (status: Int32, stderr: String) {
        let (process, errors) = try Self.start(["nightly", "--store", store, "--out", out, "--verbose", Self.night])
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(": read") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        kill(process.processIdentifier, signal)
        return Self.finish(process, errors, seen: seen)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func nightlyInterruptedLeavesTheStoreAsItWas(signal: Int32, status: Int32) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        let first = try HigAuditBinary.run(["nightly", "--store", store, "SampleLogs/damaged", "--quiet"])
        #expect(first.status == 3, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let out = directory.appendingPathComponent("tables").path

        let result = try Self.interruptNightly(store: store, out: out, signal: signal)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("hig-audit: interrupted: the store is unchanged\n"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store is byte for byte as before")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["results.sqlite"],
            "no journal, no --out folder")
        // The next run does the work.
        let next = try HigAuditBinary.run(["nightly", "--store", store, Self.night, "--quiet"])
        #expect(next.status == 3 || next.status == 0, "\(next.stderr)")
    }

    @Test func nightlyInterruptedInItsFirstRunLeavesNoStore() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        let result = try Self.interruptNightly(store: store, out: directory.appendingPathComponent("tables").path, signal: SIGINT)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("hig-audit: interrupted: the store is unchanged\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the store this run made is gone")
    }
}
