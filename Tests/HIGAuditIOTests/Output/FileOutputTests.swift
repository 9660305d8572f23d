import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

@Suite struct FileOutputTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new output for a file `name` in a fresh directory, removed after `body`.
    private func withNewOutput(_ name: String, _ body: (_ output: FileOutput, _ path: String) throws -> Void) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try body(try FileOutput.replacingFile(at: path), path)
    }

    @Test func writesTheFileOnlyWhenClosed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("summary.csv").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let output = try FileOutput.replacingFile(at: path)
        let big = String(repeating: "x", count: 100_000)
        output.write("a,b\r\n")
        output.write(big)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        try output.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\r\n" + big)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["summary.csv"])
    }

    /// Many small writes, as the table writers make them, across several flushes of the buffer, with
    /// multi-byte characters split by none of them.
    @Test func smallWritesAcrossFlushesKeepEveryByte() throws {
        try withNewOutput("violations.csv") { output, path in
            var expected = ""
            for index in 0..<40_000 {
                let piece = index % 7 == 0 ? "é\(index)," : index % 11 == 0 ? "\r\n" : "日本\(index)"
                output.write(piece)
                expected += piece
            }
            try output.close()
            #expect(expected.utf8.count > 4 * 65_536)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        }
    }

    /// A write that fits the buffer's free room is copied in one piece; one that does not goes through
    /// the flushing path. Every length from 0 to 80 bytes, ASCII and multi-byte, small (inline) and heap
    /// strings, lands where it belongs across many buffer flushes, however the buffer's end falls.
    @Test func writesOfEveryLengthAcrossFlushesKeepEveryByte() throws {
        try withNewOutput("violations.json") { output, path in
            var expected: [UInt8] = []
            for index in 0..<20_000 {
                let length = index % 81
                let piece = index % 3 == 0
                    ? String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
                    : String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + ($0 + index) % 26))) })
                #expect(piece.utf8.count == length)
                output.write(piece)
                expected += Array(piece.utf8)
            }
            try output.close()
            #expect(expected.count > 10 * 65_536)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        }
    }

    /// Byte runs (the writers' keys and cells) of every length from 0 to 40, taken at every alignment
    /// from bytes that all differ from their neighbours, land whole and in order across flushes: the
    /// short ones are copied as overlapping words, which must neither drop nor repeat a byte.
    @Test func byteRunsOfEveryLengthAndAlignmentKeepEveryByte() throws {
        try withNewOutput("violations.json") { output, path in
            let source = (0..<64).map { UInt8(0x21 + $0) }
            var expected: [UInt8] = []
            source.withUnsafeBufferPointer { source in
                for round in 0..<2_000 {
                    for length in 0...40 {
                        let start = (round &+ length) % 24
                        output.write(bytes: UnsafeBufferPointer(rebasing: source[start..<(start + length)]))
                        expected += source[start..<(start + length)]
                    }
                }
            }
            try output.close()
            #expect(expected.count > 10 * 65_536)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        }
    }

    /// The buffer's edge exactly: a write that fills it to the last byte, one that finds it full,
    /// an empty one in between, then writes after `close`, which are dropped.
    @Test func writesAtTheBuffersEdgeKeepEveryByte() throws {
        try withNewOutput("summary.json") { output, path in
            let buffer = 65_536
            let pieces = [
                String(repeating: "a", count: buffer - 7), "bcdefg", "h", "", "i", "jk",
                String(repeating: "é", count: buffer), "z",
            ]
            for piece in pieces { output.write(piece) }
            try output.close()
            output.write("after close")
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == Array(pieces.joined().utf8))
        }
    }

    /// A disk that fills up mid-output: the failure is reported by `close`, later writes are dropped,
    /// and nothing is left at the target path (the temporary name is `path.tmp-PID`, here made a link
    /// to `/dev/full`, where every write fails with ENOSPC).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aWriteFailureIsReportedByClose() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("violations.csv").path
        try FileManager.default.createSymbolicLink(
            atPath: path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)", withDestinationPath: "/dev/full")
        let output = try FileOutput.replacingFile(at: path)
        for _ in 0..<10_000 { output.write("rule,severity,session\r\n") }
        output.write(String(repeating: "x", count: 100_000))
        #expect(throws: FileOutputError.self) { try output.close() }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The writers' byte and number pieces say exactly what `String(value)` and `rfc3339` say, and go
    /// where text written beside them goes, across flushes of the buffer: integers of every length and
    /// sign (both extremes included), time stamps inside and outside years 0000…9999, single bytes, and
    /// byte runs shorter and longer than the buffer.
    @Test func bytesAndNumbersLandAsTheirTextWould() throws {
        try withNewOutput("violations.csv") { output, path in
            var expected = ""
            var integers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
            var power: Int64 = 1
            while power <= Int64.max / 10 {
                power *= 10
                integers += [power - 1, power, -power, 1 - power]
            }
            let stamps: [Int64] = [0, -1, 1_763_676_245_123, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999,
                                   253_402_300_800_000, .max, .min]
            let long = String(repeating: "é\"", count: 40_000)
            for round in 0..<400 {
                for value in integers {
                    output.write(integer: value)
                    output.write(byte: UInt8(ascii: ","))
                    expected += "\(value),"
                }
                for ms in stamps {
                    output.write(timestamp: ms)
                    output.write("|")
                    expected += TimestampFormatter.rfc3339(ms) + "|"
                }
                if round % 100 == 0 {
                    ByteScan.withBytes(of: long) { output.write(bytes: $0) }
                    expected += long
                }
            }
            try output.close()
            #expect(expected.utf8.count > 4 * 65_536)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        }
    }

    /// A memory output hands over what was written, across flushes, and starts empty again.
    @Test func aMemoryOutputHandsOverItsText() {
        let output = FileOutput.memory()
        let piece = String(repeating: "日本,", count: 10_000)
        output.write(piece)
        output.write(integer: -42)
        #expect(output.takeText() == piece + "-42")
        #expect(output.takeText().isEmpty)
        output.write(byte: UInt8(ascii: "x"))
        #expect(output.takeText() == "x")
    }

    @Test func anUnwritablePathIsAnError() {
        #expect(throws: FileOutputError.self) {
            _ = try FileOutput.replacingFile(at: "/nonexistent-directory-hig-audit/x.csv")
        }
    }

    @Test func anAbandonedOutputLeavesNothingBehind() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let output = try FileOutput.replacingFile(at: directory.appendingPathComponent("x.json").path)
            output.write("[]")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A character device for a test: a node of its own in `directory` made with `mknod` (as root,
    /// as CI runs), so that a regression replaces that node and not the machine's; without the
    /// privilege, the system's node itself, which an unprivileged rename cannot replace either.
    private func characterDevice(minor: UInt64, systemPath: String, in directory: URL) -> String {
        let path = directory.appendingPathComponent("device-\(minor)").path
        // Major 1 (memory devices): minor 3 is null, 7 is full.
        return mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0 ? path : systemPath
    }

    /// Renaming a temporary file over `/dev/null` (as root) replaced the device node with a file.
    @Test func aDeviceIsWrittenThroughNotReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let null = characterDevice(minor: 3, systemPath: "/dev/null", in: directory)
        let output = try FileOutput.replacingFile(at: null)
        output.write("discarded\n")
        try output.close()
        var status = stat()
        #expect(lstat(null, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFullDeviceIsAnUnwritableOutput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = characterDevice(minor: 7, systemPath: "/dev/full", in: directory)
        let output = try FileOutput.replacingFile(at: full)
        output.write(String(repeating: "x", count: 100_000))
        #expect(throws: FileOutputError.self) { try output.close() }
        var status = stat()
        #expect(lstat(full, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real.tsv").path
        let link = directory.appendingPathComponent("report.tsv").path
        try Data("old content that is longer".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let output = try FileOutput.replacingFile(at: link)
        output.write("new\n")
        try output.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
    }

    @Test func aFifoIsWrittenThrough() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read and write end held open by the test, so opening it for writing does not wait.
        let reader = open(fifo, O_RDWR | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let output = try FileOutput.replacingFile(at: fifo)
        output.write("through\n")
        try output.close()
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self) == "through\n")
        var status = stat()
        #expect(lstat(fifo, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func standardStreamsNamedAsFilesShareTheirDescriptor() {
        #expect(FileOutput.inheritedDescriptor(named: "/dev/stdout") == 1)
        #expect(FileOutput.inheritedDescriptor(named: "/dev/fd/2") == 2)
        #expect(FileOutput.inheritedDescriptor(named: "/proc/self/fd/1") == 1)
        #expect(FileOutput.inheritedDescriptor(named: "/dev/fd/7") == nil)
        #expect(FileOutput.inheritedDescriptor(named: "/tmp/stdout") == nil)
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: FileOutputError.self) { _ = try FileOutput.replacingFile(at: directory.path) }
    }
}
