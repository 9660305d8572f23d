import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// A line over the reader's limit is said with the limit that applied: a log's 1 MiB, or an export's
/// `ReaderOptions.exportLineBytes` when the sink's decoder reads an export.
@Suite struct OversizedExportLineTests {
    static func said(importing: Bool) -> [String] {
        var messages: [String] = []
        var decoder = EventDecoder.forRun()
        let importer = EventImporter(format: .otlp)
        if importing { decoder.importer = importer }
        var sink = AnalysisLineSink(
            target: DiscardingTarget(), file: 0, displayPath: "export.jsonl", decoder: decoder,
            onMalformed: { messages.append($0.description) })
        sink.oversizedLine(number: 3, byteCount: 70_000_000)
        #expect(sink.statistics.malformedLines == 1)
        return messages
    }

    @Test func theLimitSaidIsTheOneThatApplied() {
        #expect(ReaderOptions.exportLineBytes == 64 << 20)
        #expect(Self.said(importing: true).count == 1)
        #expect(Self.said(importing: true).first?.contains(
            "export.jsonl:3: malformed line: line of 70000000 bytes is longer than the 64 MiB limit of an export's line") == true,
            "\(Self.said(importing: true))")
        #expect(Self.said(importing: false).first?.contains("line of 70000000 bytes is longer than the 1 MiB limit") == true)
    }
}
