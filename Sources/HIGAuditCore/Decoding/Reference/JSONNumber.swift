/// The one reader of JSON number literals, for the general scan (`JSONScanner.scanNumber`), the
/// learned shapes' variable values (`LineShapes`) and values read later (`double`): one grammar and
/// one rounding, so that no path can read a literal another way.
enum JSONNumber {
    /// A literal read: where it ends, whether it is an integer (no fraction, no exponent), and its
    /// nearest `Double` when Clinger's fast path gives it (`fastDouble`), else NaN, which no literal
    /// is: `double` then reads it with the standard library.
    struct Scanned {
        let end: Int
        let integer: Bool
        let value: Double
    }

    /// Reads the number literal at `start` (which must be before `end`), RFC 8259's grammar exactly;
    /// nil if there is none there (`JSONScanner.scanNumber` then says why).
    ///
    /// With 16 bytes readable, 1–7 integer digits and a fraction of 1–7 are found and read 8 bytes at
    /// a time (`digitRun`, `digitsValue`): the digit loops' exits, at a different place in every
    /// other value, were mispredicted branches. Exponents (`1.235e+02`, as C loggers write every
    /// number) and longer runs go through `scanByteByByte`, which also reads their value on the fast
    /// path rather than handing it to the standard library's parser (figures: Tests/Benchmarks/README.md, "Decoder choices").
    ///
    /// Transparent, not `@inline(__always)`: in the shapes' already large matching loop the optimiser
    /// left the latter a call. `powers` is a copy of `powersOfTen` the caller
    /// keeps at hand (the shapes keep one in their storage): loaded from a register's address, the
    /// powers cost one instruction each, where a switch compiled to a jump table.
    @_transparent
    static func scan(
        _ base: UnsafePointer<UInt8>, from start: Int, end: Int, powers: UnsafeRawPointer = powersOfTen
    ) -> Scanned? {
        let negative = base[start] == 0x2D
        let integerStart = negative ? start &+ 1 : start
        if end &- integerStart >= 16 {
            let integerWord = UInt64(littleEndian: UnsafeRawPointer(base + integerStart).loadUnaligned(as: UInt64.self))
            let integerDigits = digitRun(integerWord)
            let afterInteger = integerStart &+ integerDigits
            // 1–7 digits, no leading zero; then a fraction of 1–7 digits, or none; no exponent.
            if integerDigits > 0 && integerDigits < 8 && (integerDigits == 1 || base[integerStart] != 0x30) {
                var mantissa = digitsValue(integerWord, count: integerDigits)
                var afterNumber = afterInteger
                var fractionDigits = 0
                var short = true
                if base[afterInteger] == 0x2E {
                    let fractionWord = UInt64(
                        littleEndian: UnsafeRawPointer(base + (afterInteger &+ 1)).loadUnaligned(as: UInt64.self))
                    fractionDigits = digitRun(fractionWord)
                    short = fractionDigits > 0 && fractionDigits < 8
                    if short {
                        mantissa = mantissa &* powers.load(fromByteOffset: integerPowersOffset &+ fractionDigits &* 8, as: UInt64.self)
                            &+ digitsValue(fractionWord, count: fractionDigits)
                        afterNumber = afterInteger &+ 1 &+ fractionDigits
                    }
                }
                // At most 15 digits: below 2^53, so exact, and one correctly rounded division.
                if short && base[afterNumber] | 0x20 != 0x65 {
                    var value = Double(Int64(truncatingIfNeeded: mantissa))
                    if fractionDigits > 0 { value /= powers.load(fromByteOffset: fractionDigits &* 8, as: Double.self) }
                    return Scanned(end: afterNumber, integer: fractionDigits == 0, value: negative ? -value : value)
                }
            }
        }
        return scanByteByByte(base, from: start, end: end, powers: powers)
    }

    /// `scan` a byte at a time: near the end of what may be read, for longer runs of digits and for
    /// exponents.
    ///
    /// Integers of 8 to 15 digits (millisecond timestamps, 13) are read 8 bytes at a time first.
    @inline(never)
    static func scanByteByByte(
        _ base: UnsafePointer<UInt8>, from start: Int, end: Int, powers: UnsafeRawPointer = powersOfTen
    ) -> Scanned? {
        let negative = base[start] == 0x2D
        var p = negative ? start &+ 1 : start
        let digitsStart = p
        if end &- p >= 17, base[p] != 0x30 {
            let high = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let low = UInt64(littleEndian: UnsafeRawPointer(base + (p &+ 8)).loadUnaligned(as: UInt64.self))
            let lowDigits = digitRun(low)
            let after = p &+ 8 &+ lowDigits
            if digitRun(high) == 8, lowDigits < 8, base[after] != 0x2E, base[after] | 0x20 != 0x65 {
                var mantissa = digitsValue(high, count: 8)
                if lowDigits > 0 {
                    mantissa = mantissa &* powers.load(fromByteOffset: integerPowersOffset &+ lowDigits &* 8, as: UInt64.self)
                        &+ digitsValue(low, count: lowDigits)
                }
                let value = Double(Int64(truncatingIfNeeded: mantissa))
                return Scanned(end: after, integer: true, value: negative ? -value : value)
            }
        }
        var mantissa: UInt64 = 0
        while p < end {
            let digit = base[p] &- 0x30
            if digit >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            p &+= 1
        }
        var digitCount = p &- digitsStart
        // No digit, or a leading zero.
        guard digitCount > 0, digitCount == 1 || base[digitsStart] != 0x30 else { return nil }
        var fractionDigits = 0
        if p < end, base[p] == 0x2E {
            p &+= 1
            let fractionStart = p
            while p < end {
                let digit = base[p] &- 0x30
                if digit >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                p &+= 1
            }
            fractionDigits = p &- fractionStart
            guard fractionDigits > 0 else { return nil }
            digitCount &+= fractionDigits
        }
        var exponent = 0
        let hasExponent = p < end && base[p] | 0x20 == 0x65
        if hasExponent {
            p &+= 1
            var exponentNegative = false
            if p < end, base[p] == 0x2B || base[p] == 0x2D {
                exponentNegative = base[p] == 0x2D
                p &+= 1
            }
            guard p < end, JSONScanner.isDigit(base[p]) else { return nil }
            repeat {
                // Past 10^4 the fast path is out of reach anyway; stop growing, keep scanning.
                if exponent < 10_000 { exponent = exponent &* 10 &+ Int(base[p] &- 0x30) }
                p &+= 1
            } while p < end && JSONScanner.isDigit(base[p])
            if exponentNegative { exponent = -exponent }
        }
        let value = fastDouble(
            mantissa: mantissa, digitCount: digitCount, exponent: exponent &- fractionDigits, negative: negative)
        return Scanned(end: p, integer: fractionDigits == 0 && !hasExponent, value: value)
    }

    /// How many of the 8 bytes of `word` (lowest first) are ASCII digits before the first that is not; 8
    /// when all are. A byte below `0` borrows from, and one above `9` may carry into, only the bytes
    /// after it, so the first byte flagged is the first that is not a digit.
    @inline(__always)
    static func digitRun(_ word: UInt64) -> Int {
        let offset = word &- 0x3030_3030_3030_3030
        let notDigit = (offset | (offset &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
        return notDigit.trailingZeroBitCount &>> 3
    }

    /// The value of the first `count` (1–8) ASCII digits of `word`, lowest byte first: moved to the top
    /// bytes (the bytes below become leading zeros), then pairs, fours and eights of digits combined.
    @inline(__always)
    static func digitsValue(_ word: UInt64, count: Int) -> UInt64 {
        var value = (word &<< UInt64(64 &- 8 &* count)) & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) &>> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    }

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

    /// What a number literal is worth as an integer: JSON has one number type, so `1000`, `1000.0`,
    /// `1e3` and `10000e-1` are the same integer, while `1000.5` is none.
    enum IntegralValue: Equatable {
        case integer(Int64)
        /// A value with a non-zero fractional part.
        case fraction
        /// An integer of more than 18 significant digits with its exponent, beyond every `Int64` use here.
        case tooLarge
    }

    /// The validated literal's exact value as an integer, from its decimal digits (no `Double` on the
    /// way, which would round a long mantissa): the integer and fraction digits shifted by the exponent,
    /// every digit the shift leaves after the point being zero.
    static func integralValue(_ b: ByteSlice) -> IntegralValue {
        let p = b.start
        let n = b.count
        var i = 0
        let negative = p[0] == 0x2D
        if negative { i = 1 }
        let integerStart = i
        while i < n, JSONScanner.isDigit(p[i]) { i += 1 }
        let integerCount = i - integerStart
        var fractionStart = i
        var fractionCount = 0
        if i < n, p[i] == 0x2E {
            i += 1
            fractionStart = i
            while i < n, JSONScanner.isDigit(p[i]) { i += 1 }
            fractionCount = i - fractionStart
        }
        // The exponent, capped far beyond any digit count a line can hold (1 MiB), so that it cannot
        // overflow and a capped one still shifts every digit out of range or into the fraction.
        var exponent = 0
        if i < n, p[i] | 0x20 == 0x65 {
            i += 1
            var exponentNegative = false
            if p[i] == 0x2D || p[i] == 0x2B {
                exponentNegative = p[i] == 0x2D
                i += 1
            }
            while i < n {
                exponent = min(exponent * 10 + Int(p[i] &- 0x30), 1 << 40)
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // The digits, integer part then fraction, as one sequence.
        let digitCount = integerCount + fractionCount
        func digit(_ j: Int) -> UInt8 {
            j < integerCount ? p[integerStart + j] &- 0x30 : p[fractionStart + j - integerCount] &- 0x30
        }
        var first = 0
        while first < digitCount, digit(first) == 0 { first += 1 }
        if first == digitCount { return .integer(0) }
        // The value is digits[first...] × 10^shift.
        let shift = exponent - fractionCount
        let significant = digitCount - first
        let integerDigits = significant + shift
        if integerDigits <= 0 { return .fraction }
        if shift < 0 {
            var j = digitCount + shift
            while j < digitCount {
                if digit(j) != 0 { return .fraction }
                j += 1
            }
        }
        if integerDigits > 18 { return .tooLarge }
        var magnitude: Int64 = 0
        for j in 0..<integerDigits {
            magnitude = magnitude * 10 + (first + j < digitCount ? Int64(digit(first + j)) : 0)
        }
        return .integer(negative ? -magnitude : magnitude)
    }

    /// The literal (validated) as the nearest `Double`: `scan`'s value, or the standard library's
    /// correctly rounded parser where `scan` gives none (long mantissas, large exponents).
    static func double(_ b: ByteSlice) -> Double {
        if let scanned = scan(b.start, from: 0, end: b.count), scanned.end == b.count, !scanned.value.isNaN {
            return scanned.value
        }
        let text = String(decoding: UnsafeBufferPointer(start: b.start, count: b.count), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The value of `mantissa` × 10^`exponent` (the mantissa's `digitCount` decimal digits) when
    /// Clinger's fast path applies, else NaN.
    ///
    /// With at most 15 digits the mantissa is below 2^53 and 10^k (|k| ≤ 22) is exact too, so one
    /// correctly rounded multiplication or division gives the nearest double. (The mantissa may have
    /// wrapped when there are more than 19 digits; it is then not used.)
    @inline(__always)
    static func fastDouble(mantissa: UInt64, digitCount: Int, exponent: Int, negative: Bool) -> Double {
        guard digitCount <= 15, exponent >= -22, exponent <= 22 else { return .nan }
        // Below 10^15, so as a signed integer too: one conversion instruction, where an unsigned one
        // takes four on x86-64.
        var value = Double(Int64(truncatingIfNeeded: mantissa))
        if exponent < 0 {
            value /= powerOfTen(-exponent)
        } else if exponent > 0 {
            value *= powerOfTen(exponent)
        }
        return negative ? -value : value
    }

    /// 10^0 to 10^15 as `Double`s, then 10^0 to 10^7 as `UInt64`s (at `integerPowersOffset`), for
    /// `scan`'s 8-bytes-at-a-time path. Callers on the hot path copy it (`powersOfTenByteCount`) next to
    /// their own state.
    /// Written once, before any read, and never again.
    nonisolated(unsafe) static let powersOfTen: UnsafeRawPointer = {
        let table = UnsafeMutableRawPointer.allocate(byteCount: powersOfTenByteCount, alignment: 8)
        var power = 1.0
        for k in 0...15 {
            table.storeBytes(of: power, toByteOffset: k * 8, as: Double.self)
            power *= 10
        }
        var integerPower: UInt64 = 1
        for k in 0...7 {
            table.storeBytes(of: integerPower, toByteOffset: integerPowersOffset + k * 8, as: UInt64.self)
            integerPower *= 10
        }
        return UnsafeRawPointer(table)
    }()
    static var integerPowersOffset: Int { 128 }
    static var powersOfTenByteCount: Int { 192 }

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
