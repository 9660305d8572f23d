#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// An output directory's file that is a symbolic link to a FIFO (or to `/dev/stdout`) is written
/// through (README "Reports and `--out` files…"). Several such files that share one stream give it each
/// file whole, in table order, however many files `TableFiles` may have in flight.
@Suite struct TableFilesStreamTests {
    private func tables() -> [Table] {
        (1..<6).map { number in
            Table(name: "t\(number)", columns: [.text("name"), .integer("count")], rowCount: number * 4_000) { row in
                [.text("row \(row) of t\(number)", fromInput: true), .integer(Int64(row * number))]
            }
        }
    }

    @Test func filesLinkedToOneStreamReachItWholeAndInOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("stream").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that stays for the whole write, and a writer of our own so that it sees no end of
        // file between the table files.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        let keepOpen = open(fifo, O_WRONLY)
        #expect(reader >= 0 && keepOpen >= 0)
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        final class Collected: @unchecked Sendable { var bytes: [UInt8] = [] }
        let collected = Collected()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let got = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if got < 0, errno == EINTR { continue }
                if got <= 0 { break }
                collected.bytes.append(contentsOf: chunk[0..<got])
            }
            done.signal()
        }.start()

        let formats: [OutputFormat] = [.csv, .json]
        let files = tables().flatMap { table in
            formats.map { format in
                TableFile(
                    path: directory.appendingPathComponent("\(table.name).\(format.fileExtension)").path, table: table,
                    writer: format.writer())
            }
        }
        for file in files { try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: fifo) }
        try TableFiles.write(files)
        close(keepOpen)
        done.wait()
        close(reader)
        let expected = files.map { $0.writer.render($0.table) }.joined()
        #expect(collected.bytes.count == expected.utf8.count)
        #expect(String(decoding: collected.bytes, as: UTF8.self) == expected)
    }
}
