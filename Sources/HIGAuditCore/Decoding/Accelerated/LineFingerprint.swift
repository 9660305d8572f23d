#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Which learned shapes a line may be laid out like (`LineShapes`), from a few of its bytes: its head
/// (the first key and the colon after it, and whether a space follows) and its `type` value.
///
/// Uploads interleave many devices' lines, written by different SDKs, line by line; each writer keeps
/// its key order, separators and spacing, but consecutive lines come from different writers and types.
/// A line's head names its writer's layout (`{"ts":`, `{ "ts" : `, `{"type": `, `{"app":`), and its
/// `type` value the event type, whose members the writer lays out one way: together they pick the
/// shapes worth trying at the cost of a hash, not of trying every shape. Values that vary line to line
/// (session, device, `ts`, `id`) are left out, so that the lines of all sessions of a writer and type
/// share the shapes.
///
/// A hint only: a line is still matched against a shape byte for byte (see `LineShapes`), so a
/// fingerprint that collides, or that differs for a line that a shape would have matched, changes what
/// is tried and learned, never a line's fields. It reads at most `limit` bytes, and gives the same for
/// every `limit` past the line's `type` value: a line matched before its end is known (`readable`
/// bytes) and the same line learned with its length get the same fingerprint.
enum LineFingerprint {
    /// The `type` key is looked for in the first this many bytes: no longer line is learned
    /// (`LineShapes.maxLineLength`).
    static let searchLimit = 1024

    @inline(__always)
    static func of(_ base: UnsafePointer<UInt8>, limit: Int) -> UInt64 {
        withTypeValueStart(base, limit: limit).fingerprint
    }

    /// `of`, and where the line's `type` value starts (after its opening quote; `Int.max` when no
    /// `type` key was found within `limit`). When one was, the fingerprint depends on no byte past
    /// that value's closing quote: any other `limit` past the quote gives the same (`LineShapes`
    /// reuses the one it computed for a line whose end it did not know when it learns that line).
    @inline(__always)
    static func withTypeValueStart(_ base: UnsafePointer<UInt8>, limit: Int) -> (fingerprint: UInt64, typeValueStart: Int) {
        let head = bytes(base, start: 0, limit: limit, until: 0x3A)
        // A space after the colon tells writers apart whose first key is the same.
        let spaced: UInt64 = head.found &+ 1 < limit && base[head.found &+ 1] == 0x20 ? 0x5851_F42D_4C95_7F2D : 0
        let type = typeValue(base, limit: min(limit, searchLimit))
        var hash = (head.low ^ spaced) &* 0x9E37_79B9_7F4A_7C15
        hash ^= head.high &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= type.low &* 0x1656_67B1_9E37_79F9
        hash ^= type.high &* 0x85EB_CA77_C2B2_AE63
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return (hash, type.start)
    }

    /// Up to 16 bytes from `start`, as two words: with `until`, those before the first such byte and
    /// that byte, the rest zero, and where that byte is (`found`, past the end of the line when none);
    /// without, those before the first quote. Loaded and searched at once when 16 bytes are readable,
    /// else byte by byte (the same words either way). Also an OTLP record's place by its name
    /// (`EventImporter.recordLead`).
    @inline(__always)
    static func bytes(
        _ base: UnsafePointer<UInt8>, start: Int, limit: Int, until byte: UInt8 = 0x22
    ) -> (low: UInt64, high: UInt64, found: Int) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        if start &+ 16 <= limit {
            // One 16-byte comparison finds the byte, and the words are cut after it without branches.
            let raw = UnsafeRawPointer(base + start)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let hits = JSONScanner.lanes(raw.loadUnaligned(as: SIMD16<UInt8>.self) .== SIMD16(repeating: byte))
            guard hits != 0 else { return (low, high, limit) }
            let found = hits.trailingZeroBitCount
            // The colon is kept, the closing quote is not.
            let kept = byte == 0x22 ? found : found &+ 1
            let lowMask: UInt64 = kept >= 8 ? .max : (1 &<< UInt64(8 &* kept)) &- 1
            let highMask: UInt64 = kept <= 8 ? 0 : kept >= 16 ? .max : (1 &<< UInt64(8 &* (kept &- 8))) &- 1
            return (low & lowMask, high & highMask, start &+ found)
        } else {
            var index = 0
            while index < 16, start &+ index < limit {
                let value = UInt64(base[start &+ index])
                if index < 8 { low |= value << (8 &* UInt64(index)) } else { high |= value << (8 &* UInt64(index &- 8)) }
                index &+= 1
            }
        }
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        let inLow = JSONScanner.zeroBytes(low ^ pattern)
        let found: Int
        if inLow != 0 {
            found = inLow.trailingZeroBitCount &>> 3
        } else {
            let inHigh = JSONScanner.zeroBytes(high ^ pattern)
            guard inHigh != 0 else { return (low, high, limit) }
            found = 8 &+ (inHigh.trailingZeroBitCount &>> 3)
        }
        // The colon is kept, the closing quote is not.
        let kept = byte == 0x22 ? found : found &+ 1
        let at = start &+ found
        if kept >= 16 { return (low, high, at) }
        if kept >= 8 { return (low, kept == 8 ? 0 : high & (~0 &>> UInt64(64 &- 8 &* (kept &- 8))), at) }
        return (kept == 0 ? 0 : low & (~0 &>> UInt64(64 &- 8 &* kept)), 0, at)
    }

    /// The first 16 bytes of the string value of the first `"type"` key (quote, `type`, quote, then
    /// a colon with optional spaces around it), up to its closing quote, and where the value starts;
    /// zero and `Int.max` when there is none. Candidates (places of a quote with a `y` two bytes after
    /// it, or of `"t`), taken in line order whichever loop finds them, so the result does not depend on
    /// how many bytes are readable past it.
    @inline(__always)
    private static func typeValue(_ base: UnsafePointer<UInt8>, limit: Int) -> (low: UInt64, high: UInt64, start: Int) {
        var index = 0
        #if arch(x86_64)
        // Masks of the places holding a quote with a `y` two bytes after it (`typeCandidates`), so a
        // line's other keys (`"ts"`, `"target"`) are seldom looked at one by one. SSE2
        // intrinsics, not Swift `SIMD16` comparisons, which the compiler left as byte-by-byte loops
        // here.
        let quote = _mm_set1_epi8(0x22)
        let y = _mm_set1_epi8(0x79)
        while index &+ 18 <= limit {
            // Thirty-two places a step while 34 bytes are readable, then sixteen. The search for a
            // block holding a candidate is a loop of its own, apart from the candidates' handling:
            // with both in one loop the compiler kept an address per use in the handling alive
            // through the search, stepped and spilled on every step; a writer that puts `type` last
            // (Go's sorted keys) takes a dozen steps a line. The candidates are taken in line order
            // either way.
            var candidates: UInt32 = 0
            var step = 32
            while index &+ 34 <= limit {
                candidates = typeCandidates(base + index, quote, y)
                    | typeCandidates(base + (index &+ 16), quote, y) &<< 16
                if candidates != 0 { break }
                index &+= 32
            }
            if candidates == 0 {
                step = 16
                candidates = typeCandidates(base + index, quote, y)
                if candidates == 0 {
                    index &+= 16
                    continue
                }
            }
            while candidates != 0 {
                if let start = valueStart(base, key: index &+ candidates.trailingZeroBitCount, limit: limit) {
                    let value = bytes(base, start: start, limit: limit)
                    return (value.low, value.high, start)
                }
                candidates &= candidates &- 1
            }
            index &+= step
        }
        #else
        // Eight places a step, as words: a quote here and a `t` after it. `zeroBytes` marks every
        // such place (and perhaps some others above the first, which `valueStart` turns down).
        while index &+ 9 <= limit {
            let raw = UnsafeRawPointer(base + index)
            let here = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let next = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
            var candidates = JSONScanner.zeroBytes(here ^ 0x2222_2222_2222_2222)
                & JSONScanner.zeroBytes(next ^ 0x7474_7474_7474_7474)
            while candidates != 0 {
                if let start = valueStart(base, key: index &+ (candidates.trailingZeroBitCount &>> 3), limit: limit) {
                    let value = bytes(base, start: start, limit: limit)
                    return (value.low, value.high, start)
                }
                candidates &= candidates &- 1
            }
            index &+= 8
        }
        #endif
        while index &+ 1 < limit {
            if base[index] == 0x22, base[index &+ 1] == 0x74, let start = valueStart(base, key: index, limit: limit) {
                let value = bytes(base, start: start, limit: limit)
                return (value.low, value.high, start)
            }
            index &+= 1
        }
        return (0, 0, Int.max)
    }

    #if arch(x86_64)
    /// The places among the sixteen at `p` holding a quote with a `y` two bytes after it (bit `i` for
    /// `p + i`); reads 18 bytes. The `t` between is left to `valueStart`: no key of the log format but
    /// `type` has a `y` there, so the candidates are hardly more, for one comparison less a block.
    @inline(__always)
    private static func typeCandidates(_ p: UnsafePointer<UInt8>, _ quote: __m128i, _ y: __m128i) -> UInt32 {
        let raw = UnsafeRawPointer(p)
        let here = unsafeBitCast(raw.loadUnaligned(as: SIMD16<UInt8>.self), to: __m128i.self)
        let after = unsafeBitCast(raw.loadUnaligned(fromByteOffset: 2, as: SIMD16<UInt8>.self), to: __m128i.self)
        return UInt32(truncatingIfNeeded: _mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(here, quote), _mm_cmpeq_epi8(after, y))))
    }
    #endif

    /// A hash of the first 16 bytes of the string value of the line's first `"session"` key (quote,
    /// `session`, quote, a colon with optional spaces around it), never 0; 0 when there is none within
    /// `limit` bytes. A hint as the fingerprint is: which shape a session's lines matched last.
    static func session(_ base: UnsafePointer<UInt8>, limit: Int) -> UInt64 {
        var index = 0
        #if arch(x86_64)
        let quote = _mm_set1_epi8(0x22)
        let n = _mm_set1_epi8(0x6E)
        while index &+ 23 <= limit {
            // A quote with an `n` seven bytes after it: `"session"`'s first and last letters.
            let raw = UnsafeRawPointer(base + index)
            let here = unsafeBitCast(raw.loadUnaligned(as: SIMD16<UInt8>.self), to: __m128i.self)
            let after = unsafeBitCast(raw.loadUnaligned(fromByteOffset: 7, as: SIMD16<UInt8>.self), to: __m128i.self)
            var candidates = UInt32(truncatingIfNeeded: _mm_movemask_epi8(
                _mm_and_si128(_mm_cmpeq_epi8(here, quote), _mm_cmpeq_epi8(after, n))))
            while candidates != 0 {
                if let start = sessionValueStart(base, key: index &+ candidates.trailingZeroBitCount, limit: limit) {
                    return sessionHash(base, start: start, limit: limit)
                }
                candidates &= candidates &- 1
            }
            index &+= 16
        }
        #endif
        while index &+ 9 < limit {
            if base[index] == 0x22, let start = sessionValueStart(base, key: index, limit: limit) {
                return sessionHash(base, start: start, limit: limit)
            }
            index &+= 1
        }
        return 0
    }

    @inline(__always)
    private static func sessionHash(_ base: UnsafePointer<UInt8>, start: Int, limit: Int) -> UInt64 {
        let value = bytes(base, start: start, limit: limit)
        var hash = value.low &* 0x9E37_79B9_7F4A_7C15 ^ value.high &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return hash | 1
    }

    /// Where the string value starts if a `"session"` key stands at `key` (its opening quote).
    @inline(__always)
    private static func sessionValueStart(_ base: UnsafePointer<UInt8>, key: Int, limit: Int) -> Int? {
        // `session"` after the quote, little-endian.
        guard key &+ 9 <= limit, base[key] == 0x22,
            UnsafeRawPointer(base + (key &+ 1)).loadUnaligned(as: UInt64.self) == UInt64(littleEndian: 0x226E_6F69_7373_6573)
        else { return nil }
        return stringValueStart(base, afterKey: key &+ 9, limit: limit)
    }

    /// Where the string value starts if a `"type"` key stands at `key` (its opening quote).
    @inline(__always)
    private static func valueStart(_ base: UnsafePointer<UInt8>, key: Int, limit: Int) -> Int? {
        // `type"` after the quote, little-endian.
        guard key &+ 6 <= limit, base[key] == 0x22,
            UnsafeRawPointer(base + (key &+ 1)).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6570_7974),
            base[key &+ 5] == 0x22
        else { return nil }
        return stringValueStart(base, afterKey: key &+ 6, limit: limit)
    }

    /// Where a string value starts after a key that ends at `afterKey`: a colon with optional spaces
    /// around it, then the value's opening quote; nil for anything else.
    @inline(__always)
    private static func stringValueStart(_ base: UnsafePointer<UInt8>, afterKey: Int, limit: Int) -> Int? {
        var at = afterKey
        while at < limit, base[at] == 0x20 { at &+= 1 }
        guard at < limit, base[at] == 0x3A else { return nil }
        at &+= 1
        while at < limit, base[at] == 0x20 { at &+= 1 }
        guard at < limit, base[at] == 0x22 else { return nil }
        return at &+ 1
    }
}
