import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// The nightly job's sink: complete lines go through at once (taken ahead or not), an unterminated one
/// waits, and nothing is taken ahead of a waiting line.
@Suite struct TailHoldingSinkTests {
    typealias EngineTailSink = TailHoldingSink<AnalysisLineSink<SessionEngine>>

    static func line(_ index: Int) -> String {
        #"{"ts":\#(1_795_208_645_123 + index),"session":"s","type":"touch","id":"e\#(index)","phase":"moved","x":\#(index),"y":2}"#
    }

    static func sink() -> (EngineTailSink, SessionEngine) {
        let engine = SessionEngine(onReport: { _ in })
        let analysis = AnalysisLineSink(
            target: engine, file: 0, displayPath: "f", statistics: IngestStatistics(), onMalformed: { _ in })
        return (TailHoldingSink(analysis: analysis, countedThrough: 0), engine)
    }

    static func deliver(_ text: String, number: Int64, to sink: inout EngineTailSink, terminated: Bool = true) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            let line = UnsafeRawBufferPointer(buffer)
            if terminated { sink.line(line, number: number) } else { sink.unterminatedLine(line, number: number) }
        }
    }

    static func offer(_ text: String, number: Int64, to sink: inout EngineTailSink) -> Int? {
        var bytes = Array((text + "\n").utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            sink.leadingLine(buffer.baseAddress!, readable: buffer.count, number: number)
        }
    }

    /// Whether this build's decoder takes lines ahead at all: one built with `-DHIG_REFERENCE_DECODER`
    /// reads every line on the reference path, which never does (a line not taken is delivered whole).
    static let takesAhead = EventDecoder.acceleratedPathIsCompiledIn

    /// Offers a complete line to be taken ahead and, where the decoder does not take lines ahead,
    /// delivers it whole, as the reader then would.
    static func offerOrDeliver(_ text: String, number: Int64, to sink: inout EngineTailSink) {
        let taken = offer(text, number: number, to: &sink)
        #expect(taken == (takesAhead ? text.utf8.count : nil))
        if taken == nil { deliver(text, number: number, to: &sink) }
    }

    @Test func nothingIsTakenAheadOfAnUnterminatedLine() {
        var (sink, engine) = Self.sink()
        // The decoder learns the layout from complete lines, which reach the engine at once.
        for index in 1...8 { Self.deliver(Self.line(index), number: Int64(index), to: &sink) }
        #expect(engine.statistics.events == 8)
        #expect(sink.forwardedThrough == 8)
        Self.offerOrDeliver(Self.line(9), number: 9, to: &sink)
        #expect(engine.statistics.events == 9)

        // A line a skipped frame cut waits, and the next line is not taken ahead of it.
        Self.deliver(Self.line(10), number: 10, to: &sink, terminated: false)
        #expect(engine.statistics.events == 9)
        #expect(Self.offer(Self.line(11), number: 11, to: &sink) == nil)
        #expect(engine.statistics.events == 9)
        Self.deliver(Self.line(11), number: 11, to: &sink)
        #expect(engine.statistics.events == 11)
        #expect(sink.forwardedThrough == 11)

        // An unterminated last line after the resume point stays back.
        Self.deliver(Self.line(12), number: 12, to: &sink, terminated: false)
        let resume = FileReadSummary.ResumePoint(storedOffset: 0, decompressedOffset: 0, linesBefore: 11)
        #expect(sink.finish(resume: resume, forward: false))
        #expect(engine.statistics.events == 11)
    }

    @Test func linesAlreadyCountedAreDroppedNotTaken() {
        let engine = SessionEngine(onReport: { _ in })
        var analysis = AnalysisLineSink(
            target: engine, file: 0, displayPath: "f", statistics: IngestStatistics(), onMalformed: { _ in })
        // The decoder learns the layout first (from other events), so that it could take the lines below.
        for index in 101...108 {
            var bytes = Array(Self.line(index).utf8)
            bytes.withUnsafeMutableBytes { analysis.line(UnsafeRawBufferPointer($0), number: Int64(index)) }
        }
        #expect(engine.statistics.events == 8)
        var sink = TailHoldingSink(analysis: consume analysis, countedThrough: 5)
        for index in 1...5 {
            #expect(Self.offer(Self.line(index), number: Int64(index), to: &sink) == nil)
            Self.deliver(Self.line(index), number: Int64(index), to: &sink)
        }
        #expect(sink.droppedLines == 5)
        #expect(engine.statistics.events == 8)
        Self.offerOrDeliver(Self.line(6), number: 6, to: &sink)
        #expect(engine.statistics.events == 9)
    }
}
