#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// A strict RFC 8259 scanner over the bytes of one line, the validating half of `EventDecoder`.
///
/// It never builds values: it checks grammar, UTF-8 and escapes in one forward pass and reports where
/// strings and numbers are, so the decoder can turn only the fields it keeps into Swift values. It works
/// on a raw pointer because this is the measured hot path; every read is guarded by `end`.
struct JSONScanner {
    /// Containers nested deeper than this make the line malformed, so hostile input cannot exhaust the stack.
    static let maxNestingDepth = 512

    let base: UnsafePointer<UInt8>
    let end: Int
    var pos: Int = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
    }

    // MARK: Whitespace

    /// Skips JSON whitespace (space, tab, line feed, carriage return) and nothing else.
    @inline(__always)
    mutating func skipWhitespace() {
        pos = Self.whitespaceEnd(base, from: pos, end: end)
    }

    /// The first position at or after `p` that is not JSON whitespace (or `end`).
    @inline(__always)
    static func whitespaceEnd(_ base: UnsafePointer<UInt8>, from p: Int, end: Int) -> Int {
        var p = p
        while p < end {
            let c = base[p]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
            p &+= 1
        }
        return p
    }

    // MARK: Strings

    /// Scans a string whose opening quote is at `pos - 1`; leaves `pos` after the closing quote.
    ///
    /// Sixteen bytes at a time while there are sixteen, then eight: one mask tells where the closing
    /// quote is and whether anything before it (a backslash, a control character, a non-ASCII byte)
    /// needs a closer look.
    ///
    /// - Returns: whether the string contains escapes (its bytes then differ from its value).
    @inline(__always)
    mutating func scanStringBody() throws(MalformedLine) -> Bool {
        if let quote = Self.plainStringEnd(base, from: pos, end: end) {
            pos = quote &+ 1
            return false
        }
        return try scanStringBodyLoop()
    }

    /// Where the closing quote of a string starting at `p` (after its opening quote) is, when it lies
    /// in the first 16 or 32 bytes with nothing before it that needs a look; nil sends the caller to
    /// `scanStringBodyLoop`.
    ///
    /// Most strings of a log are short and plain, so this is inlined where strings are read and the loop
    /// stays out of line. (The optimiser kept the whole loop out of line, a call per string.) Two
    /// blocks cover session ids (16 bytes) and RFC 3339 timestamps (20 to 30).
    @inline(__always)
    static func plainStringEnd(_ base: UnsafePointer<UInt8>, from p: Int, end: Int) -> Int? {
        let remaining = end &- p
        guard remaining >= 16 else { return nil }
        let raw = UnsafeRawPointer(base + p)
        var stops = UInt32(stopLanes(raw.loadUnaligned(as: SIMD16<UInt8>.self)))
        if stops == 0, remaining >= 32 {
            stops = UInt32(stopLanes(raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self))) &<< 16
        }
        guard stops != 0 else { return nil }
        let first = p &+ stops.trailingZeroBitCount
        return base[first] == 0x22 ? first : nil
    }

    /// Where the closing quote of a string starting at `p` (after its opening quote) is, and whether the
    /// string has escapes, for two kinds of `ts` that `plainStringEnd` leaves to `scanStringBodyLoop`:
    /// a plain one whose quote is in bytes 32–47 (Python's `isoformat`, 32 bytes), and one whose only
    /// escape, within its first 32 bytes, is a sign, `\u002B` or `\u002D` in either case, with its quote
    /// within 16 bytes after that escape (System.Text.Json writes the `+` of an offset so). Nil for any
    /// other string, which the loop reads. Either is what the loop finds: every other byte before the
    /// quote is plain ASCII (no stop), and the escape is one the loop accepts.
    @inline(__always)
    static func plainOrSignEscapedStringEnd(
        _ base: UnsafePointer<UInt8>, from p: Int, end: Int
    ) -> (quote: Int, escaped: Bool)? {
        guard end &- p >= 48 else { return nil }
        let raw = UnsafeRawPointer(base + p)
        let stops = UInt32(stopLanes(raw.loadUnaligned(as: SIMD16<UInt8>.self)))
            | UInt32(stopLanes(raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self))) &<< 16
        // The bytes after the first 32, or after the escape, whose first stop must be the quote.
        var after = p &+ 32
        if stops != 0 {
            let backslash = p &+ stops.trailingZeroBitCount
            after = backslash &+ 6
            guard after &+ 16 <= end, base[backslash] == 0x5C,
                UInt32(littleEndian: UnsafeRawPointer(base + (backslash &+ 1)).loadUnaligned(as: UInt32.self)) == 0x3230_3075,
                base[backslash &+ 5] | 0x20 == 0x62 || base[backslash &+ 5] | 0x20 == 0x64
            else { return nil }
            // The escape's five bytes after the backslash are no stops: the next is at or after `after`.
        }
        let next = stopLanes(UnsafeRawPointer(base + after).loadUnaligned(as: SIMD16<UInt8>.self))
        guard next != 0 else { return nil }
        let quote = after &+ next.trailingZeroBitCount
        return base[quote] == 0x22 ? (quote, stops != 0) : nil
    }

    /// `plainStringEnd` for a string that starts fewer than 16 bytes before `end` (the last member's
    /// value, `"moved"}`), byte by byte; nil at the first byte that needs a look, as there.
    @inline(never)
    static func plainStringEndNearTheEnd(_ base: UnsafePointer<UInt8>, from p: Int, end: Int) -> Int? {
        var q = p
        while q < end {
            let c = base[q]
            if c == 0x22 { return q }
            // Control characters and non-ASCII bytes are those at or above 0x60 after subtracting 0x20.
            if c == 0x5C || c &- 0x20 >= 0x60 { return nil }
            q &+= 1
        }
        return nil
    }

    /// `scanStringBody`'s general case.
    @inline(never)
    mutating func scanStringBodyLoop() throws(MalformedLine) -> Bool {
        let opening = pos &- 1
        var p = pos
        var escaped = false
        while true {
            if end &- p >= 16 {
                // Sixteen bytes at a time: one mask of the bytes that end the string or need a look.
                let stops = Self.stopLanes(UnsafeRawPointer(base + p).loadUnaligned(as: SIMD16<UInt8>.self))
                if stops == 0 {
                    p &+= 16
                    continue
                }
                p &+= stops.trailingZeroBitCount
                if base[p] == 0x22 {
                    pos = p &+ 1
                    return escaped
                }
            } else if end &- p >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let quotes = Self.zeroBytes(word ^ 0x2222_2222_2222_2222)
                let others = Self.attentionBytes(word)
                if quotes | others == 0 {
                    p &+= 8
                    continue
                }
                // trailingZeroBitCount of 0 is 64, so a word without one of them compares as "later".
                let quoteBit = quotes.trailingZeroBitCount
                let otherBit = others.trailingZeroBitCount
                if quoteBit < otherBit {
                    pos = p &+ (quoteBit &>> 3) &+ 1
                    return escaped
                }
                p &+= otherBit &>> 3
            } else {
                guard p < end else { throw JSONError.unterminatedString(at: opening) }
                let c = base[p]
                if c == 0x22 {
                    pos = p &+ 1
                    return escaped
                }
                if c != 0x5C && c >= 0x20 && c < 0x80 {
                    p &+= 1
                    continue
                }
            }
            // A backslash, a control character or the first byte of a multi-byte sequence.
            let c = base[p]
            if c == 0x5C {
                escaped = true
                p = try scanEscape(at: p)
            } else if c < 0x20 {
                throw JSONError.controlCharacter(c, at: p)
            } else {
                p = try validateMultibyteSequence(at: p)
            }
        }
    }

    /// One bit per byte of `block` that ends a string (a quote) or needs a closer look (a backslash, a
    /// control character, a non-ASCII byte).
    @inline(__always)
    static func stopLanes(_ block: SIMD16<UInt8>) -> UInt16 {
        // After subtracting 0x20 with wrap-around, control characters and non-ASCII bytes are exactly
        // the bytes at or above 0x60. (Lane constants written here, not as static properties: those
        // are initialised lazily, a check on every call.)
        lanes(
            (block .== SIMD16(repeating: 0x22)) .| (block .== SIMD16(repeating: 0x5C))
                .| ((block &- SIMD16(repeating: 0x20)) .>= SIMD16(repeating: 0x60)))
    }

    /// One bit per lane of a 16-lane mask, lane 0 lowest.
    ///
    /// On x86-64 this is one SSE2 instruction, `pmovmskb`, which portable Swift SIMD cannot express and
    /// which every string's scan needs twice (figures: Tests/Benchmarks/README.md, "Decoder choices").
    @inline(__always)
    static func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt16 {
        #if arch(x86_64)
        UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self)))
        #else
        portableLanes(mask)
        #endif
    }

    /// `lanes` for any CPU: each half's selected bits summed by one multiplication (the lanes' bits are
    /// distinct powers of two, so the sum never carries). Compiled everywhere so that the tests compare
    /// it with `lanes` on x86-64 too.
    @inline(__always)
    static func portableLanes(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt16 {
        let set = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(mask, to: SIMD16<Int8>.self))
        let weighted = set & SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let halves = unsafeBitCast(weighted, to: SIMD2<UInt64>.self)
        let low = (halves[0] &* 0x0101_0101_0101_0101) &>> 56
        let high = (halves[1] &* 0x0101_0101_0101_0101) &>> 56
        return UInt16(truncatingIfNeeded: low | high &<< 8)
    }

    /// The high bit of every zero byte of `word`. Exact for the lowest zero byte; a borrow can only
    /// mark bytes above a true one, so "the first zero byte" is always right.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte that is a backslash, a control character or not ASCII (exact for the
    /// lowest such byte, as in `zeroBytes`).
    @inline(__always)
    static func attentionBytes(_ word: UInt64) -> UInt64 {
        let backslashes = zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
        let control = (word &- 0x2020_2020_2020_2020) & ~word
        return (backslashes | control | word) & 0x8080_8080_8080_8080
    }

    /// Checks one escape starting at the backslash at `p`; returns the index after it.
    @inline(__always)
    func scanEscape(at p: Int) throws(MalformedLine) -> Int {
        guard p &+ 1 < end else { throw JSONError.unterminatedString(at: p) }
        switch base[p &+ 1] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:  // " \ / b f n r t
            return p &+ 2
        case 0x75:  // u
            let unit = try hex4(at: p &+ 2, escapeAt: p)
            if unit & 0xFC00 == 0xD800 {
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard p &+ 7 < end, base[p &+ 6] == 0x5C, base[p &+ 7] == 0x75 else {
                    throw JSONError.loneSurrogate(at: p)
                }
                let low = try hex4(at: p &+ 8, escapeAt: p &+ 6)
                guard low & 0xFC00 == 0xDC00 else { throw JSONError.loneSurrogate(at: p) }
                return p &+ 12
            }
            if unit & 0xFC00 == 0xDC00 { throw JSONError.loneSurrogate(at: p) }
            return p &+ 6
        default:
            throw JSONError.invalidEscape(base[p &+ 1], at: p)
        }
    }

    /// The value of the four hex digits at `p` (of a `\u` escape at `escapeAt`).
    @inline(__always)
    func hex4(at p: Int, escapeAt: Int) throws(MalformedLine) -> UInt32 {
        guard p &+ 4 <= end else { throw JSONError.invalidUnicodeEscape(at: escapeAt) }
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let digit = Self.hexValue(base[p &+ i]) else { throw JSONError.invalidUnicodeEscape(at: escapeAt) }
            value = value &<< 4 | digit
        }
        return value
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c &- 0x30)
        case 0x41...0x46: UInt32(c &- 0x41 &+ 10)
        case 0x61...0x66: UInt32(c &- 0x61 &+ 10)
        default: nil
        }
    }

    /// Validates the UTF-8 sequence starting with the non-ASCII byte at `p` (RFC 3629: no overlong
    /// forms, no surrogates, nothing above U+10FFFF); returns the index after it.
    @inline(__always)
    func validateMultibyteSequence(at p: Int) throws(MalformedLine) -> Int {
        if let next = Self.utf8SequenceEnd(base, at: p, end: end) { return next }
        throw JSONError.invalidUTF8(at: p)
    }

    /// The index after a valid multi-byte UTF-8 sequence starting at `p`, or nil.
    static func utf8SequenceEnd(_ base: UnsafePointer<UInt8>, at p: Int, end: Int) -> Int? {
        let lead = base[p]
        @inline(__always) func byte(_ i: Int) -> UInt8? { p &+ i < end ? base[p &+ i] : nil }
        @inline(__always) func isContinuation(_ b: UInt8?) -> Bool { b.map { $0 & 0xC0 == 0x80 } ?? false }
        switch lead {
        case 0xC2...0xDF:
            return isContinuation(byte(1)) ? p &+ 2 : nil
        case 0xE0...0xEF:
            guard let second = byte(1) else { return nil }
            let secondOK: Bool = switch lead {
            case 0xE0: second >= 0xA0 && second <= 0xBF
            case 0xED: second >= 0x80 && second <= 0x9F
            default: second & 0xC0 == 0x80
            }
            return secondOK && isContinuation(byte(2)) ? p &+ 3 : nil
        case 0xF0...0xF4:
            guard let second = byte(1) else { return nil }
            let secondOK: Bool = switch lead {
            case 0xF0: second >= 0x90 && second <= 0xBF
            case 0xF4: second >= 0x80 && second <= 0x8F
            default: second & 0xC0 == 0x80
            }
            return secondOK && isContinuation(byte(2)) && isContinuation(byte(3)) ? p &+ 4 : nil
        default:
            return nil
        }
    }

    // MARK: Numbers

    /// Scans a number starting at `pos` (a `-` or a digit); leaves `pos` after it.
    ///
    /// - Returns: whether it is an integer (no fraction, no exponent).
    @inline(__always)
    mutating func scanNumber() throws(MalformedLine) -> Bool {
        var unused = 0.0
        return try scanNumber(value: &unused)
    }

    /// `scanNumber`, also reading the value while the digits pass by, when that is exact and cheap.
    ///
    /// - Parameter value: the literal's nearest `Double` when it takes Clinger's fast path (see
    ///   `JSONNumber.fastDouble`), else NaN, which no JSON number is: the caller then asks
    ///   `JSONNumber.double`. Read while the digits pass by, so that no number is read twice
    ///   (figures: Tests/Benchmarks/README.md, "Decoder choices").
    @inline(__always)
    mutating func scanNumber(value: inout Double) throws(MalformedLine) -> Bool {
        if let scanned = JSONNumber.scan(base, from: pos, end: end) {
            pos = scanned.end
            value = scanned.value
            return scanned.integer
        }
        // Not reached for a number `scan` reads; were it, NaN has the value read again (`JSONNumber.double`).
        value = .nan
        return try scanMalformedNumber()
    }

    /// Says why the literal at `pos` is not a number (`JSONNumber.scan` found none): the same grammar,
    /// read again for the error's place.
    @inline(never)
    private mutating func scanMalformedNumber() throws(MalformedLine) -> Bool {
        var value = 0.0
        var p = pos
        var integer = true
        let negative = base[p] == 0x2D
        if negative { p &+= 1 }
        guard p < end else { throw JSONError.digitExpected(at: p) }
        let digitsStart = p
        var mantissa: UInt64 = 0
        let first = base[p]
        if first == 0x30 {
            p &+= 1
            if p < end, Self.isDigit(base[p]) { throw JSONError.leadingZero(at: p &- 1) }
        } else if Self.isDigit(first) {
            repeat {
                mantissa = mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                p &+= 1
            } while p < end && Self.isDigit(base[p])
        } else {
            throw JSONError.digitExpected(at: p)
        }
        var fractionDigits = 0
        if p < end, base[p] == 0x2E {  // .
            integer = false
            p &+= 1
            guard p < end, Self.isDigit(base[p]) else { throw JSONError.digitExpected(at: p) }
            let fractionStart = p
            repeat {
                mantissa = mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                p &+= 1
            } while p < end && Self.isDigit(base[p])
            fractionDigits = p &- fractionStart
        }
        // With the point skipped, the digits read are every byte from the first digit on but one.
        let digitCount = p &- digitsStart &- (integer ? 0 : 1)
        if p < end, base[p] | 0x20 == 0x65 {  // e E
            integer = false
            p &+= 1
            if p < end, base[p] == 0x2B || base[p] == 0x2D { p &+= 1 }
            guard p < end, Self.isDigit(base[p]) else { throw JSONError.digitExpected(at: p) }
            while p < end, Self.isDigit(base[p]) { p &+= 1 }
            value = .nan
        } else {
            value = JSONNumber.fastDouble(
                mantissa: mantissa, digitCount: digitCount, exponent: -fractionDigits, negative: negative)
        }
        _ = value
        pos = p
        return integer
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

    // MARK: Literals

    /// Matches `true`, `false` or `null` at `pos`.
    @inline(__always)
    mutating func scanLiteral(_ literal: StaticString) throws(MalformedLine) {
        let bytes = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        var i = 0
        while i < count {
            let p = pos &+ i
            guard p < end else { throw JSONError.unexpectedEnd(at: p) }
            guard base[p] == bytes[i] else { throw JSONError.unexpected(base, at: p, end: end) }
            i &+= 1
        }
        pos &+= count
    }

    // MARK: Values that are only validated

    /// Validates one value at `pos` (after whitespace) inside a container at `depth`; leaves `pos` after it.
    mutating func skipValue(depth: Int) throws(MalformedLine) {
        guard pos < end else { throw JSONError.unexpectedEnd(at: pos) }
        switch base[pos] {
        case 0x22:
            pos &+= 1
            _ = try scanStringBody()
        case 0x7B: try skipObject(depth: depth &+ 1)
        case 0x5B: try skipArray(depth: depth &+ 1)
        case 0x74: try scanLiteral("true")
        case 0x66: try scanLiteral("false")
        case 0x6E: try scanLiteral("null")
        case 0x2D, 0x30...0x39: _ = try scanNumber()
        default: throw JSONError.unexpected(base, at: pos, end: end)
        }
    }

    /// Validates an object at `pos` that sits at nesting `depth` (the line's own object is depth 1).
    mutating func skipObject(depth: Int) throws(MalformedLine) {
        guard depth <= Self.maxNestingDepth else { throw JSONError.tooDeep(at: pos) }
        pos &+= 1
        skipWhitespace()
        if pos < end, base[pos] == 0x7D {
            pos &+= 1
            return
        }
        while true {
            guard pos < end else { throw JSONError.unexpectedEnd(at: pos) }
            guard base[pos] == 0x22 else { throw JSONError.unexpected(base, at: pos, end: end) }
            pos &+= 1
            _ = try scanStringBody()
            try expectColon()
            try skipValue(depth: depth)
            skipWhitespace()
            guard pos < end else { throw JSONError.unexpectedEnd(at: pos) }
            switch base[pos] {
            case 0x2C:
                pos &+= 1
                skipWhitespace()
            case 0x7D:
                pos &+= 1
                return
            default:
                throw JSONError.unexpected(base, at: pos, end: end)
            }
        }
    }

    /// Validates an array at `pos` that sits at nesting `depth`.
    mutating func skipArray(depth: Int) throws(MalformedLine) {
        guard depth <= Self.maxNestingDepth else { throw JSONError.tooDeep(at: pos) }
        pos &+= 1
        skipWhitespace()
        if pos < end, base[pos] == 0x5D {
            pos &+= 1
            return
        }
        while true {
            try skipValue(depth: depth)
            skipWhitespace()
            guard pos < end else { throw JSONError.unexpectedEnd(at: pos) }
            switch base[pos] {
            case 0x2C:
                pos &+= 1
                skipWhitespace()
            case 0x5D:
                pos &+= 1
                return
            default:
                throw JSONError.unexpected(base, at: pos, end: end)
            }
        }
    }

    /// Skips whitespace, a `:` and whitespace between a key and its value.
    @inline(__always)
    mutating func expectColon() throws(MalformedLine) {
        if pos < end, base[pos] == 0x3A {
            pos &+= 1
        } else {
            skipWhitespace()
            guard pos < end else { throw JSONError.unexpectedEnd(at: pos) }
            guard base[pos] == 0x3A else { throw JSONError.unexpected(base, at: pos, end: end) }
            pos &+= 1
        }
        if pos < end, base[pos] <= 0x20 { skipWhitespace() }
    }
}
