import CZstd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where zstd frames are decoded to: the window ring of zstd's buffer-less API, read by the line
/// splitter in place.
///
/// `ZSTD_decompressStream` decodes each block into a window buffer of its own and then copies it out,
/// a second pass over every decompressed byte. With `ZSTD_decompressContinue` the blocks land in this ring,
/// whose last `windowSize` bytes are the history the next block may refer to, and lines are cut from
/// it where they lie (`LineSplitter.acceptInPlace`).
///
/// The ring grows to the largest frame window met (at most 2^`maxWindowLog` and two blocks: what the
/// streaming decoder allocated for itself) and is kept for later frames and sources.
final class DecodingRing {
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var capacity = 0
    /// One input piece that arrived in parts (`ZSTD_decompressContinue` wants each block whole).
    let staging: UnsafeMutableRawPointer
    static let stagingBytes = ZstdFrameFormat.maximumBlockBytes + ZstdFrameFormat.maximumHeaderBytes

    init() {
        staging = .allocate(byteCount: Self.stagingBytes, alignment: 64)
    }

    deinit {
        free(base)
        staging.deallocate()
    }

    /// Makes room for a frame with this window and content size; false when the memory is not there
    /// (the frame is then refused, as the streaming decoder's allocation failure was).
    func reserve(windowSize: UInt64, contentSize: UInt64?) -> Bool {
        let needed = ZSTD_decodingBufferSize_min(windowSize, contentSize ?? ZSTD_CONTENTSIZE_UNKNOWN)
        guard ZSTD_isError(needed) == 0 else { return false }
        let bytes = max(Int(needed), 1)
        if bytes <= capacity { return true }
        free(base)
        base = malloc(bytes)
        capacity = base == nil ? 0 : bytes
        return base != nil
    }
}
