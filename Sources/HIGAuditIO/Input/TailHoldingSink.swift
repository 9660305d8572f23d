/// Stands between the reader and the analysis when the nightly job reads a file: drops the lines an
/// earlier run already counted, and holds an unterminated line back until the read ends, so that a line
/// the next run will read again, maybe longer (the last line of a file still being written), is not
/// counted now (SPEC §5).
///
/// A line with its `\n` is complete: it goes to the analysis at once, and may be taken before the reader
/// has found its end (`LineSink.leadingLine`). Only a line the reader delivers without one
/// (`unterminatedLine`: the end of the data, or a cut by a skipped frame) is held, until the next line
/// shows it was not the last, or the read ends. While one is held, no line is taken ahead: it would go
/// to the analysis before the held one is known to be followed by a delivered line. An unterminated
/// line over the length limit is not held: it arrives as `oversizedLine`, malformed whatever follows,
/// and is reported at once (the next run, reading it again, drops it as counted).
///
/// A held line is copied into one reused buffer of raw memory: an `[UInt8]` emptied and refilled cost
/// ~240 instructions a line when every line was held. The state lives in a class so the sink itself is
/// one reference.
///
/// It lives here, beside the reader, rather than with the nightly job that uses it, so that the
/// reader's loop is specialised for it (`RunPipeline` reads with it in this module): called from
/// another module, the generic loop runs unspecialised, reaching the sink through its witness table on
/// every line.
public struct TailHoldingSink<Analysis: LineSink>: LineSink {
    final class State {
        var analysis: Analysis
        /// Lines up to this number reached the engine in an earlier run.
        let countedThrough: Int64
        var droppedLines: Int64 = 0
        /// The last line number forwarded to the analysis (or `countedThrough`).
        var forwardedThrough: Int64
        private var held = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        private var heldCapacity = 4096
        private var heldCount = 0
        var heldNumber: Int64?

        init(analysis: Analysis, countedThrough: Int64) {
            self.analysis = analysis
            self.countedThrough = countedThrough
            self.forwardedThrough = countedThrough
        }

        deinit { held.deallocate() }

        func forwardHeld() {
            guard let number = heldNumber else { return }
            analysis.line(UnsafeRawBufferPointer(start: held, count: heldCount), number: number)
            forwardedThrough = number
            heldNumber = nil
        }

        /// Whether line `number` is new to the store. A line an earlier run counted is dropped (and
        /// counted as dropped); a new one first lets a held line go, since it shows that one was not
        /// the last.
        func admits(_ number: Int64) -> Bool {
            guard number > countedThrough else {
                droppedLines += 1
                return false
            }
            forwardHeld()
            return true
        }

        /// Keeps a copy of `bytes` (lines are at most 1 MiB, longer ones arrive as `oversizedLine`).
        func hold(_ bytes: UnsafeRawBufferPointer, number: Int64) {
            if bytes.count > heldCapacity {
                held.deallocate()
                heldCapacity = max(bytes.count, heldCapacity * 2)
                held = .allocate(byteCount: heldCapacity, alignment: 16)
            }
            if let source = bytes.baseAddress { held.copyMemory(from: source, byteCount: bytes.count) }
            heldCount = bytes.count
            heldNumber = number
        }
    }

    let state: State

    public init(analysis: Analysis, countedThrough: Int64) {
        state = State(analysis: analysis, countedThrough: countedThrough)
    }

    public var analysis: Analysis { state.analysis }
    public var droppedLines: Int64 { state.droppedLines }
    public var forwardedThrough: Int64 { state.forwardedThrough }

    public mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        let state = state
        guard state.admits(number) else { return }
        state.analysis.line(bytes, number: number)
        state.forwardedThrough = number
    }

    public mutating func leadingLine(_ bytes: UnsafeRawPointer, readable: Int, number: Int64) -> Int? {
        let state = state
        guard number > state.countedThrough, state.heldNumber == nil,
            let length = state.analysis.leadingLine(bytes, readable: readable, number: number)
        else { return nil }
        state.forwardedThrough = number
        return length
    }

    public mutating func unterminatedLine(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        let state = state
        guard state.admits(number) else { return }
        state.hold(bytes, number: number)
    }

    public mutating func oversizedLine(number: Int64, byteCount: Int64) {
        let state = state
        guard state.admits(number) else { return }
        state.analysis.oversizedLine(number: number, byteCount: byteCount)
        state.forwardedThrough = number
    }

    /// The read ended at `resume`. Lines after it will be delivered again by the next read, so a held
    /// (unterminated) last line after it stays back unless `forward` (end of input: `--close-open`).
    /// Returns whether it stayed.
    public func finish(resume: FileReadSummary.ResumePoint, forward: Bool) -> Bool {
        guard let number = state.heldNumber else { return false }
        if number <= resume.linesBefore || forward {
            state.forwardHeld()
            return false
        }
        return true
    }
}
