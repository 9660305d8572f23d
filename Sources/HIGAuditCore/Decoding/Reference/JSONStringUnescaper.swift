/// Builds the `String` value of a JSON string that contains escapes.
///
/// Only for bytes the scanner has already validated (escapes well formed, surrogates paired, UTF-8
/// valid), so it has no failure path. The value is never longer than its escaped form, which sizes the
/// buffer: `\uXXXX` is six bytes for at most three, a surrogate pair twelve for four.
enum JSONStringUnescaper {
    static func string(base: UnsafePointer<UInt8>, start: Int, end: Int) -> String {
        String(unsafeUninitializedCapacity: max(end - start, 1)) { output in
            unescape(base: base, start: start, end: end, into: output.baseAddress!)
        }
    }

    /// Writes the value's bytes to `output`, which has room for `end - start` bytes; returns how many.
    /// For values used at once and never kept (a `ts` with an escaped `+`, as .NET writes it), without
    /// the `String` and its allocation.
    static func unescape(base: UnsafePointer<UInt8>, start: Int, end: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var out = 0
        var p = start
        @inline(__always) func emit(_ byte: UInt8) {
            output[out] = byte
            out &+= 1
        }
        while p < end {
            // The bytes up to the next escape as they are, at once.
            let escapeAt = nextBackslash(base, from: p, end: end)
            if escapeAt > p {
                (output + out).update(from: base + p, count: escapeAt &- p)
                out &+= escapeAt &- p
                p = escapeAt
                continue
            }
            let c = base[p]
            guard p + 1 < end else {
                emit(c)
                p &+= 1
                continue
            }
            let escape = base[p + 1]
            p &+= 2
            switch escape {
            case 0x62: emit(0x08)
            case 0x66: emit(0x0C)
            case 0x6E: emit(0x0A)
            case 0x72: emit(0x0D)
            case 0x74: emit(0x09)
            case 0x75:
                var scalar = hex4(base, p, end)
                p &+= 4
                if scalar & 0xFC00 == 0xD800, p + 6 <= end, base[p] == 0x5C {
                    let low = hex4(base, p + 2, end)
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low & 0x3FF)
                    p &+= 6
                }
                switch scalar {
                case 0..<0x80:
                    emit(UInt8(truncatingIfNeeded: scalar))
                case 0x80..<0x800:
                    emit(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
                case 0x800..<0x10000:
                    emit(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
                default:
                    emit(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
                    emit(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
                }
            default:  // \" \\ \/ stand for themselves
                emit(escape)
            }
        }
        return out
    }

    /// The position of the first backslash at or after `p`, or `end`: 16 bytes at a time, then byte
    /// by byte.
    @inline(__always)
    private static func nextBackslash(_ base: UnsafePointer<UInt8>, from p: Int, end: Int) -> Int {
        var p = p
        while end &- p >= 16 {
            let block = UnsafeRawPointer(base + p).loadUnaligned(as: SIMD16<UInt8>.self)
            let backslashes = JSONScanner.lanes(block .== SIMD16(repeating: 0x5C))
            if backslashes != 0 { return p &+ backslashes.trailingZeroBitCount }
            p &+= 16
        }
        while p < end, base[p] != 0x5C { p &+= 1 }
        return p
    }

    @inline(__always)
    private static func hex4(_ base: UnsafePointer<UInt8>, _ p: Int, _ end: Int) -> UInt32 {
        var value: UInt32 = 0
        var i = p
        while i < p + 4, i < end {
            value = value << 4 | (JSONScanner.hexValue(base[i]) ?? 0)
            i += 1
        }
        return value
    }
}
