/// The parts of the zstd frame format (RFC 8878 §3.1) the reader walks itself: magic numbers, frame
/// headers and block headers. Walking them lets the reader find where every frame ends without the
/// decoder — to skip a corrupt, refused or dictionary-less frame and go on with the next one.
enum ZstdFrameFormat {
    /// 0xFD2FB528, stored little-endian: `28 B5 2F FD`.
    static let frameMagic: UInt32 = 0xFD2F_B528
    /// Skippable frames use 0x184D2A50 … 0x184D2A5F.
    static let skippableMagicMask: UInt32 = 0xFFFF_FFF0
    static let skippableMagicBase: UInt32 = 0x184D_2A50
    /// Magic (4) + frame header descriptor (1): enough to know the header's full size.
    static let headerPrefixBytes = 5
    static let maximumHeaderBytes = 18
    static let skippableHeaderBytes = 8
    static let blockHeaderBytes = 3
    static let checksumBytes = 4
    /// Block_Maximum_Size is at most 128 KiB whatever the window.
    static let maximumBlockBytes = 128 << 10

    enum Magic {
        case frame
        case skippable
        case other
    }

    @inline(__always)
    static func loadLittleEndianUInt32(_ bytes: UnsafeRawPointer) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
    }

    static func classify(_ magic: UInt32) -> Magic {
        if magic == frameMagic { return .frame }
        if magic & skippableMagicMask == skippableMagicBase { return .skippable }
        return .other
    }

    /// True when `bytes` (fewer than 4) could be the start of a frame or skippable magic number: a file
    /// that ends there was most likely cut during an upload.
    static func couldBeMagicPrefix(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18]
        for (index, byte) in bytes.enumerated() {
            let matchesFrame = byte == frame[index]
            let matchesSkippable = index == 0 ? (byte & 0xF0) == 0x50 : byte == skippable[index]
            if !matchesFrame && !matchesSkippable { return false }
        }
        return true
    }
}

/// A parsed zstd frame header (RFC 8878 §3.1.1.1).
struct ZstdFrameHeader: Equatable {
    var headerBytes: Int
    /// Bytes of history the decoder must keep; for single-segment frames the content size.
    var windowSize: UInt64
    var dictionaryID: UInt32
    var contentSize: UInt64?
    var hasChecksum: Bool

    enum ParseResult: Equatable {
        case header(ZstdFrameHeader)
        /// This many bytes (from the magic) are needed before the header can be parsed.
        case needBytes(Int)
        /// The reserved bit of the frame header descriptor is set.
        case invalid(String)
    }

    /// Parses the header at `bytes`, which starts with the frame magic number.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> ParseResult {
        guard bytes.count >= ZstdFrameFormat.headerPrefixBytes else {
            return .needBytes(ZstdFrameFormat.headerPrefixBytes)
        }
        let descriptor = bytes[4]
        let contentSizeFlag = Int(descriptor >> 6)
        let singleSegment = descriptor & 0x20 != 0
        let reserved = descriptor & 0x08 != 0
        let hasChecksum = descriptor & 0x04 != 0
        let dictionaryIDFlag = Int(descriptor & 0x03)
        if reserved { return .invalid("reserved bit set in the frame header descriptor") }

        let windowDescriptorBytes = singleSegment ? 0 : 1
        let dictionaryIDBytes = [0, 1, 2, 4][dictionaryIDFlag]
        let contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]
        let total = ZstdFrameFormat.headerPrefixBytes + windowDescriptorBytes + dictionaryIDBytes + contentSizeBytes
        guard bytes.count >= total else { return .needBytes(total) }

        var position = ZstdFrameFormat.headerPrefixBytes
        var windowSize: UInt64 = 0
        if !singleSegment {
            let windowDescriptor = bytes[position]
            position += 1
            let windowLog = 10 + UInt64(windowDescriptor >> 3)
            let windowBase: UInt64 = 1 << windowLog
            windowSize = windowBase + (windowBase / 8) * UInt64(windowDescriptor & 0x07)
        }
        let dictionaryID = UInt32(truncatingIfNeeded: readLittleEndian(bytes, at: position, count: dictionaryIDBytes))
        position += dictionaryIDBytes
        var contentSize: UInt64?
        if contentSizeBytes > 0 {
            var value = readLittleEndian(bytes, at: position, count: contentSizeBytes)
            if contentSizeBytes == 2 { value &+= 256 }
            contentSize = value
        }
        if singleSegment { windowSize = contentSize ?? 0 }
        return .header(ZstdFrameHeader(
            headerBytes: total, windowSize: windowSize, dictionaryID: dictionaryID,
            contentSize: contentSize, hasChecksum: hasChecksum))
    }

    private static func readLittleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in stride(from: count - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[offset + index])
        }
        return value
    }
}

/// Follows a zstd frame's structure — header, block headers, block contents, checksum — over bytes
/// as they arrive, without decoding, to know exactly where the frame ends.
///
/// It only checks what it must to stay in step (block type and size); the decoder judges the rest.
struct ZstdFrameWalker {
    enum State: Equatable {
        case header(remaining: Int)
        case blockHeader
        case blockContent(remaining: Int, last: Bool)
        case checksum(remaining: Int)
        case finished
    }

    enum Status: Equatable {
        /// All given bytes belong to the frame; it goes on.
        case needMore
        case finished
        /// The structure is impossible here (reserved block type, block larger than 128 KiB).
        case invalid(String)
    }

    private(set) var state: State
    let hasChecksum: Bool

    init(header: ZstdFrameHeader) {
        state = .header(remaining: header.headerBytes)
        hasChecksum = header.hasChecksum
    }

    /// Walks over `bytes` (the frame's next bytes); returns how many belong to the frame and where that
    /// left it. A block header split across calls is not consumed until all three bytes are given.
    mutating func advance(over bytes: UnsafeRawBufferPointer) -> (consumed: Int, status: Status) {
        var position = 0
        let count = bytes.count
        while true {
            switch state {
            case .header(let remaining):
                let step = min(remaining, count - position)
                position += step
                if step < remaining {
                    state = .header(remaining: remaining - step)
                    return (position, .needMore)
                }
                state = .blockHeader
            case .blockHeader:
                guard count - position >= ZstdFrameFormat.blockHeaderBytes else { return (position, .needMore) }
                let raw = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
                let last = raw & 1 != 0
                let type = (raw >> 1) & 3
                let size = Int(raw >> 3)
                if type == 3 { return (position, .invalid("reserved block type")) }
                if size > ZstdFrameFormat.maximumBlockBytes {
                    return (position, .invalid("block size \(size) exceeds 128 KiB"))
                }
                position += ZstdFrameFormat.blockHeaderBytes
                // An RLE block stores one byte, repeated `size` times.
                state = .blockContent(remaining: type == 1 ? 1 : size, last: last)
            case .blockContent(let remaining, let last):
                let step = min(remaining, count - position)
                position += step
                if step < remaining {
                    state = .blockContent(remaining: remaining - step, last: last)
                    return (position, .needMore)
                }
                if !last {
                    state = .blockHeader
                } else if hasChecksum {
                    state = .checksum(remaining: ZstdFrameFormat.checksumBytes)
                } else {
                    state = .finished
                }
            case .checksum(let remaining):
                let step = min(remaining, count - position)
                position += step
                if step < remaining {
                    state = .checksum(remaining: remaining - step)
                    return (position, .needMore)
                }
                state = .finished
            case .finished:
                return (position, .finished)
            }
        }
    }

    /// Bytes the walker must see at once before it can move on (a whole block header), else 1.
    var minimumBytesToProgress: Int {
        state == .blockHeader ? ZstdFrameFormat.blockHeaderBytes : 1
    }
}
