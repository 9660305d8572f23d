import Testing
@testable import HIGAuditCore

/// The bytes a parked session and an imported line are written into: what was written survives every
/// growth, whether appended or stored through `end` into room `reserve` made.
@Suite struct GrowingBytesTests {
    @Test func bytesSurviveGrowthPastTheFirstCapacity() {
        var bytes = GrowingBytes(capacity: 3)
        var expected: [UInt8] = []
        for round in 0..<200 {
            let piece = (0..<(round % 7)).map { UInt8(truncatingIfNeeded: round &* 31 &+ $0) }
            piece.withUnsafeBytes { bytes.append($0) }
            bytes.append(UInt8(truncatingIfNeeded: round))
            expected += piece + [UInt8(truncatingIfNeeded: round)]
        }
        #expect(bytes.count == expected.count)
        #expect(bytes.bytes == expected)
        #expect(bytes.capacity >= expected.count)
    }

    @Test func roomReservedIsWrittenThroughTheEnd() {
        var bytes = GrowingBytes(capacity: 1)
        bytes.append(UInt8(ascii: "a"))
        bytes.reserve(40)
        #expect(bytes.capacity - bytes.count >= 40)
        for offset in 0..<40 { bytes.end[offset] = UInt8(ascii: "b") }
        bytes.count += 40
        #expect(bytes.bytes == [UInt8(ascii: "a")] + Array(repeating: UInt8(ascii: "b"), count: 40))
        bytes.count = 0
        bytes.append(UInt8(ascii: "c"))
        #expect(bytes.withBytes { Array($0) } == [UInt8(ascii: "c")])
    }
}
