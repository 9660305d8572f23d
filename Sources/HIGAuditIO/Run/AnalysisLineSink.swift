import HIGAuditCore

/// Where the reader's lines meet the core: decode each line, sort it into its SPEC §2 bucket, and hand
/// events to the session engine. Kept free of file handling so the nightly job and `analyze` share it.
public struct AnalysisLineSink: LineSink {
    var decoder = EventDecoder()
    let engine: SessionEngine
    let file: Int32
    let displayPath: String
    public var statistics: IngestStatistics
    let onMalformed: (Diagnostic) -> Void
    var onProgress: ((Int64) -> Void)?
    /// Decompressed bytes read before this file, and in it so far, for progress reports.
    var bytesBefore: Int64 = 0
    private var bytesInFile: Int64 = 0
    private var linesSinceProgress = 0

    public init(engine: SessionEngine, file: Int32, displayPath: String, statistics: IngestStatistics,
         onMalformed: @escaping (Diagnostic) -> Void) {
        self.engine = engine
        self.file = file
        self.displayPath = displayPath
        self.statistics = statistics
        self.onMalformed = onMalformed
    }

    public mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        if let onProgress {
            bytesInFile &+= Int64(bytes.count) &+ 1
            linesSinceProgress &+= 1
            if linesSinceProgress >= 16_384 {
                linesSinceProgress = 0
                onProgress(bytesBefore &+ bytesInFile)
            }
        }
        let decoded = decoder.decode(bytes)
        // Consumed, so the event moves out of the enum and on into the engine instead of being copied.
        switch consume decoded {
        case .blank:
            break
        case .event(var event):
            event.source = SourceLocation(file: file, line: number)
            engine.ingest(consume event)
        case .unknownType(let name):
            statistics.unknownTypes[name, default: 0] += 1
        case .malformed(let problem):
            statistics.malformedLines += 1
            onMalformed(Diagnostic(.malformedLine, at: "\(displayPath):\(number)", problem.description))
        }
    }

    public mutating func oversizedLine(number: Int64, byteCount: Int64) {
        statistics.malformedLines += 1
        onMalformed(Diagnostic(
            .malformedLine, at: "\(displayPath):\(number)",
            "line of \(byteCount) bytes is longer than the 1 MiB limit"))
    }
}
