import Foundation
@testable import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// A file read in two stages (one thread splits, another decodes) gives what one thread gives: the
/// same events and diagnostics in the same order, the same summary and counters, the same held-back
/// tail; whatever the framing, damage, line lengths and where an earlier read stopped.
@Suite struct TwoStageReadTests {
    /// Events and diagnostics as the target and the diagnostic callback saw them, in order.
    final class Recorder: EventTarget, @unchecked Sendable {
        private(set) var log: [String] = []
        private let lock = NSLock()

        func accept(_ event: consuming Event) {
            let text = "event \(event)"
            lock.withLock { log.append(text) }
        }

        func say(_ diagnostic: Diagnostic) {
            lock.withLock { log.append("diagnostic \(diagnostic)") }
        }
    }

    /// The leading-line content (touch lines of one layout, blank and damaged lines, `\r\n` endings,
    /// lines over a small limit), then a line longer than a chunk (within the limit), a line over the
    /// limit, and an unterminated last line.
    static func content(maxLineBytes: Int) -> [UInt8] {
        var bytes = LeadingLineReadingTests.content + Array("\n".utf8)
        let long = #"{"ts":1795208645999,"session":"s-1","type":"touch","phase":"moved","target":""#
            + String(repeating: "l", count: LineChunk.byteCapacity + 1000) + #"","x":1,"y":2}"#
        bytes += Array(long.utf8) + Array("\n".utf8)
        bytes += Array(String(repeating: "o", count: maxLineBytes + 10).utf8) + Array("\n".utf8)
        for index in 0..<50 {
            bytes += Array(#"{"ts":\#(1_795_208_646_000 + index),"session":"s-2","type":"touch","phase":"moved","target":"a","x":1,"y":2}"#.utf8)
            bytes += Array("\n".utf8)
        }
        return bytes + Array(#"{"ts":1795208647000,"session":"s-2","type":"session.end""#.utf8)
    }

    /// The content in four zstd frames of small blocks, the second made unreadable and the last cut
    /// in half; or as one plain file.
    static func files(maxLineBytes: Int) throws -> [(name: String, bytes: [UInt8])] {
        let content = Self.content(maxLineBytes: maxLineBytes)
        let quarter = content.count / 4
        var frames: [[UInt8]] = []
        for start in stride(from: 0, to: content.count, by: quarter) {
            let part = Array(content[start..<min(start + quarter, content.count)])
            frames.append(try InputFixtures.frame(part, ["--zstd=wlog=10"]))
        }
        let whole = frames.flatMap { $0 }
        frames[1][6] |= 0x06
        let last = frames.count - 1
        frames[last] = Array(frames[last].prefix(frames[last].count / 2))
        return [("plain.ndjson", content), ("frames.zst", whole), ("damaged.zst", frames.flatMap { $0 })]
    }

    static let tails: [TailHandling?] = [
        nil, TailHandling(countedThrough: 0, forward: false), TailHandling(countedThrough: 700, forward: false),
        TailHandling(countedThrough: 0, forward: true),
    ]

    @Test func twoStagesGiveWhatOneThreadGives() throws {
        var options = ReaderOptions()
        options.maxLineBytes = LineChunk.byteCapacity * 2
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in try Self.files(maxLineBytes: options.maxLineBytes) {
            let path = try InputFixtures.write(file.bytes, named: file.name, in: directory)
            for tail in Self.tails {
                let read = FileRead(source: InputSource(path: path, displayPath: file.name), file: 3, tail: tail)
                let reader = try InputReader(options: options)

                let one = Recorder()
                var decoder: EventDecoder? = EventDecoder()
                let expected = reader.read(read, into: one, decoder: &decoder, diagnostic: { one.say($0) })

                let two = Recorder()
                var lent: EventDecoder? = EventDecoder()
                let result = reader.readInTwoStages(read, into: two, decoder: &lent, diagnostic: { two.say($0) })

                let what = "\(file.name), tail \(String(describing: tail))"
                #expect(two.log == one.log, "\(what)")
                #expect(result.summary == expected.summary, "\(what)")
                #expect(result.statistics == expected.statistics, "\(what)")
                #expect(result.heldBack == expected.heldBack, "\(what)")
                #expect(result.forwardedThrough == expected.forwardedThrough, "\(what)")
                #expect(lent != nil, "the decoder is given back")
                #expect(one.log.count > 1_000, "\(what)")
                if file.name == "damaged.zst" {
                    #expect(one.log.last?.hasPrefix("diagnostic") == true, "the cut frame is said after the last line")
                }
            }
        }
    }

    /// The decoder comes back alone, from one thread's read or two stages: the next read goes on with
    /// its learned shapes instead of finding its field table shared and starting cold.
    @Test func theLentDecoderComesBackWithItsShapes() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = (0..<3_000).map {
            #"{"ts":\#(1_795_208_646_000 + $0),"session":"s-2","type":"touch","phase":"moved","target":"a","x":1,"y":2}"# + "\n"
        }.joined()
        let path = try InputFixtures.write(Array(text.utf8), named: "a.ndjson", in: directory)
        let read = FileRead(source: InputSource(path: path, displayPath: "a"), file: 0)
        let reader = try InputReader()
        for twoStages in [true, false] + Array(repeating: true, count: 18) {
            var decoder: EventDecoder? = EventDecoder(learnsLineShapes: true)
            if twoStages {
                _ = reader.readInTwoStages(read, into: Recorder(), decoder: &decoder, diagnostic: { _ in })
            } else {
                _ = reader.read(read, into: Recorder(), decoder: &decoder, diagnostic: { _ in })
            }
            let matchedBefore = try #require(decoder).lineShapes.matchedLines
            _ = reader.read(read, into: Recorder(), decoder: &decoder, diagnostic: { _ in })
            // Every line of the second read matches a shape learned in the first.
            let matchedAfter = try #require(decoder).lineShapes.matchedLines
            #expect(matchedAfter >= matchedBefore + 3_000, "\(matchedBefore) then \(matchedAfter)")
        }
    }

    @Test func aFileThatCannotBeOpenedIsReportedAsOneThreadReportsIt() throws {
        let read = FileRead(source: InputSource(path: "/nonexistent/input.zst", displayPath: "input.zst"), file: 0)
        let reader = try InputReader()
        var decoder: EventDecoder? = EventDecoder()
        let one = Recorder()
        let expected = reader.read(read, into: one, decoder: &decoder, diagnostic: { one.say($0) })
        let two = Recorder()
        let result = reader.readInTwoStages(read, into: two, decoder: &decoder, diagnostic: { two.say($0) })
        #expect(two.log == one.log)
        #expect(one.log.count == 1)
        #expect(result.summary == expected.summary)
        #expect(result.statistics == expected.statistics)
        #expect(result.statistics.faults == 1)
    }

    /// A nightly read resumed where an earlier one stopped: the splitting stage starts at the resume
    /// point and the line numbers go on from it.
    @Test func aResumedReadInTwoStagesGoesOnFromTheResumePoint() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = InputFixtures.sampleLines(400)
        let first = try InputFixtures.frame(InputFixtures.ndjson(Array(lines[..<200])))
        let second = try InputFixtures.frame(InputFixtures.ndjson(Array(lines[200...])))
        let path = try InputFixtures.write(first + second, named: "grown.zst", in: directory)
        let reader = try InputReader()
        var decoder: EventDecoder? = EventDecoder()
        let start = FileReadSummary.ResumePoint(
            storedOffset: Int64(first.count), decompressedOffset: Int64(InputFixtures.ndjson(Array(lines[..<200])).utf8.count),
            linesBefore: 200)
        let read = FileRead(
            source: InputSource(path: path, displayPath: "grown.zst"), file: 0, resume: start,
            tail: TailHandling(countedThrough: 200, forward: false))
        let one = Recorder()
        let expected = reader.read(read, into: one, decoder: &decoder, diagnostic: { one.say($0) })
        let two = Recorder()
        let result = reader.readInTwoStages(read, into: two, decoder: &decoder, diagnostic: { two.say($0) })
        #expect(two.log == one.log)
        #expect(result.summary == expected.summary)
        #expect(result.statistics == expected.statistics)
        #expect(result.forwardedThrough == 400)
    }
}
