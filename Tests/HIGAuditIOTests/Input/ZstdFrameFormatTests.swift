import Testing
@testable import HIGAuditIO

/// Frame and block headers as RFC 8878 §3.1.1 lays them out, walked without the decoder.
@Suite struct ZstdFrameFormatTests {
    static func parse(_ bytes: [UInt8]) -> ZstdFrameHeader.ParseResult {
        bytes.withUnsafeBytes { ZstdFrameHeader.parse($0) }
    }

    static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    @Test func windowDescriptorWithMantissa() {
        // Exponent 17 (2^27), mantissa 3: 2^27 + 3 × 2^24. Checksum flag, 4-byte dictionary id.
        let header = Self.parse(Self.magic + [0x07, 17 << 3 | 3, 0x78, 0x56, 0x34, 0x12])
        #expect(header == .header(ZstdFrameHeader(
            headerBytes: 10, windowSize: (1 << 27) + 3 * (1 << 24), dictionaryID: 0x1234_5678,
            contentSize: nil, hasChecksum: true)))
    }

    @Test func singleSegmentFrameTakesItsWindowFromTheContentSize() {
        // Content size flag 1 (2 bytes, + 256), single segment.
        let header = Self.parse(Self.magic + [0x60, 0x10, 0x00])
        #expect(header == .header(ZstdFrameHeader(
            headerBytes: 7, windowSize: 272, dictionaryID: 0, contentSize: 272, hasChecksum: false)))
    }

    @Test func incompleteAndInvalidHeaders() {
        #expect(Self.parse(Self.magic) == .needBytes(5))
        #expect(Self.parse(Self.magic + [0xC0]) == .needBytes(14))
        if case .invalid = Self.parse(Self.magic + [0x08, 0]) {} else { Issue.record("reserved bit accepted") }
    }

    @Test func walkerFindsTheFrameEndAcrossSplitBlockHeaders() {
        guard case .header(let header) = Self.parse(Self.magic + [0x04, 0x00]) else {
            Issue.record("header not parsed")
            return
        }
        // Raw block of 2 bytes, RLE block of 1000 (1 stored byte, last), 4-byte checksum, then extra.
        let raw: [UInt8] = [UInt8(2 << 3 | 0), 0, 0]
        let rle: [UInt8] = [UInt8(truncatingIfNeeded: 1000 << 3 | 1 << 1 | 1), UInt8(truncatingIfNeeded: 1000 >> 5), 0]
        let frame = Self.magic + [0x04, 0x00] + raw + [7, 7] + rle + [9] + [1, 2, 3, 4]
        var walker = ZstdFrameWalker(header: header)
        var consumed = 0
        var status = ZstdFrameWalker.Status.needMore
        // Feed one byte more each time; a block header is taken only once all three bytes are there.
        var limit = 1
        while status == .needMore && limit <= frame.count + 3 {
            let slice = Array((frame + [0xAA, 0xBB, 0xCC])[consumed..<min(frame.count + 3, limit)])
            let step = slice.withUnsafeBytes { walker.advance(over: $0) }
            consumed += step.consumed
            status = step.status
            limit += 1
        }
        #expect(status == .finished)
        #expect(consumed == frame.count)
    }

    @Test func walkerRejectsReservedBlocksAndOversizedBlocks() {
        guard case .header(let header) = Self.parse(Self.magic + [0x00, 0x00]) else { return }
        var reserved = ZstdFrameWalker(header: header)
        let first = ([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x07, 0x00, 0x00] as [UInt8]).withUnsafeBytes { reserved.advance(over: $0) }
        #expect(first.consumed == 6)
        if case .invalid = first.status {} else { Issue.record("reserved block type accepted") }

        var oversized = ZstdFrameWalker(header: header)
        let size = (128 << 10) + 1
        let blockHeader: [UInt8] = [UInt8(truncatingIfNeeded: size << 3 | 2 << 1), UInt8(truncatingIfNeeded: size >> 5), UInt8(truncatingIfNeeded: size >> 13)]
        let second = (Self.magic + [0x00, 0x00] + blockHeader).withUnsafeBytes { oversized.advance(over: $0) }
        if case .invalid = second.status {} else { Issue.record("block over 128 KiB accepted") }
    }

    @Test func magicPrefixesAreRecognised() {
        for prefix: [UInt8] in [[0x28], [0x28, 0xB5, 0x2F], [0x5C, 0x2A], [0x50, 0x2A, 0x4D]] {
            #expect(prefix.withUnsafeBytes { ZstdFrameFormat.couldBeMagicPrefix($0) }, "\(prefix)")
        }
        for other: [UInt8] in [[0x0A], [0x28, 0xB6], [0x60, 0x2A]] {
            #expect(!other.withUnsafeBytes { ZstdFrameFormat.couldBeMagicPrefix($0) }, "\(other)")
        }
    }
}
