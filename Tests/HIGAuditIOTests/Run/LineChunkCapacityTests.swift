import Testing
@testable import HIGAuditIO

/// A chunk grows to take a long line (an export's may be 64 MiB) and shrinks back when it is next
/// filled with short lines, so that the chunks in flight hold long lines only while such lines come.
@Suite struct LineChunkCapacityTests {
    struct Counting: LineSink {
        var lengths: [Int] = []
        mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) { lengths.append(bytes.count) }
        mutating func oversizedLine(number: Int64, byteCount: Int64) {}
    }

    @Test func aChunkGrownForALongLineShrinksForShortOnes() {
        let chunk = LineChunk()
        let long = [UInt8](repeating: 0x61, count: 3 * LineChunk.byteCapacity)
        #expect(chunk.makeRoom(for: long.count))
        long.withUnsafeBytes { chunk.appendLine($0, number: 1) }
        #expect(chunk.capacity == long.count)
        var sink = Counting()
        chunk.replay(into: &sink, say: { _ in })
        #expect(sink.lengths == [long.count])
        let short = [UInt8](repeating: 0x62, count: 300)
        #expect(chunk.makeRoom(for: short.count))
        short.withUnsafeBytes { chunk.appendLine($0, number: 2) }
        #expect(chunk.capacity == LineChunk.byteCapacity)
        chunk.replay(into: &sink, say: { _ in })
        #expect(sink.lengths == [long.count, 300])
    }
}
