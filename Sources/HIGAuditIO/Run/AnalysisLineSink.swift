import HIGAuditCore

/// Where the reader's lines meet the core: decode each line, sort it into its SPEC §2 bucket, and hand
/// events to the target (the session engine, or what stands in front of it). Kept free of file
/// handling so that every run (`analyze`, `nightly`, `show`, a `--jobs` worker) shares it.
public struct AnalysisLineSink<Target: EventTarget>: LineSink {
    /// Handed in by the run, so that one decoder (and its learned line shapes) serves every file: a
    /// decoder made and freed per file left holes in the heap that the engine's long-lived session
    /// buffers filled, and the heap grew with the number of files.
    public internal(set) var decoder: EventDecoder
    let target: Target
    let file: Int32
    let displayPath: String
    public var statistics: IngestStatistics
    let onMalformed: (Diagnostic) -> Void
    var onProgress: ((Int64) -> Void)?
    /// Decompressed bytes read before this file, and in it so far, for progress reports.
    var bytesBefore: Int64 = 0
    private var bytesInFile: Int64 = 0
    private var linesSinceProgress = 0
    /// Whether the `suspect timestamp` warning (`SuspectTimestamp`) was said for this file: once a file.
    private var saidSuspectTimestamp = false
    /// Blank lines read before the first other line from line 1, while that line is still to come: its
    /// layout is looked at (`ForeignFormat.sniffFirstLine`). Nil once it has come or cannot (a read
    /// resumed in the middle of a file).
    private var blankLinesBeforeFirst: Int64? = 0

    public init(target: Target, file: Int32, displayPath: String, statistics: IngestStatistics = IngestStatistics(),
         decoder: EventDecoder = EventDecoder.forRun(), onMalformed: @escaping (Diagnostic) -> Void) {
        self.decoder = decoder
        self.target = target
        self.file = file
        self.displayPath = displayPath
        self.statistics = statistics
        self.onMalformed = onMalformed
    }

    public mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        if let importer = decoder.importerReference { return importLine(bytes, number: number, importer) }
        noteProgress(lineBytes: bytes.count)
        let target = self.target
        var ts = SuspectTimestamp.unsuspected
        let verdict = decoder.decode(bytes, source: SourceLocation(file: file, line: number)) { event in
            ts = event.ts
            target.accept(event)
        }
        if SuspectTimestamp.looksLikeSeconds(ts) { saySuspectTimestamp(ts, number: number) }
        if let blanks = blankLinesBeforeFirst {
            let malformed = if case .malformed = verdict { true } else { false }
            noteFirstLine(bytes, number: number, blanksBefore: blanks, blank: verdict == .blank, unread: malformed)
        }
        sort(verdict, number: number)
    }

    /// Says, before its malformed line, that the file's first line shows JSON laid out another way
    /// than one object a line, when that line was not read (`unread`: malformed, for a log of ours;
    /// any line, for an export, whose every format's line is one object). Only `line` looks: a line
    /// a learned shape takes is an event.
    private mutating func noteFirstLine(
        _ bytes: UnsafeRawBufferPointer, number: Int64, blanksBefore: Int64, blank: Bool, unread: Bool
    ) {
        guard number == blanksBefore + 1 else {
            blankLinesBeforeFirst = nil
            return
        }
        if blank {
            blankLinesBeforeFirst = blanksBefore + 1
            return
        }
        blankLinesBeforeFirst = nil
        if unread, let layout = ForeignFormat.sniffFirstLine(bytes) {
            onMalformed(Diagnostic(.notNDJSON, at: displayPath, layout.plainTextWarning))
        }
    }

    /// Most lines: decoded from a learned shape, which also tells where they end (see `LineSink`).
    public mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? {
        if decoder.importer != nil { return nil }
        let target = self.target
        var ts = SuspectTimestamp.unsuspected
        guard let (length, verdict) = decoder.decodeLeadingLine(
            bytes, readable: readable, source: SourceLocation(file: file, line: number), accept: { event in
                ts = event.ts
                target.accept(event)
            })
        else { return nil }
        noteProgress(lineBytes: length)
        if SuspectTimestamp.looksLikeSeconds(ts) { saySuspectTimestamp(ts, number: number) }
        sort(verdict, number: number)
        return length
    }

    /// Says that the event just handed over has a `ts` that looks like seconds; once a file.
    private mutating func saySuspectTimestamp(_ ts: Int64, number: Int64) {
        guard !saidSuspectTimestamp else { return }
        saidSuspectTimestamp = true
        onMalformed(Diagnostic(.suspectTimestamp, at: "\(displayPath):\(number)", SuspectTimestamp.message(ts)))
    }

    @inline(__always)
    private mutating func noteProgress(lineBytes: Int) {
        guard let onProgress else { return }
        bytesInFile &+= Int64(lineBytes) &+ 1
        linesSinceProgress &+= 1
        if linesSinceProgress >= 16_384 {
            linesSinceProgress = 0
            onProgress(bytesBefore &+ bytesInFile)
        }
    }

    /// A line of another tool's export (SPEC §7): each of its events' fields, located in the line, are
    /// judged as a line of ours would be (`ImportedEventFields`), and located `PATH:LINE` (`PATH:LINE#K` for the K-th record
    /// of an OTLP line). An event of a session with no launch is preceded by its synthetic start.
    private mutating func importLine(_ bytes: UnsafeRawBufferPointer, number: Int64, _ importer: Unmanaged<EventImporter>) {
        noteProgress(lineBytes: bytes.count)
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        if let blanks = blankLinesBeforeFirst { noteFirstLine(bytes, number: number, blanksBefore: blanks, blank: blank, unread: true) }
        if blank { return }
        let file = self.file
        // Both held for the whole line (the decoder holds the importer, the sink its target): used
        // unretained, rather than retained and released on every line.
        Unmanaged.passUnretained(target)._withUnsafeGuaranteedRef { target in
            importer._withUnsafeGuaranteedRef { importer in
                importer.translate(bytes) { record, imported in
                    // Made only for a report: a `String` a record cost every event a few allocations.
                    func place() -> String { record == 0 ? "\(displayPath):\(number)" : "\(displayPath):\(number)#\(record)" }
                    switch imported {
                    case .unknownType(let name):
                        statistics.unknownTypes[name, default: 0] += 1
                        return false
                    case .malformed(let problem):
                        statistics.malformedLines += 1
                        onMalformed(Diagnostic(.malformedLine, at: place(), problem.description))
                        return false
                    case .event(let fields):
                        let source = SourceLocation(file: file, line: number, record: record)
                        let verdict: LineVerdict
                        if fields.hasSyntheticStart {
                            // The start goes before the event, and only if the event is accepted: the event
                            // waits for it here.
                            var decoded: Event?
                            verdict = fields.decode(with: &decoder, source: source) { decoded = $0 }
                            if let event = decoded {
                                _ = fields.decodeSyntheticStart(with: &decoder, source: source) { target.accept($0) }
                                target.accept(event)
                            }
                        } else {
                            // Handed on as it is made, as a line of ours is: the decoder calls `accept` only
                            // for an event it returns `.event` for.
                            verdict = fields.decode(with: &decoder, source: source) { target.accept($0) }
                        }
                        switch verdict {
                        case .event:
                            return true
                        case .unknownType(let name):
                            statistics.unknownTypes[name, default: 0] += 1
                        case .malformed(let problem):
                            statistics.malformedLines += 1
                            onMalformed(Diagnostic(.malformedLine, at: place(), problem.description))
                        case .blank:
                            break
                        }
                        return false
                    }
                }
            }
        }
    }

    /// Counts a line that is not an event in its SPEC §2 bucket.
    @inline(__always)
    private mutating func sort(_ verdict: LineVerdict, number: Int64) {
        switch verdict {
        case .blank, .event:
            break
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
            decoder.importerReference == nil
                ? "line of \(byteCount) bytes is longer than the 1 MiB limit"
                : "line of \(byteCount) bytes is longer than the \(ReaderOptions.exportLineBytes >> 20) MiB limit of an export's line"))
    }
}
