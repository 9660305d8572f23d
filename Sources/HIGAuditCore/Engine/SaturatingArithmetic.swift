// Timestamps come from input, so window arithmetic on them must never trap on overflow: a log line
// with `ts` near Int64.max is odd data, not a reason to crash a nightly run.

extension Int64 {
    /// `self − other`, clamped to the representable range.
    @inline(__always)
    func minus(_ other: Int64) -> Int64 {
        let (result, overflow) = subtractingReportingOverflow(other)
        if !overflow { return result }
        return other > 0 ? .min : .max
    }

    /// `self + other`, clamped to the representable range.
    @inline(__always)
    func plus(_ other: Int64) -> Int64 {
        let (result, overflow) = addingReportingOverflow(other)
        if !overflow { return result }
        return other > 0 ? .max : .min
    }
}
