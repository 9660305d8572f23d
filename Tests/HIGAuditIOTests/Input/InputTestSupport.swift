import Foundation
import HIGAuditCore
@testable import HIGAuditIO

/// Collects what the reader delivers, copying each line out of the reader's buffer.
struct CollectingSink: LineSink {
    struct Oversized: Equatable {
        var number: Int64
        var byteCount: Int64
    }

    var lines: [(number: Int64, bytes: [UInt8])] = []
    var oversized: [Oversized] = []

    mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        lines.append((number, Array(bytes)))
    }

    mutating func oversizedLine(number: Int64, byteCount: Int64) {
        oversized.append(Oversized(number: number, byteCount: byteCount))
    }

    var texts: [String] { lines.map { String(decoding: $0.bytes, as: UTF8.self) } }
    var numbers: [Int64] { lines.map(\.number) }
}

/// The outcome of reading one source, everything a test may look at.
struct ReadResult {
    var sink = CollectingSink()
    var statistics = IngestStatistics()
    var diagnostics: [Diagnostic] = []
    var summary: FileReadSummary

    func diagnostics(_ category: Diagnostic.Category) -> [Diagnostic] {
        diagnostics.filter { $0.category == category }
    }
}

enum InputFixtures {
    /// `<package root>`, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("hig-audit-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the real `zstd` CLI with `arguments`, feeding `input` on standard input; returns stdout.
    /// Input through a pipe means the CLI does not know the content size (a streaming upload).
    @discardableResult
    static func zstd(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zstd", "-q"] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "zstd \(arguments): \(String(decoding: errors, as: UTF8.self))")
        }
        return Array(output)
    }

    /// Compresses `content` as one frame; `fromFile` lets the CLI see the size (content size in header).
    static func frame(_ content: String, _ flags: [String] = [], fromFile: Bool = false) throws -> [UInt8] {
        try frame(Array(content.utf8), flags, fromFile: fromFile)
    }

    static func frame(_ content: [UInt8], _ flags: [String] = [], fromFile: Bool = false) throws -> [UInt8] {
        if fromFile {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("content")
            try Data(content).write(to: file)
            return try zstd(flags + ["-c", file.path])
        }
        return try zstd(flags + ["-c"], input: content)
    }

    /// A skippable frame: magic 0x184D2A50 + `variant`, 32-bit little-endian size, payload.
    static func skippableFrame(variant: UInt32, payload: [UInt8]) -> [UInt8] {
        littleEndian(0x184D_2A50 + variant) + littleEndian(UInt32(payload.count)) + payload
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Writes `bytes` to a new file in `directory`.
    @discardableResult
    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Reads `path` (or any source) with a fresh reader.
    static func read(
        _ source: InputSource, options: ReaderOptions = ReaderOptions(),
        startingAt start: FileReadSummary.ResumePoint? = nil
    ) throws -> ReadResult {
        let reader = try InputReader(options: options)
        return read(source, with: reader, startingAt: start)
    }

    static func read(
        _ source: InputSource, with reader: InputReader, startingAt start: FileReadSummary.ResumePoint? = nil
    ) -> ReadResult {
        var sink = CollectingSink()
        var statistics = IngestStatistics()
        var diagnostics: [Diagnostic] = []
        let summary: FileReadSummary
        if let start {
            summary = reader.read(source, startingAt: start, into: &sink, statistics: &statistics) {
                diagnostics.append($0)
            }
        } else {
            summary = reader.read(source, into: &sink, statistics: &statistics) { diagnostics.append($0) }
        }
        return ReadResult(sink: sink, statistics: statistics, diagnostics: diagnostics, summary: summary)
    }

    static func read(bytes: [UInt8], options: ReaderOptions = ReaderOptions()) throws -> ReadResult {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(bytes, named: "input.zst", in: directory)
        return try read(InputSource(path: path, displayPath: "input.zst"), options: options)
    }

    /// NDJSON-looking lines, each distinct, some long enough to need several blocks.
    static func sampleLines(_ count: Int, seed: Int = 1) -> [String] {
        (0..<count).map { index in
            let filler = String(repeating: "x", count: (index * 37 + seed * 11) % 300)
            return #"{"ts":\#(1_700_000_000_000 + index),"session":"s\#(seed)-\#(index % 7)","type":"touch","n":\#(index),"f":"\#(filler)"}"#
        }
    }

    static func ndjson(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
}
