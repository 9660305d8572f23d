import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// SPEC §5 "nothing counted twice, nothing lost": files are known by content; grown files are read
/// from where they stopped; incomplete tails wait for a later run.
@Suite struct IncrementalInputTests {
    let directory: URL
    let storePath: String

    init() throws {
        directory = try LogFixtures.temporaryDirectory()
        storePath = directory.appendingPathComponent("store.sqlite").path
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func violationCount() throws -> Int {
        try ResultsStore(readingAt: storePath).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM violations") ?? 0 }
    }

    @Test func sha256MatchesTheStandardVectors() {
        var empty = SHA256()
        #expect(empty.finalized().hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var abc = SHA256()
        abc.update(Array("abc".utf8))
        #expect(abc.finalized().hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var long = SHA256()
        let text = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        long.update(Array(text[0..<10]))
        #expect(long.finalized().hex != abc.finalized().hex)
        long.update(Array(text[10...]))
        #expect(long.finalized().hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        empty.update([UInt8](repeating: 0x61, count: 1_000_000))
        #expect(empty.finalized().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aRerunCountsNothingAgainAndRenamedOrCopiedFilesAreSkipped() throws {
        let lines = LogFixtures.stream(seed: 7)
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 3), in: directory)
        try nightly(storePath, paths)
        let before = try storeTables(storePath)
        let violations = try violationCount()

        let (again, _) = try nightly(storePath, paths)
        #expect(again.filesRead == 0)
        #expect(again.filesSkipped == 3)
        #expect(again.statistics.events == 0)

        try FileManager.default.moveItem(atPath: paths[0], toPath: path("renamed.zst"))
        try FileManager.default.copyItem(atPath: paths[1], toPath: path("copy.zst"))
        let (moved, diagnostics) = try nightly(storePath, [path("renamed.zst"), path("copy.zst"), paths[1], paths[2]])
        #expect(moved.filesRead == 0)
        #expect(moved.filesSkipped == 4)
        #expect(diagnostics.isEmpty)
        #expect(try violationCount() == violations)
        #expect(try storeTables(storePath) == before)
    }

    /// A new file longer than the head is decided from its first 4 KiB and hashed as it is read: the
    /// store must hold the same size and digests as a separate pass over the file gives, so that the
    /// file, a copy of it and the file once grown are recognised afterwards.
    @Test(arguments: [false, true])
    func aNewFileHashedWhileReadIsKnownByItsWholeContent(compressed: Bool) throws {
        let lines = LogFixtures.stream(seed: 12)
        let text = LogFixtures.text(lines)
        let bytes = compressed ? try LogFixtures.zstd(text) : Data(text.utf8)
        #expect(bytes.count > 3 * FileIdentity.headBytes)
        let file = path(compressed ? "upload.zst" : "upload.ndjson")
        try bytes.write(to: URL(fileURLWithPath: file))
        let (first, _) = try nightly(storePath, [file])
        #expect(first.filesRead == 1)

        var whole = SHA256()
        bytes.withUnsafeBytes { whole.update($0) }
        var head = SHA256()
        bytes.prefix(FileIdentity.headBytes).withUnsafeBytes { head.update($0) }
        let row = try ResultsStore(readingAt: storePath).read {
            try Row.fetchOne($0, sql: "SELECT size, content_sha256, head_length, head_sha256 FROM input_files")
        }
        #expect(row?["size"] == Int64(bytes.count))
        #expect(row?["content_sha256"] == whole.finalized().hex)
        #expect(row?["head_length"] == FileIdentity.headBytes)
        #expect(row?["head_sha256"] == head.finalized().hex)

        try bytes.write(to: URL(fileURLWithPath: path("copy")))
        let (again, diagnostics) = try nightly(storePath, [file, path("copy")])
        #expect(again.filesRead == 0)
        #expect(again.filesSkipped == 2)
        #expect(diagnostics.isEmpty)
    }

    @Test func aGrownFileHasOnlyItsNewPartRead() throws {
        let lines = LogFixtures.stream(seed: 8)
        let halves = LogFixtures.chunks(lines, count: 2)
        let grown = path("upload.zst")
        try LogFixtures.zstd(LogFixtures.text(halves[0])).write(to: URL(fileURLWithPath: grown))
        let (first, _) = try nightly(storePath, [grown])
        #expect(first.statistics.lines == Int64(halves[0].count))

        // The upload appends a frame.
        var data = try Data(contentsOf: URL(fileURLWithPath: grown))
        data.append(try LogFixtures.zstd(LogFixtures.text(halves[1])))
        try data.write(to: URL(fileURLWithPath: grown))
        let (second, _) = try nightly(storePath, [grown], closeOpen: true)
        #expect(second.filesRead == 1)
        #expect(second.statistics.lines == Int64(halves[1].count))
        #expect(second.statistics.frames == 1)

        #expect(try storeTables(storePath) == (try analyzeTables([grown], StoreTestConfiguration.standard)))
    }

    /// A file's row says where it was counted to and which runs counted it, and a small file's lead
    /// (the digest of its first 64 bytes) is kept beside its head. A new file's rows are written when
    /// the file is concluded, with the id it was given in input order, whichever thread read it and
    /// however far ahead the next files were examined.
    @Test(arguments: [1, 3])
    func fileRowsSayWhichRunsCountedThem(jobs: Int) throws {
        let parts = LogFixtures.chunks(LogFixtures.stream(seed: 12), count: 4)
        let (a, b, c) = (path("a.zst"), path("b.zst"), path("c.zst"))
        try LogFixtures.zstd(LogFixtures.text(parts[0])).write(to: URL(fileURLWithPath: a))
        try LogFixtures.zstd(LogFixtures.text(parts[1])).write(to: URL(fileURLWithPath: b))
        func night(_ paths: [String]) throws {
            let run = NightlyRun(
                store: try ResultsStore(writingAt: storePath), configuration: StoreTestConfiguration.standard,
                reader: try InputReader(), closeOpen: false, onDiagnostic: { _ in })
            run.jobs = jobs
            _ = try run.run(paths.map { InputSource(path: $0) })
        }
        try night([a, b])
        // `a` grows, `b` is listed again, `c` is new and small (it has a lead).
        var grown = try Data(contentsOf: URL(fileURLWithPath: a))
        grown.append(try LogFixtures.zstd(LogFixtures.text(parts[2])))
        try grown.write(to: URL(fileURLWithPath: a))
        let small = Array(parts[3].prefix(3))
        try LogFixtures.zstd(LogFixtures.text(small)).write(to: URL(fileURLWithPath: c))
        try night([a, b, c])

        func size(_ file: String) throws -> Int64 { Int64(try Data(contentsOf: URL(fileURLWithPath: file)).count) }
        struct FileRow: Equatable {
            var id: Int64, path: String, size: Int64, resumeStoredOffset: Int64, countedLines: Int64, firstRun: Int64, lastRun: Int64
        }
        let rows = try ResultsStore(readingAt: storePath).read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, display_path, size, resume_stored_offset, counted_lines, first_run, last_run
                FROM input_files ORDER BY id
                """).map { FileRow(id: $0[0], path: $0[1], size: $0[2], resumeStoredOffset: $0[3], countedLines: $0[4], firstRun: $0[5], lastRun: $0[6]) }
        }
        #expect(rows == [
            FileRow(id: 1, path: a, size: try size(a), resumeStoredOffset: try size(a),
                    countedLines: Int64(parts[0].count + parts[2].count), firstRun: 1, lastRun: 2),
            FileRow(id: 2, path: b, size: try size(b), resumeStoredOffset: try size(b),
                    countedLines: Int64(parts[1].count), firstRun: 1, lastRun: 1),
            FileRow(id: 3, path: c, size: try size(c), resumeStoredOffset: try size(c),
                    countedLines: Int64(small.count), firstRun: 2, lastRun: 2),
        ])

        // Only the small file has a lead, its own.
        let smallBytes = try Data(contentsOf: URL(fileURLWithPath: c))
        #expect(smallBytes.count > 64 && smallBytes.count < 4096)
        var hasher = SHA256()
        Array(smallBytes.prefix(64)).withUnsafeBytes { hasher.update($0) }
        let leads = try ResultsStore(readingAt: storePath).read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, lead_sha256 FROM input_files WHERE lead_sha256 IS NOT NULL
                """).map { (file: $0["id"] as Int64, lead: $0["lead_sha256"] as String) }
        }
        #expect(leads.count == 1)
        #expect(leads.contains { $0.file == 3 && $0.lead == hasher.finalized().hex })
    }

    @Test func anUnterminatedLastLineWaitsUntilItIsComplete() throws {
        let lines = LogFixtures.stream(seed: 9, sessions: 10)
        let file = path("live.ndjson")
        let cut = lines.count / 2
        // The writer stopped in the middle of a line.
        let partial = LogFixtures.text(Array(lines[..<cut])) + String(lines[cut].prefix(20))
        try Data(partial.utf8).write(to: URL(fileURLWithPath: file))
        let (first, diagnostics) = try nightly(storePath, [file])
        #expect(first.tailsHeldBack == 1)
        // Only the fixture's own malformed line (a third of the way in), not the cut one.
        #expect(first.statistics.malformedLines == 1)
        #expect(!diagnostics.contains { $0.location.hasSuffix(":\(cut + 1)") })

        try Data(LogFixtures.text(lines).utf8).write(to: URL(fileURLWithPath: file))
        let (second, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(second.tailsHeldBack == 0)
        #expect(second.statistics.malformedLines == 0)
        // The held line is counted by the run that reads it again, not by both.
        #expect(first.statistics.lines + second.statistics.lines == Int64(lines.count))
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    /// Long lines, and a long unterminated last line, which passes through the buffer that holds an
    /// unterminated line back (it starts at 4 KiB and grows): all reach the analysis whole.
    @Test func longLinesPassThroughTheHoldingBufferWhole() throws {
        var lines = LogFixtures.stream(seed: 12, sessions: 8).enumerated().map { index, line in
            guard index % 7 == 3, line.hasPrefix("{") else { return line }
            let padding = String(repeating: "x", count: index % 14 == 3 ? 70_000 : 4_000 + index)
            return #"{"pad":"\#(padding)","# + line.dropFirst()
        }
        let last = lines.removeLast()
        #expect(last.hasPrefix("{"))
        let file = path("long.ndjson")
        let tail = #"{"pad":"\#(String(repeating: "y", count: 90_000))","# + last.dropFirst()
        try Data((LogFixtures.text(lines) + tail).utf8).write(to: URL(fileURLWithPath: file))
        let (run, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(run.statistics.malformedLines == 1)  // the fixture's own
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    @Test func aTruncatedLastFrameIsReadAgainOnceComplete() throws {
        let lines = LogFixtures.stream(seed: 10, sessions: 12)
        let halves = LogFixtures.chunks(lines, count: 2)
        let first = try LogFixtures.zstd(LogFixtures.text(halves[0]))
        let second = try LogFixtures.zstd(LogFixtures.text(halves[1]))
        let file = path("upload.zst")
        try (first + second.prefix(second.count / 2)).write(to: URL(fileURLWithPath: file))
        let (run1, _) = try nightly(storePath, [file])
        #expect(run1.statistics.truncatedFiles == 1)

        try (first + second).write(to: URL(fileURLWithPath: file))
        let (run2, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(run2.statistics.truncatedFiles == 0)
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    /// Cut inside a frame of 1 KiB blocks, the file ends with whole blocks whose last complete line is
    /// followed by part of the next, which the reader drops. That line has its `\n`: it is counted now,
    /// whether the analysis took it ahead or the reader found its end, and the next run, which reads
    /// the frame again, drops it as already counted.
    @Test func theLastCompleteLineBeforeACutInsideAFrameIsCountedOnce() throws {
        let lines = LogFixtures.stream(seed: 13, sessions: 12)
        let frame = try LogFixtures.zstd(LogFixtures.text(lines), ["--zstd=wlog=10"])
        let file = path("upload.zst")
        try frame.prefix(frame.count / 2).write(to: URL(fileURLWithPath: file))
        let (run1, _) = try nightly(storePath, [file])
        #expect(run1.statistics.truncatedFiles == 1)
        #expect(run1.tailsHeldBack == 0)
        let counted = try ResultsStore(readingAt: storePath).read {
            try Int64.fetchOne($0, sql: "SELECT counted_lines FROM input_files") ?? -1
        }
        #expect(counted == run1.statistics.lines)
        #expect(counted > 10)

        try frame.write(to: URL(fileURLWithPath: file))
        let (run2, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(run2.statistics.lines == Int64(lines.count) - counted)
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    /// Lines `analyze` finds malformed in the file, cut lines included.
    func analyzeMalformedLines(_ file: String) throws -> Int64 {
        let run = AuditRun(configuration: StoreTestConfiguration.standard, reader: try InputReader(), onDiagnostic: { _ in })
        run.read(InputSource(path: file))
        _ = run.finish()
        return run.statistics.malformedLines
    }

    /// A line a corrupt frame cuts has no `\n`: it waits until the next frame's first line arrives, and is
    /// counted once, however the runs fall.
    @Test func aLineCutByACorruptFrameIsCountedOnceAsTheFileGrows() throws {
        let lines = LogFixtures.stream(seed: 14, sessions: 10)
        let a = lines.count / 4
        let b = 3 * lines.count / 4
        var corrupt = try LogFixtures.zstd("lost\nlost\n")
        corrupt[corrupt.startIndex + 6] |= 0x06  // a reserved block type
        let head = try LogFixtures.zstd(LogFixtures.text(Array(lines[..<a])) + String(lines[a].prefix(15)))
        let middle = try LogFixtures.zstd(LogFixtures.text(Array(lines[(a + 1)..<b])))
        let tail = try LogFixtures.zstd(LogFixtures.text(Array(lines[b...])))
        let file = path("cut.zst")
        try (head + corrupt + middle).write(to: URL(fileURLWithPath: file))
        let (run1, _) = try nightly(storePath, [file])
        #expect(run1.tailsHeldBack == 0)
        #expect(run1.statistics.faults == 1)

        try (head + corrupt + middle + tail).write(to: URL(fileURLWithPath: file))
        let (run2, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(run1.statistics.malformedLines + run2.statistics.malformedLines == (try analyzeMalformedLines(file)))
        #expect(try analyzeMalformedLines(file) == 2)  // the fixture's own and the cut line
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    /// Garbage after the last frame cuts the line that frame ended in: it is held back (the file may
    /// still be growing), and counted once, by the run that ends the input.
    @Test func aLineCutByTrailingGarbageWaitsAndIsCountedOnce() throws {
        let lines = LogFixtures.stream(seed: 15, sessions: 8)
        let a = lines.count / 2
        let frame = try LogFixtures.zstd(LogFixtures.text(Array(lines[..<a])) + String(lines[a].prefix(15)))
        let file = path("garbage.zst")
        try (frame + Data("not a frame at all".utf8)).write(to: URL(fileURLWithPath: file))
        let (run1, _) = try nightly(storePath, [file])
        #expect(run1.tailsHeldBack == 1)
        let (run2, _) = try nightly(storePath, [file], closeOpen: true)
        #expect(run1.statistics.malformedLines + run2.statistics.malformedLines == (try analyzeMalformedLines(file)))
        #expect(run1.statistics.lines + run2.statistics.lines == Int64(a + 1))
        #expect(try storeTables(storePath) == (try analyzeTables([file], StoreTestConfiguration.standard)))
    }

    @Test func aFileWhoseBeginningChangedIsReportedNotCounted() throws {
        let file = path("night.ndjson")
        let lines = LogFixtures.stream(seed: 11, sessions: 5)
        try Data(LogFixtures.text(lines).utf8).write(to: URL(fileURLWithPath: file))
        try nightly(storePath, [file])
        let violations = try violationCount()

        let other = LogFixtures.stream(seed: 12, sessions: 5)
        try Data(LogFixtures.text(other).utf8).write(to: URL(fileURLWithPath: file))
        let (outcome, diagnostics) = try nightly(storePath, [file])
        #expect(outcome.filesChanged == 1)
        #expect(outcome.filesRead == 0)
        #expect(outcome.skippedInput)
        #expect(diagnostics.contains { $0.category == .changedFile && $0.location == file })
        #expect(try violationCount() == violations)

        // The same bytes under a new name are new data.
        try FileManager.default.moveItem(atPath: file, toPath: path("night-2.ndjson"))
        let (renamed, _) = try nightly(storePath, [path("night-2.ndjson")])
        #expect(renamed.filesRead == 1)
    }

    @Test func aSmallFileIsNotTakenForTheBeginningOfAnother() throws {
        let small = path("a.ndjson")
        let line = #"{"ts":1795000000000,"session":"a","type":"touch","phase":"began"}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: small))
        try nightly(storePath, [small])
        // Another file that starts with the same line, then more: the first file grown, content-wise.
        let bigger = path("b.ndjson")
        try Data((line + "\n" + line.replacingOccurrences(of: "began", with: "ended") + "\n").utf8)
            .write(to: URL(fileURLWithPath: bigger))
        let (outcome, _) = try nightly(storePath, [bigger])
        #expect(outcome.filesRead == 1)
        #expect(outcome.statistics.lines == 1)
        // An empty file is never a record.
        let empty = path("empty.ndjson")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let (none, _) = try nightly(storePath, [empty])
        #expect(none.filesRead == 0 && none.filesSkipped == 0)
    }

    /// Files counted by an earlier version have no lead (`input_files.lead_sha256`): a file that begins with
    /// one is still found, by the head alone, and the file gets its lead once it is read again.
    @Test func aFileCountedWithoutALeadIsStillFoundByItsHead() throws {
        // Small enough that the grown file's head is all of it, and so has a lead.
        let lines = Array(LogFixtures.stream(seed: 21, sessions: 3).prefix(16))
        let halves = LogFixtures.chunks(lines, count: 2)
        #expect(LogFixtures.text(lines).utf8.count < FileIdentity.headBytes)
        let upload = path("upload.ndjson")
        try Data(LogFixtures.text(halves[0]).utf8).write(to: URL(fileURLWithPath: upload))
        try nightly(storePath, [upload])
        let headLength = try ResultsStore(readingAt: storePath).read { try Int.fetchOne($0, sql: "SELECT head_length FROM input_files") }
        #expect(headLength.map { $0 > FileIdentity.leadBytes } == true)
        func leads() throws -> Int? {
            try ResultsStore(readingAt: storePath).read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM input_files WHERE lead_sha256 IS NOT NULL")
            }
        }
        #expect(try leads() == 1)
        // Listed again, the file gets its lead back.
        try DatabaseQueue(path: storePath).write { try $0.execute(sql: "UPDATE input_files SET lead_sha256 = NULL") }
        let (again, _) = try nightly(storePath, [upload])
        #expect(again.filesRead == 0 && again.filesSkipped == 1)
        #expect(try leads() == 1)
        try DatabaseQueue(path: storePath).write { try $0.execute(sql: "UPDATE input_files SET lead_sha256 = NULL") }

        // The upload grew, and arrives under another name.
        let grown = path("upload-2.ndjson")
        try Data(LogFixtures.text(halves[0] + halves[1]).utf8).write(to: URL(fileURLWithPath: grown))
        let (second, _) = try nightly(storePath, [grown], closeOpen: true)
        #expect(second.filesRead == 1)
        #expect(second.statistics.lines == Int64(halves[1].count))
        #expect(try leads() == 1)
        #expect(try storeTables(storePath) == (try analyzeTables([grown], StoreTestConfiguration.standard)))

        // Found by its lead now: a copy is already counted.
        try FileManager.default.copyItem(atPath: grown, toPath: path("upload-3.ndjson"))
        let (third, _) = try nightly(storePath, [path("upload-3.ndjson")], closeOpen: true)
        #expect(third.filesRead == 0 && third.filesSkipped == 1)
    }
}
