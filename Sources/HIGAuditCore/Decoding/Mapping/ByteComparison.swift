/// Equality of two runs of bytes of the same length, for the decoder's short values (keys, enum
/// values, repeated strings).
///
/// Eight bytes at a time, the last word overlapping the one before it (two overlapping words, no loop,
/// up to 16 bytes), and two overlapping half words for four to seven bytes: a byte loop's exit mispredicts on nearly every length. Reads only inside
/// both runs.
enum ByteComparison {
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        if count >= 8 {
            if count <= 16 {
                return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                    && x.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                        == y.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            }
            var i = 0
            while count &- i > 8 {
                if x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i &+= 8
            }
            return x.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == y.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        var i = 0
        while i < count {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }
}
