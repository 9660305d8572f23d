/// Whether a string's UTF-8 holds any byte of a small set, sixteen bytes at a time: the writers ask it
/// of every text cell (does it need quotes, does it need escapes?), too often for a test per byte.
///
/// A test is of a 16-byte vector (`SIMD16<UInt8>`), whose lane comparisons against a whole vector
/// compile to SSE2's byte compares (`pcmpeqb`, `pminub`); a comparison with a scalar does not (it
/// becomes a loop over the lanes), so the writers compare with `repeating` vectors. Every byte of the
/// text is tested in a vector and no other byte is: text of 16 bytes or more 16 at a time, its last
/// few bytes in its last 16 (overlapping bytes already tested, none of which qualified); shorter text
/// in one vector filled with its own bytes, head and tail overlapping and repeated.
enum ByteScan {
    typealias Vector = SIMD16<UInt8>

    /// Whether any lane of `mask` is set.
    @inline(__always)
    static func any(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Whether `bytes` has a byte that qualifies, for a `vectorTest` that holds for a vector exactly
    /// when one of its lanes qualifies.
    @inline(__always)
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, vector vectorTest: (Vector) -> Bool) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        guard count > 16 else { return vectorTest(vector(of: raw, count: count)) }
        var index = 0
        while index &+ 16 <= count {
            if vectorTest(raw.loadUnaligned(fromByteOffset: index, as: Vector.self)) { return true }
            index &+= 16
        }
        return index < count && vectorTest(raw.loadUnaligned(fromByteOffset: count &- 16, as: Vector.self))
    }

    /// The 1 to 16 bytes at `raw` in a vector of them alone: two loads that overlap in the middle
    /// (two words, two halves, two quarters), repeated to fill the lanes, or one byte in every lane.
    @inline(__always)
    static func vector(of raw: UnsafeRawPointer, count: Int) -> Vector {
        switch count {
        case 8...:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            return unsafeBitCast(SIMD2<UInt64>(head, tail), to: Vector.self)
        case 4...:
            let head = UInt64(raw.loadUnaligned(as: UInt32.self))
            let tail = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return unsafeBitCast(SIMD2<UInt64>(repeating: head | tail << 32), to: Vector.self)
        case 2...:
            let head = UInt32(raw.loadUnaligned(as: UInt16.self))
            let tail = UInt32(raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            return unsafeBitCast(SIMD4<UInt32>(repeating: head | tail << 16), to: Vector.self)
        default:
            return Vector(repeating: raw.load(as: UInt8.self))
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text` in contiguous memory (a copy's only if they are not).
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }
}
