import CZstd

/// How one zstd frame is written: SPEC §2 readers must accept frames with or without a content size
/// and a checksum, so the sample generator and tests vary both.
public struct ZstdFrameOptions: Sendable, Equatable {
    /// zstd compression level (1 fast … 19 small; negative = faster still).
    public var level: Int32
    /// Append the 32-bit XXH64-based content checksum.
    public var checksum: Bool
    /// Record the decompressed size in the frame header.
    public var contentSize: Bool

    public init(level: Int32 = 3, checksum: Bool = true, contentSize: Bool = true) {
        self.level = level
        self.checksum = checksum
        self.contentSize = contentSize
    }
}

/// A libzstd failure, with the library's own message.
public struct ZstdEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { "zstd compression failed: \(message)" }
}

/// Compresses byte chunks into independent zstd frames, reusing one compression context.
///
/// Not thread-safe: one encoder per thread. Each call produces one complete frame, so frames can be
/// concatenated in any number (as uploads append them).
public final class ZstdFrameEncoder {
    private let context: OpaquePointer

    public init() throws {
        guard let context = ZSTD_createCCtx() else { throw ZstdEncodingError(message: "cannot allocate a context") }
        self.context = context
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Appends one frame holding `input` to `output`.
    public func appendFrame(_ input: UnsafeRawBufferPointer, options: ZstdFrameOptions, to output: inout [UInt8]) throws {
        ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters)
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, options.level))
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, options.checksum ? 1 : 0))
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, options.contentSize ? 1 : 0))
        // The frame is written into raw memory and appended as one contiguous copy: growing the array
        // by a generic sequence of zeros ran byte by byte in debug builds, where tests generate samples.
        let bound = ZSTD_compressBound(input.count)
        let frame = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bound))
        defer { frame.deallocate() }
        let written = ZSTD_compress2(context, frame.baseAddress, bound, input.baseAddress, input.count)
        if ZSTD_isError(written) != 0 {
            throw ZstdEncodingError(message: String(cString: ZSTD_getErrorName(written)))
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: frame[..<written]))
    }

    /// One frame holding `input`.
    public func frame(_ input: [UInt8], options: ZstdFrameOptions = ZstdFrameOptions()) throws -> [UInt8] {
        var output: [UInt8] = []
        try input.withUnsafeBytes { try appendFrame($0, options: options, to: &output) }
        return output
    }

    /// A skippable frame (magic `0x184D2A50 + variant`, variant 0…15): data every reader must skip.
    public static func skippableFrame(variant: UInt8, payload: [UInt8]) -> [UInt8] {
        let magic = UInt32(0x184D_2A50) | UInt32(variant & 0x0F)
        let size = UInt32(truncatingIfNeeded: payload.count)
        var frame: [UInt8] = []
        frame.reserveCapacity(8 + payload.count)
        for shift in stride(from: 0, to: 32, by: 8) { frame.append(UInt8(truncatingIfNeeded: magic >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { frame.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        frame.append(contentsOf: payload)
        return frame
    }

    private func check(_ code: Int) throws {
        if ZSTD_isError(code) != 0 { throw ZstdEncodingError(message: String(cString: ZSTD_getErrorName(code))) }
    }
}
