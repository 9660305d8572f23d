import HIGAuditIO

/// Stands between the reader and the analysis when the nightly job reads a file: drops the lines an
/// earlier run already counted, and holds the last line back until the read ends, so that a line the
/// next run will read again (an unterminated last line of a file still being written) is not counted
/// now (SPEC §5).
///
/// A line is held by copying it into one reused buffer; forwarding it when the next line arrives costs
/// one copy per line and no allocation.
struct TailHoldingSink: LineSink {
    var analysis: AnalysisLineSink
    /// Lines up to this number reached the engine in an earlier run.
    let countedThrough: Int64
    private(set) var droppedLines: Int64 = 0
    /// The last line number forwarded to the analysis (or `countedThrough`).
    private(set) var forwardedThrough: Int64
    private var held: [UInt8] = []
    private var heldNumber: Int64?

    init(analysis: AnalysisLineSink, countedThrough: Int64) {
        self.analysis = analysis
        self.countedThrough = countedThrough
        self.forwardedThrough = countedThrough
    }

    mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        guard number > countedThrough else {
            droppedLines += 1
            return
        }
        forwardHeld()
        held.removeAll(keepingCapacity: true)
        held.append(contentsOf: bytes)
        heldNumber = number
    }

    mutating func oversizedLine(number: Int64, byteCount: Int64) {
        guard number > countedThrough else {
            droppedLines += 1
            return
        }
        forwardHeld()
        analysis.oversizedLine(number: number, byteCount: byteCount)
        forwardedThrough = number
    }

    /// The read ended at `resume`. Lines after it will be delivered again by the next read, so the held
    /// last line stays back unless `forward` (end of input: `--close-open`). Returns whether it stayed.
    mutating func finish(resume: FileReadSummary.ResumePoint, forward: Bool) -> Bool {
        guard let number = heldNumber else { return false }
        if number <= resume.linesBefore || forward {
            forwardHeld()
            return false
        }
        return true
    }

    private mutating func forwardHeld() {
        guard let number = heldNumber else { return }
        held.withUnsafeBytes { analysis.line($0, number: number) }
        forwardedThrough = number
        heldNumber = nil
    }
}
