#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// `TableFiles` writes an output directory's files several at a time: each file must be what writing
/// it alone gives, and a failure must be reported the same way whatever the timing.
@Suite struct TableFilesTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-tables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Tables of different sizes, the largest made lazily row by row as the accumulator's are.
    private func tables() -> [Table] {
        (0..<7).map { number in
            Table(
                name: "t\(number)", columns: [.text("name"), .integer("count")], rowCount: number * 3_000
            ) { row in [.text("row \(row) of =t\(number)", fromInput: true), .integer(Int64(row * number))] }
        }
    }

    @Test(arguments: [1, 2, 4, 16])
    func everyFileIsWhatWritingItAloneGives(writers: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let formats: [OutputFormat] = [.csv, .json]
        let files = tables().flatMap { table in
            formats.map { TableFile(path: directory.appendingPathComponent("\(table.name).\($0.fileExtension)").path, table: table, writer: $0.writer()) }
        }
        // Old files are replaced.
        for file in files { try Data("old".utf8).write(to: URL(fileURLWithPath: file.path)) }
        try TableFiles.write(files, writers: writers)
        for file in files {
            #expect(try String(contentsOfFile: file.path, encoding: .utf8) == file.writer.render(file.table))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == files.count)
    }

    /// Files that cannot be written (here: their directory does not exist) do not stop the others, and
    /// the error names the first of them in the list's order, with any number of writers.
    @Test(arguments: [1, 2, 4])
    func theFirstFailureInListOrderIsThrownAndTheOthersAreWritten(writers: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = tables()[2]
        let paths = (0..<8).map { index in
            index == 3 || index == 6
                ? directory.appendingPathComponent("missing/\(index).csv").path
                : directory.appendingPathComponent("\(index).csv").path
        }
        let files = paths.map { TableFile(path: $0, table: table, writer: CSVWriter()) }
        #expect {
            try TableFiles.write(files, writers: writers)
        } throws: { error in
            (error as? TableFileError)?.path == paths[3]
        }
        for (index, path) in paths.enumerated() where index != 3 && index != 6 {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == CSVWriter().render(table))
        }
    }
    /// A path written through (here a link to `/dev/full`, then a FIFO no one reads) makes the files go
    /// one after another, and the first failure stops the rest: the FIFO, which would wait for a reader
    /// for ever, is never opened, and the error names the file that failed.
    @Test(.timeLimit(.minutes(1)))
    func afterAFailureNothingMoreIsOpenedWhenAPathIsWrittenThrough() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = directory.appendingPathComponent("violations.csv").path
        let fifo = directory.appendingPathComponent("summary.csv").path
        let regular = directory.appendingPathComponent("haptics.csv").path
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
        #expect(mkfifo(fifo, 0o600) == 0)
        let table = tables()[3]
        let files = [full, fifo, regular].map { TableFile(path: $0, table: table, writer: CSVWriter()) }
        #expect {
            try TableFiles.write(files)
        } throws: { error in
            (error as? TableFileError)?.path == full
        }
        #expect(!FileManager.default.fileExists(atPath: regular))
    }
}
