import HIGAuditIO

/// Compresses one frame the way the sample sink does, for tests that inspect single frames.
enum ZstdFrameEncoderProbe {
    static func frame(_ bytes: [UInt8], checksum: Bool, contentSize: Bool) throws -> [UInt8] {
        try ZstdFrameEncoder().frame(bytes, options: ZstdFrameOptions(level: 3, checksum: checksum, contentSize: contentSize))
    }
}
