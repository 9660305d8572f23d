import Foundation
import Testing
@testable import HIGAuditDashboard

/// `--dashboard DIR` is checked before any work, and a path that cannot be written says why.
@Suite struct DashboardDirectoryTests {
    static func reason(_ path: String) -> String? {
        do {
            _ = try DashboardDirectory(checking: path)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aPathThatCannotBeWrittenSaysWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("log.ndjson").path
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: file))

        #expect(Self.reason(directory.appendingPathComponent("page").path) == nil)
        #expect(Self.reason(file) == "it is a file, not a directory")
        #expect(Self.reason(file + "/page") == "its parent \(file) is a file, not a directory")
        let missing = directory.appendingPathComponent("missing").path
        #expect(Self.reason(missing + "/page") == "its parent \(missing) does not exist")
    }
}
