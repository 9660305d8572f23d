import Foundation
import Testing

/// `import -o DIR`: the files written, read back by `analyze DIR` in path order, hold a device's events
/// in the order `import` read them, so that the results equal `analyze --from` on the export (SPEC §7,
/// and §2: a device's results depend on the order of its own events).
@Suite struct ImportIntoDirectoryTests {
    /// A launch and a rating prompt five seconds after it, then a second prompt two minutes later, in a
    /// later upload of the same device: two violations when read in upload order, none when the later
    /// upload is read first (its prompt has no launch before it, and the launch then comes too late).
    static let firstUpload = """
        {"uuid":"o1","event":"Application Opened","timestamp":"2026-11-20T10:00:00Z","properties":{"$session_id":"S1","$device_id":"dev1","$app_version":"1.0","from_background":false}}
        {"uuid":"r1","event":"hig.rating.prompt","timestamp":"2026-11-20T10:00:05Z","properties":{"$session_id":"S1","$device_id":"dev1","$app_version":"1.0"}}

        """
    static let laterUpload = """
        {"uuid":"r2","event":"hig.rating.prompt","timestamp":"2026-11-20T10:02:00Z","properties":{"$session_id":"S1","$device_id":"dev1","$app_version":"1.0"}}

        """

    private func write(_ text: String, at path: URL) throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: path, atomically: true, encoding: .utf8)
    }

    /// Every file below `directory`, as paths below it, in byte order.
    private func files(below directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The violations table without its `source` column, which names the export's lines on one side.
    private func violations(_ arguments: [String]) throws -> [String] {
        let result = try HigAuditBinary.run(["analyze"] + arguments + ["--table", "violations", "--format", "csv", "-q"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") }
    }

    /// Uploads in folders by day, the later one's file named so that it sorts first on its own: the
    /// output keeps the folders, and reads in the export's order.
    @Test(arguments: [("part-0.jsonl", "part-0.jsonl"), ("uploads-zz.jsonl", "uploads-aa.jsonl.gz")])
    func aFolderOfUploadsKeepsItsPathsAndItsOrder(names: (first: String, later: String)) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export")
        try write(Self.firstUpload, at: export.appendingPathComponent("2026-11-20/\(names.first)"))
        let later = export.appendingPathComponent("2026-11-21/\(names.later)")
        if names.later.hasSuffix(".gz") {
            let plain = directory.appendingPathComponent("later.jsonl")
            try write(Self.laterUpload, at: plain)
            try FileManager.default.createDirectory(at: later.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try HigAuditBinary.shell(["sh", "-c", "gzip -c '\(plain.path)' > '\(later.path)'"])
        } else {
            try write(Self.laterUpload, at: later)
        }
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let result = try HigAuditBinary.run(["import", "--from", "posthog", export.path, "-o", output.path, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = { (name: String) in String(name.prefix { $0 != "." }) }
        #expect(files(below: output) == ["2026-11-20/\(stem(names.first)).ndjson", "2026-11-21/\(stem(names.later)).ndjson"])
        let direct = try violations(["--from", "posthog", export.path])
        #expect(direct.count == 3, "\(direct)")
        #expect(try violations([output.path]) == direct)
    }

    /// Files named on the command line in another order than their names sort, one name twice: the
    /// output files are numbered in reading order.
    @Test func inputsNamedOutOfOrderAreNumberedInReadingOrder() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("b/upload.jsonl")
        let later = directory.appendingPathComponent("a/upload.jsonl")
        try write(Self.firstUpload, at: first)
        try write(Self.laterUpload, at: later)
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let result = try HigAuditBinary.run(["import", "--from", "posthog", first.path, later.path, "-o", output.path, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(files(below: output) == ["0001-upload.ndjson", "0002-upload.ndjson"])
        let direct = try violations(["--from", "posthog", first.path, later.path])
        #expect(direct.count == 3, "\(direct)")
        #expect(try violations([output.path]) == direct)
    }

    /// `--strict` with input skipped writes nothing: neither files nor the folders made for them, while
    /// a folder that was there before stays.
    @Test func aStrictImportThatStopsLeavesNoFolderOfItsOwn() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export")
        try write(Self.firstUpload, at: export.appendingPathComponent("2026-11-20/deep/part-0.jsonl"))
        try write(Self.laterUpload + "{not json\n", at: export.appendingPathComponent("2026-11-21/part-0.jsonl"))
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("2026-11-20"), withIntermediateDirectories: true)

        let result = try HigAuditBinary.run(["import", "--from", "posthog", "--strict", export.path, "-o", output.path, "-q"])
        #expect(result.status != 0 && result.stderr.contains("nothing written"), "\(result.stderr)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: output.path)
        #expect(left == ["2026-11-20"], "\(left)")
    }
}
