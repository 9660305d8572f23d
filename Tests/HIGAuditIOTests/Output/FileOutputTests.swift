import Foundation
import Testing
@testable import HIGAuditIO

@Suite struct FileOutputTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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
}
