import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// Line splitting: the same lines come out whatever the framing, chunking and line-ending style.
@Suite struct InputReaderLineTests {
    /// BOM, CRLF, blank lines and no final newline, in one file.
    static let awkward: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("first\r\n\nthird\r\n\r\n  \nlast".utf8)
    static let awkwardLines = ["first", "", "third", "", "  ", "last"]

    /// Chunk sizes down to one byte make every line, BOM and `\r\n` straddle a buffer boundary.
    static let chunkings: [(read: Int, decode: Int)] = [(1, 1), (2, 3), (3, 2), (7, 5), (4096, 4096), (128 << 10, 128 << 10)]

    static func options(_ chunking: (read: Int, decode: Int)) -> ReaderOptions {
        ReaderOptions(readChunkBytes: chunking.read, decodeChunkBytes: chunking.decode)
    }

    @Test(arguments: chunkings)
    func plainFileWithBOMCRLFBlankLinesAndNoFinalNewline(chunking: (read: Int, decode: Int)) throws {
        let result = try InputFixtures.read(bytes: Self.awkward, options: Self.options(chunking))
        #expect(result.sink.texts == Self.awkwardLines)
        #expect(result.sink.numbers == [1, 2, 3, 4, 5, 6])
        #expect(result.summary.format == .plain)
        #expect(result.summary.endedInUnterminatedLine)
        #expect(result.diagnostics.isEmpty)
        #expect(result.statistics.compressedBytes == Int64(Self.awkward.count))
        #expect(result.statistics.decompressedBytes == Int64(Self.awkward.count))
        #expect(result.statistics.lines == 6)
        #expect(result.statistics.frames == 0)
        #expect(result.statistics.files == 1)
    }

    @Test(arguments: chunkings)
    func zstdFrameSplitInsideBOMAndCRLF(chunking: (read: Int, decode: Int)) throws {
        // A frame per byte: every boundary, including inside the BOM and between `\r` and `\n`.
        var file: [UInt8] = []
        for byte in Self.awkward { file += try InputFixtures.frame([byte]) }
        let result = try InputFixtures.read(bytes: file, options: Self.options(chunking))
        #expect(result.sink.texts == Self.awkwardLines)
        #expect(result.summary.format == .zstd)
        #expect(result.statistics.frames == Self.awkward.count)
        #expect(result.statistics.decompressedBytes == Int64(Self.awkward.count))
        #expect(result.statistics.compressedBytes == Int64(file.count))
        #expect(result.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ["--check"], ["--no-check"], ["-19"], ["--no-check", "-1"],
    ])
    func singleFrameFromAStream(flags: [String]) throws {
        let lines = InputFixtures.sampleLines(2000)
        let frame = try InputFixtures.frame(InputFixtures.ndjson(lines), flags)
        let result = try InputFixtures.read(bytes: frame)
        #expect(result.sink.texts == lines)
        #expect(result.sink.numbers == (1...Int64(lines.count)).map { $0 })
        #expect(result.statistics.frames == 1)
        #expect(result.diagnostics.isEmpty)
        #expect(result.summary.endedInUnterminatedLine == false)
    }

    @Test(arguments: [["--content-size"], ["--no-content-size"], ["--no-check", "--content-size"]])
    func singleFrameFromAFile(flags: [String]) throws {
        let lines = InputFixtures.sampleLines(500)
        let frame = try InputFixtures.frame(InputFixtures.ndjson(lines), flags, fromFile: true)
        let result = try InputFixtures.read(bytes: frame)
        #expect(result.sink.texts == lines)
        #expect(result.statistics.frames == 1)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func manyFramesSplitMidLineWithEmptyFramesBetween() throws {
        let lines = InputFixtures.sampleLines(300)
        let content = Array(InputFixtures.ndjson(lines).utf8)
        // Cut at irregular places, mostly inside lines; put an empty frame after every third piece.
        var file: [UInt8] = []
        var cut = 0
        var dataFrames = 0
        var step = 1
        while cut < content.count {
            let next = min(content.count, cut + step * 97 % 5000 + 1)
            file += try InputFixtures.frame(Array(content[cut..<next]), step % 2 == 0 ? ["--no-check"] : [])
            dataFrames += 1
            if step % 3 == 0 {
                file += try InputFixtures.frame([UInt8]())
                dataFrames += 1
            }
            cut = next
            step += 1
        }
        let result = try InputFixtures.read(bytes: file, options: ReaderOptions(readChunkBytes: 1000, decodeChunkBytes: 700))
        #expect(result.sink.texts == lines)
        #expect(result.statistics.frames == dataFrames)
        #expect(result.statistics.decompressedBytes == Int64(content.count))
        #expect(result.diagnostics.isEmpty)
    }

    /// zstd decodes into a ring of the frame's window and blocks (`DecodingRing`), and lines are cut
    /// where they lie in it. With a 1 KiB window (1 KiB blocks) the ring is ~130 KiB: a frame of ~2 MB
    /// wraps it over a dozen times, lines cross hundreds of block ends and several wraps, long lines
    /// span many blocks, oversized ones stream by, CRLF endings fall anywhere, and a 5-byte read chunk
    /// makes every block arrive in pieces.
    @Test(arguments: [5, 4096, 128 << 10])
    func aFrameMuchLargerThanItsWindowWrapsTheRing(readChunk: Int) throws {
        var lines: [String] = []
        for index in 0..<4_000 {
            let width = index % 97 == 0 ? 12_500 + index : index % 89 == 0 ? 9_000 : (index * 53) % 400
            lines.append(#"{"n":\#(index),"f":"\#(String(repeating: "ab", count: width / 2))"}"#)
        }
        let content = Array(lines.enumerated().map { $0.element + ($0.offset % 5 == 0 ? "\r\n" : "\n") }.joined().utf8)
        let file = try InputFixtures.frame(content, ["--zstd=wlog=10"])
        let reader = try InputReader(options: ReaderOptions(maxLineBytes: 12_000, readChunkBytes: readChunk))
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try InputFixtures.write(file, named: "small-window.zst", in: directory)
        let result = InputFixtures.read(InputSource(path: path, displayPath: "small-window.zst"), with: reader)

        #expect(reader.ring.capacity < content.count / 10)
        let long = lines.indices.filter { lines[$0].utf8.count > 12_000 }
        #expect(!long.isEmpty)
        #expect(result.sink.oversized.map(\.number) == long.map { Int64($0 + 1) })
        #expect(result.sink.oversized.map(\.byteCount) == long.map { Int64(lines[$0].utf8.count) })
        let kept = lines.indices.filter { !long.contains($0) }
        #expect(result.sink.texts == kept.map { lines[$0] })
        #expect(result.sink.numbers == kept.map { Int64($0 + 1) })
        #expect(result.statistics.decompressedBytes == Int64(content.count))
        #expect(result.statistics.frames == 1)
        #expect(result.diagnostics.isEmpty)
    }

    /// A frame that states its content size gets a ring of exactly that size, and a single-segment
    /// frame's window is its whole content: its blocks must follow one another, never wrap back over
    /// the first (the checksum, or without one the lines, would show it).
    @Test func aMultiBlockFrameWithItsContentSizeIsNotWrapped() throws {
        // Random-looking lines, then the first ones again, backwards: the last block copies from the
        // first, the bytes a wrap would overwrite.
        var state: UInt64 = 5
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var lines = (0..<2_600).map { index in
            #"{"n":\#(index),"f":"\#(String((0..<(next() % 150)).map { _ in Character(UnicodeScalar(UInt8(97 + next() % 26))) }))"}"#
        }
        lines += lines.prefix(1_400).reversed()
        let content = Array(InputFixtures.ndjson(lines).utf8)
        #expect(content.count > 2 * ZstdFrameFormat.maximumBlockBytes)
        for flags in [["-19"], ["-3", "--no-check"]] {
            let file = try InputFixtures.frame(content, flags, fromFile: true)
            guard case .header(let header) = file.withUnsafeBytes({ ZstdFrameHeader.parse($0) })
            else { Issue.record("no frame header"); continue }
            #expect(header.contentSize == UInt64(content.count))
            let result = try InputFixtures.read(bytes: file)
            #expect(result.sink.texts == lines, "\(flags)")
            #expect(result.diagnostics.isEmpty, "\(flags)")
            #expect(result.statistics.frames == 1)
        }
    }

    @Test func aFramePerLine() throws {
        let lines = InputFixtures.sampleLines(50)
        var file: [UInt8] = []
        for line in lines { file += try InputFixtures.frame(line + "\n") }
        let result = try InputFixtures.read(bytes: file)
        #expect(result.sink.texts == lines)
        #expect(result.statistics.frames == 50)
    }

    @Test(arguments: 0..<16)
    func skippableFramesAnywhere(variant: Int) throws {
        let lines = InputFixtures.sampleLines(20)
        let content = Array(InputFixtures.ndjson(lines).utf8)
        let skippable = { (size: Int) in
            InputFixtures.skippableFrame(variant: UInt32(variant), payload: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        }
        // At the start, mid-line between data frames, twice in a row, empty, and at the end.
        let file = skippable(10)
            + (try InputFixtures.frame(Array(content[0..<333])))
            + skippable(0) + skippable(300_000)
            + (try InputFixtures.frame(Array(content[333...])))
            + skippable(5)
        let result = try InputFixtures.read(bytes: file, options: ReaderOptions(readChunkBytes: 4096))
        #expect(result.sink.texts == lines)
        #expect(result.statistics.frames == 2)
        #expect(result.summary.skippableFrames == 4)
        #expect(result.diagnostics.isEmpty)
        #expect(result.statistics.compressedBytes == Int64(file.count))
        #expect(result.summary.completeFramesEnd == Int64(file.count))
    }

    @Test func aFileOfOnlySkippableFramesIsZstdWithNoLines() throws {
        let file = InputFixtures.skippableFrame(variant: 15, payload: [1, 2, 3])
        let result = try InputFixtures.read(bytes: file)
        #expect(result.summary.format == .zstd)
        #expect(result.sink.lines.isEmpty)
        #expect(result.diagnostics.isEmpty)
    }

    @Test(arguments: [false, true])
    func lineOverOneMebibyteIsReportedNotHeld(compressed: Bool) throws {
        let long = String(repeating: "a", count: (1 << 20) + 5)
        let exact = String(repeating: "b", count: 1 << 20)
        let text = "before\n\(long)\r\nbetween\n\(exact)\nafter\n\(long)"
        let bytes = compressed ? try InputFixtures.frame(text) : Array(text.utf8)
        let result = try InputFixtures.read(bytes: bytes)
        #expect(result.sink.texts == ["before", "between", exact, "after"])
        #expect(result.sink.numbers == [1, 3, 4, 5])
        #expect(result.sink.oversized == [
            .init(number: 2, byteCount: Int64(long.utf8.count)), .init(number: 6, byteCount: Int64(long.utf8.count)),
        ])
        #expect(result.statistics.lines == 6)
    }

    @Test(arguments: InputReaderLineTests.chunkings)
    func oversizedLinesAcrossTinyChunks(chunking: (read: Int, decode: Int)) throws {
        var options = Self.options(chunking)
        options.maxLineBytes = 4
        let text = "abcd\nabcde\nabcd\r\nab\r\r\nabcdefgh\r\nxy"
        let result = try InputFixtures.read(bytes: try InputFixtures.frame(text), options: options)
        #expect(result.sink.texts == ["abcd", "abcd", "ab\r", "xy"])
        #expect(result.sink.numbers == [1, 3, 4, 6])
        #expect(result.sink.oversized == [.init(number: 2, byteCount: 5), .init(number: 5, byteCount: 8)])
    }

    @Test func invalidUTF8IsPassedThrough() throws {
        let bytes: [UInt8] = [0x7B, 0xFF, 0xFE, 0xC0, 0x7D, 0x0A, 0x00, 0x0A]
        let result = try InputFixtures.read(bytes: try InputFixtures.frame(bytes))
        #expect(result.sink.lines.map(\.bytes) == [[0x7B, 0xFF, 0xFE, 0xC0, 0x7D], [0x00]])
    }

    @Test func aByteOrderMarkAfterTheStartIsData() throws {
        let bytes: [UInt8] = Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8)
        let result = try InputFixtures.read(bytes: bytes)
        #expect(result.sink.lines.map(\.bytes) == [Array("a".utf8), [0xEF, 0xBB, 0xBF] + Array("b".utf8)])
    }

    @Test func standardInputThroughAPipe() throws {
        let lines = InputFixtures.sampleLines(3000)
        let compressed = try InputFixtures.frame(InputFixtures.ndjson(lines))
            + InputFixtures.skippableFrame(variant: 3, payload: [9])
            + (try InputFixtures.frame("tail"))
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let writeEnd = descriptors[1]
        let writer = Thread {
            compressed.withUnsafeBytes { bytes in
                var sent = 0
                while sent < bytes.count {
                    let written = write(writeEnd, bytes.baseAddress! + sent, min(1000, bytes.count - sent))
                    if written <= 0 { break }
                    sent += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        let result = try InputFixtures.read(InputSource(descriptor: descriptors[0], displayPath: "-"))
        close(descriptors[0])
        #expect(result.sink.texts == lines + ["tail"])
        #expect(result.summary.format == .zstd)
        #expect(result.summary.displayPath == "-")
        #expect(result.statistics.compressedBytes == Int64(compressed.count))
    }

    @Test func plainStandardInputThroughAPipe() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let text = Array("{\"a\":1}\n{\"b\":2}\n".utf8)
        _ = text.withUnsafeBytes { write(descriptors[1], $0.baseAddress!, $0.count) }
        close(descriptors[1])
        let result = try InputFixtures.read(InputSource(descriptor: descriptors[0], displayPath: "-"))
        close(descriptors[0])
        #expect(result.sink.texts == ["{\"a\":1}", "{\"b\":2}"])
        #expect(result.summary.format == .plain)
    }

    @Test func resumingAtTheLastResumePointReadsOnlyWhatWasAppended() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try InputFixtures.frame("one\ntwo\n") + InputFixtures.frame("thr")
        let path = try InputFixtures.write(first, named: "log.zst", in: directory)
        let reader = try InputReader()
        let before = InputFixtures.read(InputSource(path: path), with: reader)
        #expect(before.sink.texts == ["one", "two", "thr"])
        #expect(before.summary.endedInUnterminatedLine)
        // "thr" is unfinished: resume where the first frame ended, after line 2.
        #expect(before.summary.resumePoint == .init(storedOffset: Int64(first.count - (try InputFixtures.frame("thr")).count),
                                                     decompressedOffset: 8, linesBefore: 2))
        #expect(before.summary.completeFramesEnd == Int64(first.count))

        let appended = first + (try InputFixtures.frame("ee\nfour\n"))
        try Data(appended).write(to: URL(fileURLWithPath: path))
        let after = InputFixtures.read(InputSource(path: path), with: reader, startingAt: before.summary.resumePoint)
        #expect(after.sink.texts == ["three", "four"])
        #expect(after.sink.numbers == [3, 4])
        #expect(after.summary.resumePoint == .init(storedOffset: Int64(appended.count), decompressedOffset: 19, linesBefore: 4))
        #expect(after.statistics.compressedBytes == Int64(appended.count) - before.summary.resumePoint.storedOffset)
        #expect(after.diagnostics.isEmpty)
    }

    @Test func resumingAPlainFileAtItsLastLineEnd() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try InputFixtures.write(Array("a\nb\nc".utf8), named: "log.ndjson", in: directory)
        let reader = try InputReader()
        let before = InputFixtures.read(InputSource(path: path), with: reader)
        #expect(before.summary.resumePoint == .init(storedOffset: 4, decompressedOffset: 4, linesBefore: 2))
        try Data("a\nb\ncd\ne\n".utf8).write(to: URL(fileURLWithPath: path))
        let after = InputFixtures.read(InputSource(path: path), with: reader, startingAt: before.summary.resumePoint)
        #expect(after.sink.texts == ["cd", "e"])
        #expect(after.sink.numbers == [3, 4])
    }
}
