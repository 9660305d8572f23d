import Testing
@testable import HIGAuditCore

/// The word-at-a-time comparisons (`ByteComparison.equal`, and `LineShapes.equal`, which takes 16 bytes
/// at a time and leaves shorter runs to it) must say exactly what a byte loop says, for every length
/// and wherever the one differing byte lies, and read nothing outside the runs.
@Suite struct ByteComparisonTests {
    @Test func everyLengthAndEveryDifferingByte() {
        for count in 0...40 {
            // Exactly `count` bytes each, so that a read past either run would go out of the allocation.
            let a = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
            let b = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
            defer {
                a.deallocate()
                b.deallocate()
            }
            for i in 0..<count {
                a[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11)
                b[i] = a[i]
            }
            #expect(ByteComparison.equal(a, b, count: count), "length \(count)")
            #expect(LineShapes.equal(a, UnsafeRawPointer(b), count: count), "length \(count)")
            for position in 0..<count {
                b[position] ^= 0x20
                #expect(!ByteComparison.equal(a, b, count: count), "length \(count), byte \(position)")
                #expect(!LineShapes.equal(a, UnsafeRawPointer(b), count: count), "length \(count), byte \(position)")
                b[position] = a[position]
            }
        }
    }
}
