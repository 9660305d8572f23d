/// Values of number literals the scanner has already validated against the RFC 8259 grammar.
enum JSONNumber {
    /// The integer literal (`-?digits`, no fraction or exponent) as an `Int64`, or nil if it does not fit.
    static func int64(_ b: ByteSlice) -> Int64? {
        var i = 0
        let negative = b.start[0] == 0x2D
        if negative { i = 1 }
        // Accumulate the magnitude; 2^63 is allowed only for a negative number.
        var magnitude: UInt64 = 0
        while i < b.count {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(b.start[i] &- 0x30))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            i += 1
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The literal as the nearest `Double`.
    ///
    /// Short literals take Clinger's fast path (`fastDouble`); anything else goes to the standard
    /// library's correctly rounded parser.
    static func double(_ b: ByteSlice) -> Double {
        let p = b.start
        let n = b.count
        var i = 0
        let negative = p[0] == 0x2D
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        while i < n, JSONScanner.isDigit(p[i]) {
            mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
            digitCount &+= 1
            i &+= 1
        }
        if i < n, p[i] == 0x2E {
            i &+= 1
            while i < n, JSONScanner.isDigit(p[i]) {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                digitCount &+= 1
                fractionDigits &+= 1
                i &+= 1
            }
        }
        if i == n {
            let value = fastDouble(
                mantissa: mantissa, digitCount: digitCount, fractionDigits: fractionDigits, negative: negative)
            if !value.isNaN { return value }
        }
        // Exponent, long mantissa: rare in logs, left to the standard library.
        let text = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The value of `mantissa` (its `digitCount` decimal digits, the last `fractionDigits` of them
    /// after the point) when Clinger's fast path applies, else NaN.
    ///
    /// With at most 15 digits the mantissa is below 2^53 and 10^k (k ≤ 22) is exact too, so one
    /// correctly rounded division gives the nearest double. (The mantissa may have wrapped when there
    /// are more than 19 digits; it is then not used.)
    @inline(__always)
    static func fastDouble(mantissa: UInt64, digitCount: Int, fractionDigits: Int, negative: Bool) -> Double {
        guard digitCount <= 15, fractionDigits <= 22 else { return .nan }
        // Below 10^15, so as a signed integer too: one conversion instruction, where an unsigned one
        // takes four on x86-64.
        var value = Double(Int64(truncatingIfNeeded: mantissa))
        if fractionDigits > 0 { value /= powerOfTen(fractionDigits) }
        return negative ? -value : value
    }

    /// 10^k for 0 ≤ k ≤ 22, each exactly representable as a double (the same values the loop
    /// `value *= 10` produces, looked up instead of computed: `x`/`y` of every touch come here). A
    /// `switch` of literals compiles to a constant table; a tuple was copied to the stack per call.
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22  // The caller guarantees k ≤ 22.
        }
    }
}
