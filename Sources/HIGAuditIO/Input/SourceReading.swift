import CZstd
import HIGAuditCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one `InputReader.read` call: where it is in the stored bytes, in the frames and in
/// the lines. It lives only for that call; the buffers and decoder belong to the reader.
struct SourceReading<Sink: LineSink> {
    private let reader: InputReader
    private let file: StoredFile
    var sink: Sink
    var summary: FileReadSummary
    private let origin: FileReadSummary.ResumePoint
    private let report: (Diagnostic) -> Void
    private let path: String
    private var splitter: LineSplitter

    /// The compressed-input window: bytes `input[start..<end]` are read and not yet used.
    private let input: UnsafeMutableRawPointer
    private let inputCapacity: Int
    private var start = 0
    private var end = 0
    /// Stored offset of `input[0]`.
    private var inputOffset: Int64
    private var endOfFile = false
    private var readFailed = false
    /// Frames met so far (data and skippable), to name a frame in diagnostics ("frame 3").
    private var framesMet = 0
    /// Where the frame being decoded writes its next block in the ring, and its largest block.
    private var ringPosition = 0
    private var blockSizeMax = 0
    /// Whether the frame's content may outgrow the ring, which then wraps. A frame whose content fits
    /// is decoded in one piece: its window is all of it, so wrapping would overwrite history.
    private var ringWraps = false
    /// Bytes of the decoder's next input piece gathered in `DecodingRing.staging` so far.
    private var staged = 0

    init(
        reader: InputReader, file: StoredFile, sink: Sink, summary: FileReadSummary,
        origin: FileReadSummary.ResumePoint, report: @escaping (Diagnostic) -> Void
    ) {
        self.reader = reader
        self.file = file
        self.sink = sink
        self.summary = summary
        self.origin = origin
        self.report = report
        self.path = summary.displayPath
        self.input = reader.compressedBuffer.baseAddress!
        self.inputCapacity = reader.compressedBuffer.count
        self.inputOffset = origin.storedOffset
        self.splitter = LineSplitter(
            buffer: reader.lineBuffer, maxLineBytes: reader.options.maxLineBytes,
            fillBytes: reader.options.decodeChunkBytes, firstLineNumber: origin.linesBefore + 1,
            decompressedOffset: origin.decompressedOffset)
    }

    private var position: Int64 { inputOffset + Int64(start) }
    private var available: Int { end - start }

    // MARK: - Reading

    mutating func run() {
        let isZstd: Bool?
        if origin.storedOffset == 0 {
            while available < 4 && !endOfFile { refill() }
            isZstd = available == 0 ? nil : hasZstdMagic(input + start, count: available)
        } else {
            // A resumed read: the format is the one the file started with.
            var head: UInt32 = 0
            let got = (try? withUnsafeMutableBytes(of: &head) { bytes throws(StoredFile.Failure) in
                try file.read(at: 0, into: bytes.baseAddress!, count: 4)
            }) ?? 0
            refill()
            isZstd = available == 0 ? nil
                : withUnsafeBytes(of: head) { hasZstdMagic($0.baseAddress!, count: got) }
        }
        switch isZstd {
        case nil:
            summary.format = readFailed ? .unreadable : .empty
            if !readFailed && origin.storedOffset == 0 {
                report(Diagnostic(.emptyFile, at: path, "the file is empty"))
            }
        case true?:
            summary.format = .zstd
            readFrames()
        case false? where reader.options.readsGzip && origin.storedOffset == 0 && GzipMembers.startsMember(input + start, count: available):
            summary.format = .gzip
            readGzip()
        case false?:
            summary.format = .plain
            if origin.storedOffset == 0, let format = ForeignFormat.sniff(input + start, count: available) {
                report(Diagnostic(.notNDJSON, at: path, format.plainTextWarning))
            }
            readPlain()
        }
        summary.lines = splitter.linesDelivered
        summary.decompressedBytes = splitter.decompressedOffset - origin.decompressedOffset
        summary.completeLinesEnd = splitter.lastLineEnd
    }

    private func hasZstdMagic(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 4 else { return false }
        return ZstdFrameFormat.classify(ZstdFrameFormat.loadLittleEndianUInt32(bytes)) != .other
    }

    /// Moves unused bytes to the front and reads the next chunk; sets `endOfFile` at the end.
    private mutating func refill() {
        guard !endOfFile else { return }
        if start > 0 {
            let remaining = available
            if remaining > 0 { memmove(input, input + start, remaining) }
            inputOffset += Int64(start)
            start = 0
            end = remaining
        }
        do {
            let got = try file.read(into: input + end, count: inputCapacity - end)
            if got == 0 { endOfFile = true }
            end += got
            summary.storedBytes += Int64(got)
        } catch {
            report(Diagnostic(
                .unreadableFile, at: "\(path)@\(inputOffset + Int64(end))",
                "read error: \(error.message); the rest of the file is not read"))
            summary.faults += 1
            endOfFile = true
            readFailed = true
        }
    }

    // MARK: - gzip

    /// Reads gzip members one after another (`cat a.gz b.gz` is a valid gzip file), each line to the
    /// sink as it is inflated. A corrupt member is reported with its offset and skipped to the next
    /// member header; a file that ends inside a member is truncated, its complete lines kept.
    private mutating func readGzip() {
        var members = GzipMembers()
        defer { members.end() }
        var memberStart = position
        var memberIndex = 1
        var inMember = true
        var skipping = false
        var padding = false
        reading: while true {
            if available == 0 {
                if endOfFile { break reading }
                refill()
                if available == 0 { break reading }
            }
            if !inMember {
                // Between members: zero padding some tools add (said once where it begins, as
                // `gzip -d` warns of it); anything else must be a member.
                if input.load(fromByteOffset: start, as: UInt8.self) == 0, !skipping {
                    if !padding {
                        report(Diagnostic(
                            .trailingGarbage, at: "\(path)@\(position)",
                            "zero bytes after gzip member \(memberIndex) (padding, not a member); skipped"))
                        summary.faults += 1
                        padding = true
                    }
                    let zeros = (start..<end).prefix { input.load(fromByteOffset: $0, as: UInt8.self) == 0 }.count
                    start += zeros
                    summary.skippedBytes += Int64(zeros)
                    continue
                }
                if available < 3 && !endOfFile {
                    refill()
                    if available < 3 && !endOfFile { continue }
                }
                if GzipMembers.startsMember(input + start, count: available) {
                    members.reset()
                    memberStart = position
                    memberIndex += 1
                    inMember = true
                    skipping = false
                    padding = false
                } else {
                    if !skipping {
                        report(Diagnostic(
                            .trailingGarbage, at: "\(path)@\(position)",
                            "bytes after gzip member \(memberIndex) are not a gzip member; skipped to the next member"))
                        summary.faults += 1
                        splitter.endLine(into: &sink)
                        skipping = true
                    }
                    start += 1
                    summary.skippedBytes += 1
                    continue
                }
            }
            let space = splitter.space()
            let outcome = members.inflate(input + start, count: available, into: space.baseAddress!, capacity: space.count)
            start += outcome.consumed
            if outcome.produced > 0 { splitter.accept(outcome.produced, into: &sink) }
            switch outcome.status {
            case .memberEnded:
                summary.frames += 1
                inMember = false
                summary.completeFramesEnd = position
            case .needsMore:
                if outcome.consumed == 0 && outcome.produced == 0 {
                    if endOfFile { break reading }
                    refill()
                }
            case .corrupt(let why):
                report(Diagnostic(
                    .corruptFrame, at: "\(path)@\(memberStart)",
                    "gzip member \(memberIndex): \(why) (detected by byte \(position)); skipped to the next member"))
                summary.faults += 1
                splitter.endLine(into: &sink)
                summary.skippedBytes += position - memberStart
                inMember = false
                skipping = true
            }
        }
        if inMember {
            let fileEnd = position + Int64(available)
            if !readFailed {
                report(Diagnostic(
                    .truncatedFile, at: "\(path)@\(memberStart)",
                    "gzip member \(memberIndex) is cut off after \(fileEnd - memberStart) bytes at the end of the file "
                        + "(an upload in progress?); the complete lines before the cut are kept"))
                summary.endedInTruncatedFrame = true
            }
            dropPartialLine()
        } else if !readFailed && !splitter.atLineStart {
            summary.endedInUnterminatedLine = true
            splitter.endLine(into: &sink)
        }
    }

    // MARK: - Plain NDJSON

    private mutating func readPlain() {
        while available > 0 {
            let space = splitter.space()
            let count = min(space.count, available)
            space.baseAddress!.copyMemory(from: input + start, byteCount: count)
            start += count
            splitter.accept(count, into: &sink)
        }
        while !endOfFile {
            let space = splitter.space()
            do {
                let got = try file.read(into: space.baseAddress!, count: space.count)
                if got == 0 { break }
                summary.storedBytes += Int64(got)
                splitter.accept(got, into: &sink)
            } catch {
                report(Diagnostic(
                    .unreadableFile, at: "\(path)@\(splitter.decompressedOffset)",
                    "read error: \(error.message); the rest of the file is not read"))
                summary.faults += 1
                readFailed = true
                break
            }
        }
        if splitter.atLineStart {
            summary.resumePoint = resumePoint(storedOffset: splitter.decompressedOffset)
        } else {
            summary.resumePoint = FileReadSummary.ResumePoint(
                storedOffset: splitter.lastLineEnd, decompressedOffset: splitter.lastLineEnd,
                linesBefore: splitter.nextLineNumber - 1)
            summary.endedInUnterminatedLine = true
            if readFailed {
                summary.skippedBytes += splitter.dropPartialLine()
            } else {
                splitter.endLine(into: &sink)
            }
        }
        summary.completeFramesEnd = splitter.lastLineEnd
    }

    private func resumePoint(storedOffset: Int64) -> FileReadSummary.ResumePoint {
        FileReadSummary.ResumePoint(
            storedOffset: storedOffset, decompressedOffset: splitter.decompressedOffset,
            linesBefore: splitter.nextLineNumber - 1)
    }

    // MARK: - zstd frames

    private enum SkipReason {
        case corrupt, refused, missingDictionary

        var category: Diagnostic.Category {
            switch self {
            case .corrupt: .corruptFrame
            case .refused: .refusedFrame
            case .missingDictionary: .missingDictionary
            }
        }
    }

    private struct Frame {
        var walker: ZstdFrameWalker
        var start: Int64
        /// 1-based among all frames of the file, skippable ones included.
        var index: Int
        var skipReason: SkipReason?
        var decoderFinished = false
    }

    private enum Phase {
        case frameStart
        case frame(Frame)
        case skippable(remaining: Int64)
        /// Bytes that are not a frame, from `start`, searched for the next magic number.
        case garbage(start: Int64, reported: Bool)
    }

    private mutating func readFrames() {
        var phase = Phase.frameStart
        while true {
            switch phase {
            case .frameStart:
                if available < 4 {
                    if !endOfFile { refill(); continue }
                    if available > 0 {
                        let tail = UnsafeRawBufferPointer(start: input + start, count: available)
                        if ZstdFrameFormat.couldBeMagicPrefix(tail) {
                            endInsideHeader("the magic number of frame \(framesMet + 1)")
                        } else {
                            endGarbage(from: position, to: position + Int64(available), reported: false, atEnd: true)
                        }
                        start = end
                    }
                    return finishFrames()
                }
                let here = position
                switch ZstdFrameFormat.classify(ZstdFrameFormat.loadLittleEndianUInt32(input + start)) {
                case .frame:
                    switch ZstdFrameHeader.parse(UnsafeRawBufferPointer(start: input + start, count: available)) {
                    case .needBytes:
                        if !endOfFile { refill(); continue }
                        endInsideHeader("the header of frame \(framesMet + 1)")
                        start = end
                        return finishFrames()
                    case .invalid(let why):
                        framesMet += 1
                        report(Diagnostic(
                            .corruptFrame, at: "\(path)@\(here)",
                            "frame \(framesMet): \(why); skipped to the next frame"))
                        summary.faults += 1
                        splitter.endLine(into: &sink)
                        start += 1
                        phase = .garbage(start: here, reported: true)
                    case .header(let header):
                        framesMet += 1
                        phase = .frame(beginFrame(header, at: here))
                    }
                case .skippable:
                    if available < ZstdFrameFormat.skippableHeaderBytes {
                        if !endOfFile { refill(); continue }
                        endInsideHeader("the header of skippable frame \(framesMet + 1)")
                        start = end
                        return finishFrames()
                    }
                    framesMet += 1
                    let size = ZstdFrameFormat.loadLittleEndianUInt32(input + start + 4)
                    phase = .skippable(remaining: Int64(ZstdFrameFormat.skippableHeaderBytes) + Int64(size))
                case .other:
                    phase = .garbage(start: here, reported: false)
                }

            case .frame(var frame):
                if available < frame.walker.minimumBytesToProgress {
                    if !endOfFile { refill(); continue }
                    endInsideFrame(frame)
                    start = end
                    return finishFrames()
                }
                let here = position
                let (consumed, status) = frame.walker.advance(
                    over: UnsafeRawBufferPointer(start: input + start, count: available))
                if frame.skipReason == nil && consumed > 0 {
                    switch decode(input + start, count: consumed) {
                    case .needMore:
                        break
                    case .frameEnd(let unconsumed):
                        if unconsumed == 0 && status == .finished {
                            frame.decoderFinished = true
                        } else {
                            skip(&frame, .corrupt, at: here + Int64(consumed - unconsumed),
                                 "the decoder ended the frame before its last block")
                        }
                    case .failed(let reason, let message):
                        // The decoder buffers whole blocks: the fault lies in the bytes just given to it.
                        skip(&frame, reason, at: here + Int64(consumed), message)
                    }
                }
                start += consumed
                switch status {
                case .needMore:
                    phase = .frame(frame)
                case .finished:
                    if frame.skipReason == nil && !frame.decoderFinished {
                        skip(&frame, .corrupt, at: position, "the frame's last block ended but the decoder expected more")
                    }
                    if frame.skipReason == nil {
                        summary.frames += 1
                    } else {
                        summary.skippedBytes += position - frame.start
                    }
                    frameEnded()
                    phase = .frameStart
                case .invalid(let why):
                    if frame.skipReason == nil { skip(&frame, .corrupt, at: position, why) }
                    phase = .garbage(start: frame.start, reported: true)
                }

            case .skippable(let remaining):
                if available == 0 {
                    if !endOfFile { refill(); continue }
                    endInsideHeader("skippable frame \(framesMet)")
                    return finishFrames()
                }
                let step = Int(min(Int64(available), remaining))
                start += step
                if step == remaining {
                    summary.skippableFrames += 1
                    frameEnded()
                    phase = .frameStart
                } else {
                    phase = .skippable(remaining: remaining - Int64(step))
                }

            case .garbage(let garbageStart, let reported):
                if available < 4 {
                    if !endOfFile { refill(); continue }
                    start = end
                    endGarbage(from: garbageStart, to: position, reported: reported, atEnd: true)
                    return finishFrames()
                }
                if let found = Self.findMagic(input + start, count: available) {
                    start += found
                    endGarbage(from: garbageStart, to: position, reported: reported, atEnd: false)
                    phase = .frameStart
                } else {
                    // Keep the last three bytes: a magic number may straddle the next read.
                    start += available - 3
                }
            }
        }
    }

    private mutating func beginFrame(_ header: ZstdFrameHeader, at frameStart: Int64) -> Frame {
        var frame = Frame(walker: ZstdFrameWalker(header: header), start: frameStart, index: framesMet)
        let maxWindowLog = reader.options.maxWindowLog
        if header.windowSize > UInt64(1) << UInt64(maxWindowLog) {
            skip(&frame, .refused, at: frameStart,
                 "window of \(header.windowSize) bytes exceeds the limit of 2^\(maxWindowLog) bytes "
                    + "(a higher maximum window log reads it)")
            return frame
        }
        var dictionary: OpaquePointer?
        if header.dictionaryID != 0 {
            dictionary = reader.dictionaries.dictionary(id: header.dictionaryID)
            if dictionary == nil {
                skip(&frame, .missingDictionary, at: frameStart, "needs dictionary \(header.dictionaryID)")
                return frame
            }
        }
        guard reader.ring.reserve(windowSize: header.windowSize, contentSize: header.contentSize) else {
            skip(&frame, .refused, at: frameStart, "no memory for a window of \(header.windowSize) bytes")
            return frame
        }
        ringPosition = 0
        ringWraps = header.contentSize.map { UInt64(reader.ring.capacity) < $0 } ?? true
        blockSizeMax = Int(min(header.windowSize, UInt64(ZstdFrameFormat.maximumBlockBytes)))
        staged = 0
        let result = dictionary.map { ZSTD_decompressBegin_usingDDict(reader.decoder, $0) }
            ?? ZSTD_decompressBegin(reader.decoder)
        if ZSTD_isError(result) != 0 {
            skip(&frame, .missingDictionary, at: frameStart, String(cString: ZSTD_getErrorName(result)))
        }
        return frame
    }

    /// Gives up on decoding `frame`: reports why, and cuts the current line (the frame's data is lost).
    private mutating func skip(_ frame: inout Frame, _ reason: SkipReason, at offset: Int64, _ why: String) {
        frame.skipReason = reason
        let place = offset == frame.start ? "" : " (detected by byte \(offset))"
        report(Diagnostic(
            reason.category, at: "\(path)@\(frame.start)",
            "frame \(frame.index): \(why)\(place); skipped to the next frame"))
        summary.faults += 1
        splitter.endLine(into: &sink)
    }

    /// A frame (data, skipped or skippable) ended at the current position: reading could resume here.
    private mutating func frameEnded() {
        summary.completeFramesEnd = position
        if splitter.atLineStart { summary.resumePoint = resumePoint(storedOffset: position) }
    }

    private mutating func endInsideFrame(_ frame: Frame) {
        let fileEnd = position + Int64(available)
        switch frame.skipReason {
        case .corrupt?:
            // A corrupt block size may point past the end: that is corruption, not an upload in progress.
            summary.skippedBytes += fileEnd - frame.start
        case .refused?, .missingDictionary?:
            summary.skippedBytes += fileEnd - frame.start
            summary.endedInTruncatedFrame = true
        case nil:
            guard !readFailed else { return dropPartialLine() }
            report(Diagnostic(
                .truncatedFile, at: "\(path)@\(frame.start)",
                "frame \(frame.index) is cut off after \(fileEnd - frame.start) bytes at the end of the file "
                    + "(an upload in progress?); the complete lines before the cut are kept"))
            summary.endedInTruncatedFrame = true
            dropPartialLine()
        }
    }

    private mutating func endInsideHeader(_ what: String) {
        guard !readFailed else { return dropPartialLine() }
        report(Diagnostic(
            .truncatedFile, at: "\(path)@\(position)",
            "the file ends inside \(what) (an upload in progress?); the complete lines before it are kept"))
        summary.endedInTruncatedFrame = true
        dropPartialLine()
    }

    private mutating func dropPartialLine() {
        if !splitter.atLineStart { summary.endedInUnterminatedLine = true }
        summary.skippedBytes += splitter.dropPartialLine()
    }

    private mutating func endGarbage(from garbageStart: Int64, to garbageEnd: Int64, reported: Bool, atEnd: Bool) {
        let count = garbageEnd - garbageStart
        guard count > 0 else { return }
        summary.skippedBytes += count
        if !reported {
            let what = atEnd ? "after the last frame" : "before the next frame"
            report(Diagnostic(
                .trailingGarbage, at: "\(path)@\(garbageStart)",
                "\(count) bytes \(what) are not a zstd frame; skipped"))
            summary.faults += 1
            splitter.endLine(into: &sink)
        }
    }

    private mutating func finishFrames() {
        if !summary.endedInTruncatedFrame && !readFailed && !splitter.atLineStart {
            summary.endedInUnterminatedLine = true
            splitter.endLine(into: &sink)
        }
    }

    /// The offset of the first zstd or skippable magic number in `bytes`, if any.
    private static func findMagic(_ bytes: UnsafeRawPointer, count: Int) -> Int? {
        var index = 0
        while index + 4 <= count {
            let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x28 || byte & 0xF0 == 0x50,
               ZstdFrameFormat.classify(ZstdFrameFormat.loadLittleEndianUInt32(bytes + index)) != .other {
                return index
            }
            index += 1
        }
        return nil
    }

    // MARK: - Decoding

    private enum DecodeOutcome {
        case needMore
        case frameEnd(unconsumed: Int)
        case failed(SkipReason, String)
    }

    /// Runs the decoder over `count` bytes of the current frame, splitting its output into lines.
    ///
    /// zstd's buffer-less API takes its input in exact pieces (a header, a block, the checksum) and
    /// writes each block into the ring after the one before, or, when the content may outgrow the
    /// ring, back at its start when a largest block would not fit: the last `windowSize` bytes stay in
    /// place for the blocks to come, as in the streaming decoder's own buffer (`ZSTD_decompressStream`
    /// wraps under the same two conditions). A piece cut by the end of `bytes` is gathered in the
    /// staging buffer.
    private mutating func decode(_ bytes: UnsafeMutableRawPointer, count: Int) -> DecodeOutcome {
        let decoder = reader.decoder
        let ring = reader.ring
        var offset = 0
        while true {
            let piece = ZSTD_nextSrcSizeToDecompress(decoder)
            if piece == 0 { return .frameEnd(unconsumed: count - offset) }
            guard offset < count else { return .needMore }
            let source: UnsafeRawPointer
            if staged == 0 && count - offset >= piece {
                source = UnsafeRawPointer(bytes + offset)
                offset += piece
            } else {
                guard piece <= DecodingRing.stagingBytes else {
                    return .failed(.corrupt, "an input piece of \(piece) bytes is larger than any block")
                }
                let step = min(piece - staged, count - offset)
                (ring.staging + staged).copyMemory(from: bytes + offset, byteCount: step)
                staged += step
                offset += step
                guard staged == piece else { return .needMore }
                staged = 0
                source = UnsafeRawPointer(ring.staging)
            }
            if ringWraps && ringPosition + blockSizeMax > ring.capacity { ringPosition = 0 }
            let destination = ring.base! + ringPosition
            let result = ZSTD_decompressContinue(
                decoder, destination, ring.capacity - ringPosition, source, piece)
            if ZSTD_isError(result) != 0 {
                let reason: SkipReason
                switch ZSTD_getErrorCode(result) {
                case ZSTD_error_frameParameter_windowTooLarge, ZSTD_error_memory_allocation:
                    reason = .refused
                case ZSTD_error_dictionary_wrong, ZSTD_error_dictionary_corrupted:
                    reason = .missingDictionary
                default:
                    reason = .corrupt
                }
                return .failed(reason, String(cString: ZSTD_getErrorName(result)))
            }
            if result > 0 {
                splitter.acceptInPlace(destination, count: result, into: &sink)
                ringPosition += result
            }
        }
    }
}
