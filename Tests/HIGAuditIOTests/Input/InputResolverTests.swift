import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

@Suite struct InputResolverTests {
    @Test func directoriesExpandToLogFilesInLexicographicOrder() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["b.zst", "a/z.ndjson", "a/b/c.jsonl", "a.zst", "A.ZST", "notes.txt", "a/readme.md", ".zst", "c.zst.tmp"] {
            try InputFixtures.write([0x0A], named: name, in: root)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)

        let named = root.path
        let (sources, diagnostics) = InputResolver.resolve([named])
        #expect(diagnostics.isEmpty)
        // Byte order: "A" < "a", "." < "/", so "a.zst" before "a/…".
        #expect(sources.map(\.displayPath) == ["A.ZST", "a.zst", "a/b/c.jsonl", "a/z.ndjson", "b.zst"].map { named + "/" + $0 })

        let (withSlash, _) = InputResolver.resolve([named + "/"])
        #expect(withSlash.first?.displayPath == named + "/A.ZST")
    }

    /// A directory of exports reads its `.zst`, `.ndjson`, `.jsonl` and `.gz` files and names its
    /// `.json` files (files and links to files, at any depth) for the note that says they are not
    /// read; a directory of hig-audit's own logs names none, and no other file is named.
    @Test func aDirectoryOfExportsNamesItsJSONFiles() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["day-1.jsonl", "page-2.json", "sub/Page-1.JSON", "notes.txt", "day-2.jsonl.gz", "b/.json"] {
            try InputFixtures.write([0x0A], named: name, in: root)
        }
        try FileManager.default.createSymbolicLink(atPath: root.path + "/link.json", withDestinationPath: root.path + "/page-2.json")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/dangling.json", withDestinationPath: root.path + "/missing")
        var passedOver: [InputResolver.PassedOver] = []
        let (sources, diagnostics) = InputResolver.resolve(
            [root.path, root.path + "/page-2.json"], endings: InputResolver.exportExtensions, passedOver: &passedOver)
        #expect(diagnostics.isEmpty)
        // A `.json` file named as an argument is read.
        #expect(sources.map(\.displayPath) == ["day-1.jsonl", "day-2.jsonl.gz", "page-2.json"].map { root.path + "/" + $0 })
        #expect(passedOver == [InputResolver.PassedOver(
            directory: root.path, paths: ["link.json", "page-2.json", "sub/Page-1.JSON"].map { root.path + "/" + $0 })])

        var ownLogs: [InputResolver.PassedOver] = []
        _ = InputResolver.resolve([root.path], endings: InputResolver.logExtensions, passedOver: &ownLogs)
        #expect(ownLogs.isEmpty)
    }

    @Test func argumentsKeepTheirOrderAndAnyExtension() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try InputFixtures.write([0x0A], named: "upload.bin", in: root)
        let log = try InputFixtures.write([0x0A], named: "d/x.zst", in: root)
        let (sources, diagnostics) = InputResolver.resolve([text, "-", root.path + "/d"])
        #expect(diagnostics.isEmpty)
        #expect(sources.map(\.displayPath) == [text, "-", log])
        #expect(sources[1] == .standardInput)
        #expect(sources[0].filePath == text)
    }

    @Test func missingPathsAndDirectoriesWithoutLogsBecomeDiagnostics() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try InputFixtures.write([0x0A], named: "notes.txt", in: root)
        let missing = root.path + "/missing.zst"
        let (sources, diagnostics) = InputResolver.resolve([missing, root.path])
        #expect(sources.isEmpty)
        #expect(diagnostics.map(\.category) == [.unreadableFile, .emptyFile])
        #expect(diagnostics.map(\.location) == [missing, root.path])
    }

    @Test func linksToDirectoriesAreNotFollowed() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try InputFixtures.write([0x0A], named: "logs/a.zst", in: root)
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/logs/loop", withDestinationPath: root.path + "/logs")
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/logs/link.zst", withDestinationPath: root.path + "/logs/a.zst")
        let (sources, diagnostics) = InputResolver.resolve([root.path + "/logs"])
        #expect(diagnostics.isEmpty)
        #expect(sources.map(\.displayPath) == [root.path + "/logs/a.zst", root.path + "/logs/link.zst"])
    }

    /// Opening a FIFO blocks until a writer comes and `/dev/zero` never ends: a directory scan that
    /// took them hung `analyze` and `nightly` for ever.
    @Test func fifosAndDevicesInsideADirectoryAreSkippedWithALocatedWarning() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let log = try InputFixtures.write([0x0A], named: "d/b.zst", in: root)
        let fifo = root.path + "/d/a.ndjson.zst"
        #expect(mkfifo(fifo, 0o600) == 0)
        let device = root.path + "/d/z.zst"
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/zero")
        let dangling = root.path + "/d/gone.zst"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: root.path + "/nowhere.zst")

        let (sources, diagnostics) = InputResolver.resolve([root.path + "/d"])
        #expect(sources.map(\.displayPath) == [log])
        #expect(diagnostics.map(\.category) == [.unreadableFile, .unreadableFile, .unreadableFile])
        #expect(Set(diagnostics.map(\.location)) == [fifo, device, dangling])
        #expect(diagnostics.contains { $0.location == fifo && $0.message.contains("a FIFO") })
        #expect(diagnostics.contains { $0.location == device && $0.message.contains("a character device") })
    }

    /// A log gzipped by an uploader was left out of the run without a word: it is skipped input now,
    /// said where and why, folder by folder in name order; other files that are not logs still pass
    /// quietly.
    @Test func logsInAContainerTheReaderDoesNotReadAreSkippedWithAReason() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in [
            "b.ndjson.gz", "a.jsonl.XZ", "c.ndjson.zstd", "d.ndjson.bz2", "up/e.ndjson.lz4", "up/f.zst",
            "notes.txt.gz", "archive.tar.gz", ".ndjson.gz", "manifest.json", "manifest.json.gz", "g.ndjson",
            "sub/h.zst",
        ] {
            try InputFixtures.write([0x0A], named: name, in: root)
        }
        // Links judged by what they point to: a log's, a directory's, nothing's.
        try FileManager.default.createSymbolicLink(atPath: root.path + "/up/l.ndjson.gz", withDestinationPath: root.path + "/b.ndjson.gz")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/up/m.jsonl.xz", withDestinationPath: root.path + "/sub")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/up/n.ndjson.bz2", withDestinationPath: root.path + "/nowhere")
        let (sources, diagnostics) = InputResolver.resolve([root.path])
        #expect(sources.map(\.displayPath) == ["g.ndjson", "sub/h.zst", "up/f.zst"].map { root.path + "/" + $0 })
        #expect(diagnostics.map(\.category) == Array(repeating: .unreadableFile, count: 6))
        #expect(diagnostics.map(\.location) == ["a.jsonl.XZ", "b.ndjson.gz", "c.ndjson.zstd", "d.ndjson.bz2", "up/e.ndjson.lz4", "up/l.ndjson.gz"]
            .map { root.path + "/" + $0 })
        #expect(diagnostics[0].message.contains("compressed with xz"))
        #expect(diagnostics[1].message.contains("compressed with gzip, which hig-audit does not read"))
        #expect(diagnostics[2].message.contains("rename it to .zst"))
        #expect(InputResolver.unreadLogReason("x.ndjson") == nil)
    }

    /// A log whose name is not UTF-8 was listed under its repaired name (U+FFFD for the bad byte), and
    /// opening that name failed with "No such file or directory" as if the file had gone. It is skipped
    /// input now with the real reason, and so is a folder of that kind, whose logs would be lost too;
    /// other files with such names pass quietly, as other files that are not logs do.
    @Test func namesThatAreNotUTF8AreSkippedWithTheirReason() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let log = try InputFixtures.write([0x0A], named: "good.zst", in: root)
        func rawPath(_ name: [UInt8]) -> [CChar] {
            (Array(root.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
        }
        let badLog = Array("bad".utf8) + [0xFF] + Array(".ndjson.zst".utf8)
        let badNotes = Array("notes".utf8) + [0xFE] + Array(".txt".utf8)
        let badFolder = Array("up".utf8) + [0xC3]
        for name in [badLog, badNotes] {
            let fd = open(rawPath(name), O_CREAT | O_WRONLY, 0o600)
            #expect(fd >= 0)
            close(fd)
        }
        #expect(mkdir(rawPath(badFolder), 0o700) == 0)
        let inside = open(rawPath(badFolder + Array("/x.zst".utf8)), O_CREAT | O_WRONLY, 0o600)
        #expect(inside >= 0)
        close(inside)

        let (sources, diagnostics) = InputResolver.resolve([root.path])
        #expect(sources.map(\.displayPath) == [log])
        #expect(diagnostics.map(\.category) == [.unreadableFile, .unreadableFile])
        #expect(diagnostics.map(\.location) == ["bad\u{FFFD}.ndjson.zst", "up\u{FFFD}"].map { root.path + "/" + $0 })
        #expect(diagnostics.allSatisfy { $0.message.contains("not valid UTF-8") })
    }

    @Test func aFifoNamedExplicitlyIsStillRead() throws {
        let root = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.path + "/upload.zst"
        #expect(mkfifo(fifo, 0o600) == 0)
        let (sources, diagnostics) = InputResolver.resolve([fifo, "-"])
        #expect(diagnostics.isEmpty)
        #expect(sources == [InputSource(path: fifo), .standardInput])
    }
}
