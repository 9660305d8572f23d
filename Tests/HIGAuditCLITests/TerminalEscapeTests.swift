import Foundation
import Testing

/// Log data and file names never drive the terminal (issue 45.5): an escape sequence (`ESC c` resets
/// the terminal, `ESC ( 0` switches it to line-drawing characters), a carriage return or a line break
/// in a file name, session id or app version is written out wherever a message or a format echoes it,
/// and bidirectional overrides do not reach the dashboard.
@Suite struct TerminalEscapeTests {
    static let escape = "\u{1B}"

    static func hasRawControl(_ text: String, allowingLineBreaks: Bool = true) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && !(allowingLineBreaks && scalar == "\n")) || (0x7F..<0xA0).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    /// A log whose session ids, screens and app versions carry escapes, in a file whose name does too.
    static func hostileLog(in directory: URL) throws -> (folder: String, file: String) {
        let folder = directory.appendingPathComponent("uploads").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/dev\u{1B}c\nfake: error\u{1B}(0.ndjson"
        let lines = [
            #"{"ts":1000,"session":"s\u001bc-1","type":"session.start","app_version":"5.2\u001b(0\nx","screen":"canvas\u001b[2J\u202e"}"#,
            #"{"ts":1100,"session":"s\u001bc-1","type":"modal.present","modal":"p","style":"popover","screen":"canvas\u001b[2J\u202e"}"#,
            #"{"ts":1200,"session":"s\u001bc-1","type":"modal.present","modal":"s","style":"form_sheet"}"#,
            #"{"ts":1300,"session":"s\u001bc-2","type":"session.start","app_version":"5.2\u001b(0\nx"}"#,
            "not json \u{1B}[31m",
        ]
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        return (folder, file)
    }

    @Test func diagnosticsAndTheMalformedReportWriteOutEscapesInFileNames() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, _) = try Self.hostileLog(in: directory)
        let report = directory.appendingPathComponent("malformed.tsv").path
        let result = try HigAuditBinary.run(["analyze", folder, "--malformed-report", report, "--table", "summary"])
        #expect(result.status == 3)
        #expect(!Self.hasRawControl(result.stderr), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains(#"dev\u{1B}c\nfake: error\u{1B}(0.ndjson:5"#), "\(result.stderr)")
        let records = try String(contentsOfFile: report, encoding: .utf8)
        #expect(records.split(separator: "\n").count == 1, "\(records.debugDescription)")
        #expect(!Self.hasRawControl(records.replacingOccurrences(of: "\t", with: " ")))
    }

    @Test func markdownAndTablesWriteOutEscapesInCells() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, _) = try Self.hostileLog(in: directory)
        for format in ["markdown", "table"] {
            let result = try HigAuditBinary.run(["analyze", folder, "--table", "violations", "--format", format])
            #expect(result.stdout.contains("modal-over-popover"))
            #expect(!Self.hasRawControl(result.stdout), "\(format): \(result.stdout.debugDescription)")
            #expect(result.stdout.contains(#"\u{1B}"#), "\(format)")
        }
    }

    @Test func showListsAmbiguousSessionsWithEscapesWrittenOut() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, _) = try Self.hostileLog(in: directory)
        let result = try HigAuditBinary.run(["show", "--session", "s", folder])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("is ambiguous"))
        #expect(result.stderr.contains(#"s\u{1B}c-1"#), "\(result.stderr)")
        #expect(!Self.hasRawControl(result.stderr), "\(result.stderr.debugDescription)")
    }

    @Test func compareNamesTheStoresVersionsWithEscapesWrittenOut() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, _) = try Self.hostileLog(in: directory)
        let store = directory.appendingPathComponent("results.sqlite").path
        #expect(try HigAuditBinary.run(["nightly", "--store", store, "--close-open", folder]).status == 3)
        let result = try HigAuditBinary.run(["compare", "--store", store, "--base", "5.1", "--head", "5.2"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(#"5.2\u{1B}(0\nx"#), "\(result.stderr)")
        #expect(!Self.hasRawControl(result.stderr), "\(result.stderr.debugDescription)")
    }

    @Test func theDashboardShowsBidiOverridesAndControlsAsCodes() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, _) = try Self.hostileLog(in: directory)
        let page = directory.appendingPathComponent("page").path
        let result = try HigAuditBinary.run(["analyze", folder, "--dashboard", page, "--table", "summary"])
        #expect(result.status == 3, "\(result.stderr)")
        let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
        #expect(!html.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(html.contains(#"\u{202E}"#))
        // Control characters from the log too (ESC in an app version), but the page's own line ends.
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0.value) || (0x7F...0x9F).contains($0.value) },
                "\(html.unicodeScalars.filter { $0.value < 0x20 }.map(\.value))")
        #expect(html.contains(#"\u{1B}"#))
    }
}
