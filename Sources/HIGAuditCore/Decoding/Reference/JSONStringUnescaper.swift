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

    /// `unescape`'s bytes for a value whose only escape is one sign, `\u002B` or `\u002D` in either case
    /// (System.Text.Json writes the `+` of a `ts` offset so), copied a word at a time without decoding
    /// any escape; nil for any other value (no escape, another one, a second one, one cut short), which
    /// `unescape` reads. `output` has room for `count` bytes.
    static func unescapeOnlyASign(_ text: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        var at = 0
        var found = false
        // Eight bytes at a time up to the word holding the first backslash. The borrow test marks the
        // lowest backslash of a word exactly (a borrow only reaches the bytes above a match).
        while count &- at >= 8 {
            let word = UnsafeRawPointer(text + at).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(output + at).storeBytes(of: word, as: UInt64.self)
            let differences = UInt64(littleEndian: word) ^ 0x5C5C_5C5C_5C5C_5C5C
            let marks = (differences &- 0x0101_0101_0101_0101) & ~differences & 0x8080_8080_8080_8080
            if marks != 0 {
                at &+= marks.trailingZeroBitCount &>> 3
                found = true
                break
            }
            at &+= 8
        }
        if !found {
            while at < count, text[at] != 0x5C {
                output[at] = text[at]
                at &+= 1
            }
        }
        // `\u002` and `B`, `b`, `D` or `d` (only bit 5 tells the cases apart).
        guard count &- at >= 6,
              UInt32(littleEndian: UnsafeRawPointer(text + (at &+ 1)).loadUnaligned(as: UInt32.self)) == 0x3230_3075
        else { return nil }
        switch text[at &+ 5] | 0x20 {
        case 0x62: output[at] = 0x2B
        case 0x64: output[at] = 0x2D
        default: return nil
        }
        var from = at &+ 6
        var to = at &+ 1
        while from < count {
            let byte = text[from]
            if byte == 0x5C { return nil }
            output[to] = byte
            from &+= 1
            to &+= 1
        }
        return to
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
