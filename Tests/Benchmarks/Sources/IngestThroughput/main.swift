// Decode + parse + validate only: the input reader and the event decoder over every line of the
// given files, with no session engine, so the ingestion stage can be compared with `zstd -dc` alone.
// Prints one line of counts; run.sh does the timing and the peak-RSS measurement.
#if canImport(Glibc)
import Glibc
#endif
import HIGAuditCore
import HIGAuditIO

struct CountingSink: LineSink {
    var decoder = EventDecoder()
    var events: Int64 = 0
    var malformed: Int64 = 0
    var other: Int64 = 0
    /// Folds every decoded timestamp in, so the optimiser cannot drop the decoding.
    var checksum: Int64 = 0

    mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        var ts: Int64 = 0
        let verdict = decoder.decode(bytes, source: SourceLocation(file: 0, line: number), accept: { ts = $0.ts })
        count(verdict, ts: ts)
    }

    /// As `AnalysisLineSink`: lines a learned shape covers are decoded without the reader's `memchr`.
    mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? {
        var ts: Int64 = 0
        guard let (length, verdict) = decoder.decodeLeadingLine(
            bytes, readable: readable, source: SourceLocation(file: 0, line: number), accept: { ts = $0.ts })
        else { return nil }
        count(verdict, ts: ts)
        return length
    }

    private mutating func count(_ verdict: LineVerdict, ts: Int64) {
        switch verdict {
        case .event:
            events &+= 1
            checksum &+= ts
        case .malformed:
            malformed &+= 1
        case .blank, .unknownType:
            other &+= 1
        }
    }

    mutating func oversizedLine(number: Int64, byteCount: Int64) { malformed &+= 1 }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    print("usage: IngestThroughput FILE...")
    exit(2)
}
let reader = try InputReader(options: ReaderOptions())
var sink = CountingSink()
var statistics = IngestStatistics()
let (sources, problems) = InputResolver.resolve(arguments)
for problem in problems { print("problem: \(problem)") }
for source in sources {
    reader.read(source, into: &sink, statistics: &statistics, diagnostic: { print("problem: \($0)") })
}
print(
    "decompressed_bytes=\(statistics.decompressedBytes) lines=\(statistics.lines) events=\(sink.events)",
    "malformed=\(sink.malformed) other=\(sink.other) checksum=\(sink.checksum)")
