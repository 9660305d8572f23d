import CZstd
import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// Faults (SPEC §5): each is reported with file, frame and byte offset, and reading goes on.
@Suite struct InputReaderFaultTests {
    static let linesA = InputFixtures.sampleLines(400, seed: 1)
    static let linesB = InputFixtures.sampleLines(400, seed: 2)
    static let linesC = InputFixtures.sampleLines(400, seed: 3)

    /// Three frames of stream-compressed NDJSON (header: magic, descriptor, window byte).
    static func threeFrames() throws -> (a: [UInt8], b: [UInt8], c: [UInt8]) {
        (try InputFixtures.frame(InputFixtures.ndjson(linesA)),
         try InputFixtures.frame(InputFixtures.ndjson(linesB)),
         try InputFixtures.frame(InputFixtures.ndjson(linesC)))
    }

    @Test func corruptBlockContentSkipsToTheNextFrame() throws {
        let (a, b, c) = try Self.threeFrames()
        var corrupt = b
        #expect(corrupt[6] >> 1 & 3 == 2, "the first block is compressed")
        for offset in stride(from: 20, to: min(corrupt.count - 8, 400), by: 7) { corrupt[offset] ^= 0x5A }
        let result = try InputFixtures.read(bytes: a + corrupt + c)

        let reports = result.diagnostics(.corruptFrame)
        #expect(reports.count == 1)
        #expect(reports.first?.location == "input.zst@\(a.count)")
        #expect(reports.first?.message.hasPrefix("frame 2:") == true)
        #expect(reports.first?.message.contains("detected by byte") == true)
        #expect(result.diagnostics.count == 1)
        #expect(Array(result.sink.texts.prefix(Self.linesA.count)) == Self.linesA)
        #expect(Array(result.sink.texts.suffix(Self.linesC.count)) == Self.linesC)
        #expect(result.statistics.frames == 2)
        #expect(result.statistics.faults == 1)
        #expect(result.statistics.skippedBytes == Int64(corrupt.count))
        #expect(result.summary.resumePoint.storedOffset == Int64(a.count + b.count + c.count))
    }

    @Test func brokenBlockStructureScansForTheNextMagicNumber() throws {
        let (a, b, c) = try Self.threeFrames()
        var corrupt = b
        corrupt[6] |= 0x06  // reserved block type
        let result = try InputFixtures.read(bytes: a + corrupt + c)
        #expect(result.diagnostics.map(\.category) == [.corruptFrame])
        #expect(result.diagnostics.first?.location == "input.zst@\(a.count)")
        #expect(result.sink.texts == Self.linesA + Self.linesC)
        #expect(result.sink.numbers == (1...Int64(Self.linesA.count + Self.linesC.count)).map { $0 })
        #expect(result.statistics.skippedBytes == Int64(corrupt.count))
        #expect(result.statistics.faults == 1)
        #expect(result.statistics.frames == 2)
    }

    @Test func aCorruptFrameCutsTheLineItFallsIn() throws {
        var corrupt = try InputFixtures.frame("lost\nlost")
        corrupt[6] |= 0x06
        let file = try InputFixtures.frame("a\nbc") + corrupt + InputFixtures.frame("de\nf\n")
        let result = try InputFixtures.read(bytes: file)
        #expect(result.sink.texts == ["a", "bc", "de", "f"])
        #expect(result.sink.numbers == [1, 2, 3, 4])
        #expect(result.diagnostics.map(\.category) == [.corruptFrame])
    }

    @Test func aCorruptFrameHeaderIsSkipped() throws {
        var corrupt = try InputFixtures.frame("lost\n")
        corrupt[4] |= 0x08  // reserved bit of the frame header descriptor
        let file = try InputFixtures.frame("a\n") + corrupt + InputFixtures.frame("b\n")
        let result = try InputFixtures.read(bytes: file)
        #expect(result.sink.texts == ["a", "b"])
        #expect(result.diagnostics.map(\.category) == [.corruptFrame])
        #expect(result.statistics.skippedBytes == Int64(corrupt.count))
    }

    @Test func aWideWindowFrameIsRefusedUnlessTheLimitIsRaised() throws {
        let wide = try InputFixtures.frame(InputFixtures.ndjson(Self.linesB), ["--zstd=wlog=28"])
        #expect(wide[5] == (28 - 10) << 3, "window descriptor says 2^28")
        let a = try InputFixtures.frame(InputFixtures.ndjson(Self.linesA))
        let c = try InputFixtures.frame(InputFixtures.ndjson(Self.linesC))

        let refused = try InputFixtures.read(bytes: a + wide + c)
        #expect(refused.diagnostics.map(\.category) == [.refusedFrame])
        #expect(refused.diagnostics.first?.location == "input.zst@\(a.count)")
        #expect(refused.diagnostics.first?.message.contains("2^27") == true)
        #expect(refused.sink.texts == Self.linesA + Self.linesC)
        #expect(refused.statistics.faults == 1)
        #expect(refused.statistics.skippedBytes == Int64(wide.count))

        let accepted = try InputFixtures.read(bytes: a + wide + c, options: ReaderOptions(maxWindowLog: 28))
        #expect(accepted.diagnostics.isEmpty)
        #expect(accepted.sink.texts == Self.linesA + Self.linesB + Self.linesC)
        #expect(accepted.statistics.frames == 3)
    }

    @Test func aDictionaryFrameNeedsItsDictionary() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var samples: [String] = []
        for index in 0..<400 {
            let lines = InputFixtures.sampleLines(4, seed: index)
            samples.append(try InputFixtures.write(Array(InputFixtures.ndjson(lines).utf8), named: "s/\(index)", in: directory))
        }
        let dictionaryPath = directory.appendingPathComponent("dict").path
        try InputFixtures.zstd(["--train", "--maxdict=4096", "-o", dictionaryPath] + samples)
        let dictionaryBytes = Array(try Data(contentsOf: URL(fileURLWithPath: dictionaryPath)))
        let id = dictionaryBytes.withUnsafeBytes { ZSTD_getDictID_fromDict($0.baseAddress, $0.count) }
        #expect(id != 0)

        let lines = InputFixtures.sampleLines(30, seed: 7)
        let file = try InputFixtures.frame("first\n")
            + InputFixtures.frame(InputFixtures.ndjson(lines), ["-D", dictionaryPath])
            + InputFixtures.frame("last\n")

        let without = try InputFixtures.read(bytes: file)
        #expect(without.diagnostics.map(\.category) == [.missingDictionary])
        #expect(without.diagnostics.first?.message.contains("needs dictionary \(id)") == true)
        #expect(without.sink.texts == ["first", "last"])
        #expect(without.statistics.faults == 1)

        let with = try InputFixtures.read(bytes: file, options: ReaderOptions(dictionaryFiles: [dictionaryPath]))
        #expect(with.diagnostics.isEmpty)
        #expect(with.sink.texts == ["first"] + lines + ["last"])
        #expect(try InputReader(options: ReaderOptions(dictionaryFiles: [dictionaryPath])).dictionaryIDs == [id])
    }

    @Test func unusableOptionsThrow() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notADictionary = try InputFixtures.write(Array("plain text".utf8), named: "d", in: directory)
        #expect(throws: InputReaderError.notADictionary(path: notADictionary)) {
            try InputReader(options: ReaderOptions(dictionaryFiles: [notADictionary]))
        }
        #expect(throws: InputReaderError.windowLogOutOfRange(40)) {
            try InputReader(options: ReaderOptions(maxWindowLog: 40))
        }
        #expect {
            try InputReader(options: ReaderOptions(dictionaryFiles: [directory.path + "/missing"]))
        } throws: { error in
            if case .unreadableDictionary? = error as? InputReaderError { return true }
            return false
        }
    }

    @Test func aTruncatedLastFrameKeepsWhatCameBefore() throws {
        let a = try InputFixtures.frame(InputFixtures.ndjson(Self.linesA))
        // Several blocks (more than 128 KiB), cut inside the second.
        let bigLines = InputFixtures.sampleLines(3000, seed: 5)
        let b = try InputFixtures.frame(InputFixtures.ndjson(bigLines), ["-1"])
        let firstBlockSize = Int(UInt32(b[6]) | UInt32(b[7]) << 8 | UInt32(b[8]) << 16) >> 3
        let cut = 6 + 3 + firstBlockSize + 3 + 10
        #expect(cut < b.count)
        let result = try InputFixtures.read(bytes: a + Array(b[0..<cut]))

        #expect(result.diagnostics.map(\.category) == [.truncatedFile])
        #expect(result.diagnostics.first?.location == "input.zst@\(a.count)")
        #expect(result.statistics.truncatedFiles == 1)
        #expect(result.statistics.faults == 0)
        #expect(result.summary.endedInTruncatedFrame)
        #expect(result.summary.endedInUnterminatedLine)
        let delivered = result.sink.texts
        #expect(delivered.count > Self.linesA.count, "complete lines of the decoded first block are kept")
        #expect(delivered == Array((Self.linesA + bigLines).prefix(delivered.count)))
        let deliveredBytes = delivered.reduce(Int64(0)) { $0 + Int64($1.utf8.count) + 1 }
        #expect(result.statistics.skippedBytes == result.statistics.decompressedBytes - deliveredBytes)
        #expect(result.statistics.skippedBytes > 0)
        #expect(result.summary.resumePoint == .init(
            storedOffset: Int64(a.count), decompressedOffset: Int64(InputFixtures.ndjson(Self.linesA).utf8.count),
            linesBefore: Int64(Self.linesA.count)))
        #expect(result.summary.completeFramesEnd == Int64(a.count))
    }

    @Test(arguments: [2, 5, 9])
    func aFileCutInsideAHeaderIsTruncated(keep: Int) throws {
        let a = try InputFixtures.frame("a\nb")
        let b = try InputFixtures.frame("c\n")
        let result = try InputFixtures.read(bytes: a + Array(b[0..<keep]))
        #expect(result.diagnostics.map(\.category) == [.truncatedFile])
        #expect(result.sink.texts == ["a"])
        #expect(result.statistics.skippedBytes == 1, "the partial line \"b\" is dropped")
        #expect(result.statistics.truncatedFiles == 1)
    }

    @Test func aCutSkippableFrameIsTruncated() throws {
        let file = try InputFixtures.frame("a\n") + Array(InputFixtures.skippableFrame(variant: 1, payload: [1, 2, 3, 4]).prefix(10))
        let result = try InputFixtures.read(bytes: file)
        #expect(result.diagnostics.map(\.category) == [.truncatedFile])
        #expect(result.sink.texts == ["a"])
    }

    @Test(arguments: ["garbage!!", "\n", "ab"])
    func trailingGarbageIsReportedAndCounted(text: String) throws {
        let a = try InputFixtures.frame("a\nb\n")
        let garbage = Array(text.utf8)
        let result = try InputFixtures.read(bytes: a + garbage)
        #expect(result.diagnostics.map(\.category) == [.trailingGarbage])
        #expect(result.diagnostics.first?.location == "input.zst@\(a.count)")
        #expect(result.diagnostics.first?.message.contains("\(garbage.count) bytes after the last frame") == true)
        #expect(result.sink.texts == ["a", "b"])
        #expect(result.statistics.skippedBytes == Int64(garbage.count))
        #expect(result.statistics.faults == 1)
        #expect(result.statistics.truncatedFiles == 0)
    }

    @Test func garbageBetweenFramesIsSkippedToTheNextFrame() throws {
        let a = try InputFixtures.frame("a\n")
        let b = try InputFixtures.frame("b\n")
        let garbage = Array("not a frame at all".utf8)
        let result = try InputFixtures.read(bytes: a + garbage + b, options: ReaderOptions(readChunkBytes: 5))
        #expect(result.diagnostics.map(\.category) == [.trailingGarbage])
        #expect(result.diagnostics.first?.message.contains("before the next frame") == true)
        #expect(result.sink.texts == ["a", "b"])
        #expect(result.statistics.skippedBytes == Int64(garbage.count))
        #expect(result.statistics.frames == 2)
    }

    @Test func anEmptyFileIsReported() throws {
        let result = try InputFixtures.read(bytes: [])
        #expect(result.diagnostics.map(\.category) == [.emptyFile])
        #expect(result.summary.format == .empty)
        #expect(result.statistics.files == 1)
        #expect(result.statistics.faults == 0)
    }

    @Test func aMissingFileIsReported() throws {
        let result = try InputFixtures.read(InputSource(path: "/nonexistent/hig-audit/log.zst"))
        #expect(result.diagnostics.map(\.category) == [.unreadableFile])
        #expect(result.diagnostics.first?.location == "/nonexistent/hig-audit/log.zst")
        #expect(result.summary.format == .unreadable)
        #expect(result.statistics.files == 0)
        #expect(result.statistics.faults == 1)
    }

    @Test(.enabled(if: getuid() != 0, "root can read a file without permissions"))
    func aFileWithoutReadPermissionIsReported() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try InputFixtures.write(Array("a\n".utf8), named: "locked.ndjson", in: directory)
        chmod(path, 0)
        let result = try InputFixtures.read(InputSource(path: path))
        #expect(result.diagnostics.map(\.category) == [.unreadableFile])
        #expect(result.statistics.faults == 1)
    }

    @Test func oneReaderGoesOnWithTheNextFileAfterFaults() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var corrupt = try InputFixtures.frame(InputFixtures.ndjson(Self.linesB))
        corrupt[30] ^= 0xFF
        let bad = try InputFixtures.write(Array(corrupt.prefix(corrupt.count - 5)), named: "bad.zst", in: directory)
        let good = try InputFixtures.write(try InputFixtures.frame("ok\n"), named: "good.zst", in: directory)
        let reader = try InputReader()
        _ = InputFixtures.read(InputSource(path: bad), with: reader)
        let result = InputFixtures.read(InputSource(path: good), with: reader)
        #expect(result.sink.texts == ["ok"])
        #expect(result.diagnostics.isEmpty)
    }
}
