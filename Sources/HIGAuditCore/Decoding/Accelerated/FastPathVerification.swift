/// Re-decodes sampled lines with the reference decoder (`ReferenceDecoder`) and compares: the check that
/// the decoder's accelerated path (learned line shapes, recognised key heads, recent strings) keeps its
/// one contract, to give the reference decoder's verdict and event or none at all. Off unless asked for
/// (`HIG_AUDIT_VERIFY_FAST_PATH`, read at the edges; tests), as it costs a second decoding per line
/// checked.
///
/// The reference decoder is a fresh one for every line checked: nothing remembered from earlier lines
/// can stand in for what it reads.
public struct FastPathVerification: Sendable {
    /// What a difference does: stop the process with both results and the line (a decoder bug, never
    /// bad input), or keep it for a test to show.
    public enum OnMismatch: Sendable {
        case trap
        case record
    }

    /// Every `interval`-th line decoded is checked (1: every line).
    public let interval: Int
    public let onMismatch: OnMismatch
    private var untilNext: Int
    /// The first `keptMismatches` differences, described.
    public private(set) var mismatches: [String] = []
    public private(set) var mismatchCount = 0
    public private(set) var checkedLines = 0
    static let keptMismatches = 16

    public init(interval: Int, onMismatch: OnMismatch) {
        self.interval = max(1, interval)
        self.onMismatch = onMismatch
        untilNext = 1
    }

    /// Counts a line; true when it is one to check.
    @inline(__always)
    mutating func isDue() -> Bool {
        untilNext &-= 1
        guard untilNext <= 0 else { return false }
        untilNext = interval
        return true
    }

    /// Compares what the decoder gave for `line` with the reference decoder's verdict and event.
    mutating func check(
        _ line: UnsafeRawBufferPointer, source: SourceLocation, verdict: LineVerdict, event: Event?
    ) {
        checkedLines += 1
        var strict = ReferenceDecoder()
        var strictEvent: Event?
        let strictVerdict = strict.decode(line, source: source, accept: { strictEvent = $0 })
        guard strictVerdict != verdict || strictEvent != event else { return }
        let text = String(decoding: line, as: UTF8.self)
        let description = """
            decoder fast path differs from the strict decoder at \(source): \
            fast \(verdict) \(event.map { "\($0)" } ?? "-"), \
            strict \(strictVerdict) \(strictEvent.map { "\($0)" } ?? "-"); line: \(text)
            """
        switch onMismatch {
        case .trap:
            preconditionFailure(description)
        case .record:
            mismatchCount += 1
            if mismatches.count < Self.keptMismatches { mismatches.append(description) }
        }
    }
}
