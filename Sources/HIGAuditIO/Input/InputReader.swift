import CZstd
import HIGAuditCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads log inputs — zstd-compressed or plain NDJSON, files or standard input — and streams their
/// lines to a `LineSink`, skipping and reporting whatever cannot be read (SPEC §2, §5).
///
/// One reader owns one zstd decoding context, two fixed buffers (compressed input, partial lines) and
/// the ring zstd frames are decoded to (`DecodingRing`, as large as the largest frame window met),
/// reused for every source: memory depends on the options and the frames' windows, never on the
/// input's size. It is not
/// thread-safe; use one reader per task.
///
/// How faults are handled (the run always goes on):
/// - Frames are found by walking frame and block headers as the bytes arrive, so a frame the decoder
///   rejects (corrupt), refuses (window over 2^`maxWindowLog`) or cannot decode (a dictionary that was
///   not given) is skipped to its end and reading resumes with the next frame. When even the block
///   structure is broken, the reader scans forward for the next zstd or skippable magic number.
/// - A skipped frame cuts the line it falls in: the part before it is ended there and delivered as a
///   line (the decoder will reject it as malformed), and data after it starts a new line. Line numbers
///   after a skipped frame count the lines actually read; the skipped frame's lines are unknown.
/// - Output the decoder produced from a frame before finding it corrupt (for instance a checksum
///   mismatch at the frame's end) has already been delivered; it is not taken back.
/// - A file that ends inside a frame (an upload in progress) is truncated: complete lines before the
///   cut are kept; the partial line the cut leaves is dropped and its bytes count as skipped.
/// - Bytes that are not a frame where a frame should start are garbage: skipped up to the next magic
///   number (or the end), counted and reported.
public final class InputReader {
    public let options: ReaderOptions
    let decoder: OpaquePointer
    let dictionaries: ZstdDictionaries
    let compressedBuffer: UnsafeMutableRawBufferPointer
    let lineBuffer: UnsafeMutableRawBufferPointer
    let ring = DecodingRing()

    /// Sets up the decoder and loads the dictionaries; throws only for options it cannot work with.
    public init(options: ReaderOptions = ReaderOptions()) throws(InputReaderError) {
        guard ReaderOptions.windowLogRange.contains(options.maxWindowLog) else {
            throw .windowLogOutOfRange(options.maxWindowLog)
        }
        for (name, value) in [
            ("maxLineBytes", options.maxLineBytes), ("readChunkBytes", options.readChunkBytes),
            ("decodeChunkBytes", options.decodeChunkBytes),
        ] where value <= 0 {
            throw .invalidSize(option: name, value: value)
        }
        self.options = options
        self.dictionaries = try ZstdDictionaries(files: options.dictionaryFiles)
        // The buffer-less API the reader decodes with ignores `ZSTD_d_windowLogMax`: frames with a
        // larger window are refused from their header, before decoding (`SourceReading.beginFrame`).
        guard let decoder = ZSTD_createDCtx() else { throw .decoderUnavailable("out of memory") }
        self.decoder = decoder
        // Room for one chunk plus the largest header that must be seen whole.
        compressedBuffer = .allocate(
            byteCount: options.readChunkBytes + ZstdFrameFormat.maximumHeaderBytes, alignment: 64)
        lineBuffer = .allocate(
            byteCount: LineSplitter.bufferBytes(
                maxLineBytes: options.maxLineBytes, fillBytes: options.decodeChunkBytes),
            alignment: 64)
    }

    deinit {
        ZSTD_freeDCtx(decoder)
        compressedBuffer.deallocate()
        lineBuffer.deallocate()
    }

    /// The ids of the dictionaries given, in increasing order.
    public var dictionaryIDs: [UInt32] { dictionaries.ids }

    /// Reads one source to its end, feeding lines to `sink`.
    ///
    /// Adds to `statistics`: `files` (sources opened), `compressedBytes` (bytes read from storage;
    /// plain files too), `decompressedBytes` (bytes after decompression), `frames` (zstd data frames
    /// decoded to their end; skippable, skipped and truncated frames are not counted), `lines` (lines
    /// delivered, oversized included), `skippedBytes` (stored bytes of skipped frames and garbage, plus
    /// the dropped partial line of a truncated file), `truncatedFiles` and `faults` (unreadable inputs,
    /// corrupt, refused and dictionary-less frames, garbage regions). Problems go to `diagnostic`.
    public func read(
        _ source: InputSource, into sink: inout some LineSink, statistics: inout IngestStatistics,
        diagnostic: (Diagnostic) -> Void
    ) -> FileReadSummary {
        read(source, startingAt: nil, into: &sink, statistics: &statistics, diagnostic: diagnostic)
    }

    /// Reads a stored file from a point where an earlier read stopped (`FileReadSummary.resumePoint`):
    /// only what was appended since. The point must be a frame boundary (zstd) or line boundary
    /// (plain); line numbers and offsets continue from it. Standard input cannot be resumed.
    public func read(
        _ source: InputSource, startingAt start: FileReadSummary.ResumePoint,
        into sink: inout some LineSink, statistics: inout IngestStatistics,
        diagnostic: (Diagnostic) -> Void
    ) -> FileReadSummary {
        read(source, startingAt: Optional(start), into: &sink, statistics: &statistics, diagnostic: diagnostic)
    }

    /// `read` from the start (`start` nil) or from a resume point, for the runs of this module
    /// (`RunPipeline`), so that the reading loop is specialised for their sinks: a generic call from
    /// another module runs the unspecialised loop, with a witness-table call into the sink per line.
    /// `storedBytes` is handed every stored byte read, in order, once each (from `start`'s offset).
    func read<Sink: LineSink>(
        _ source: InputSource, startingAt start: FileReadSummary.ResumePoint?,
        into sink: inout Sink, statistics: inout IngestStatistics,
        storedBytes: ((UnsafeRawBufferPointer) -> Void)? = nil, diagnostic: (Diagnostic) -> Void
    ) -> FileReadSummary {
        let origin = start ?? FileReadSummary.ResumePoint(storedOffset: 0, decompressedOffset: 0, linesBefore: 0)
        var summary = FileReadSummary(
            displayPath: source.displayPath, format: .unreadable, startOffset: origin.storedOffset,
            firstLineNumber: origin.linesBefore + 1)
        summary.completeLinesEnd = origin.decompressedOffset
        summary.resumePoint = origin

        let file: StoredFile
        do {
            file = try StoredFile(opening: source)
            if origin.storedOffset > 0 { try file.seek(to: origin.storedOffset) }
            file.onSequentialRead = storedBytes
        } catch {
            diagnostic(Diagnostic(.unreadableFile, at: source.displayPath, "cannot open: \(error.message)"))
            summary.faults = 1
            statistics.faults += 1
            return summary
        }

        withoutActuallyEscaping(diagnostic) { report in
            // Moved in and back: a copy left here would share the sink's state (the decoder's field
            // table), and the decoder's first write would then replace the table with a fresh one.
            var reading = SourceReading(
                reader: self, file: file, sink: consume sink, summary: summary, origin: origin, report: report)
            reading.run()
            sink = reading.sink
            summary = reading.summary
        }

        if summary.format != .unreadable { statistics.files += 1 }
        statistics.compressedBytes += summary.storedBytes
        statistics.decompressedBytes += summary.decompressedBytes
        statistics.frames += summary.frames
        statistics.lines += summary.lines
        statistics.skippedBytes += summary.skippedBytes
        statistics.faults += summary.faults
        if summary.endedInTruncatedFrame { statistics.truncatedFiles += 1 }
        return summary
    }
}
