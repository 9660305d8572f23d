import CZlib

/// zlib's inflate over the members of a gzip file, one at a time (SPEC §7: exports come gzipped).
/// The stream state is allocated once per file and reset between members.
struct GzipMembers {
    enum Status: Equatable {
        /// The member's data and trailer were read whole (its CRC and length checked).
        case memberEnded
        /// More input, or more output space, is needed.
        case needsMore
        /// The member cannot be inflated; the reason is zlib's.
        case corrupt(String)
    }

    private var stream: UnsafeMutablePointer<z_stream>
    private var ready: Bool

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        ready = hig_audit_inflate_init_gzip(stream) == Z_OK
    }

    /// Whether `bytes` start a gzip member: its magic number and the deflate method.
    static func startsMember(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 3 else { return false }
        let b = bytes.assumingMemoryBound(to: UInt8.self)
        return b[0] == 0x1F && b[1] == 0x8B && b[2] == 0x08
    }

    mutating func reset() {
        if ready { inflateReset(stream) } else {
            ready = hig_audit_inflate_init_gzip(stream) == Z_OK
        }
    }

    /// Inflates from `input` into `output`; says how much of each was used.
    mutating func inflate(
        _ input: UnsafeMutableRawPointer, count: Int, into output: UnsafeMutableRawPointer, capacity: Int
    ) -> (consumed: Int, produced: Int, status: Status) {
        guard ready else { return (0, 0, .corrupt("zlib could not be set up (out of memory)")) }
        let inCount = UInt32(clamping: count)
        let outCount = UInt32(clamping: capacity)
        stream.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = inCount
        stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = outCount
        let result = CZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = Int(inCount - stream.pointee.avail_in)
        let produced = Int(outCount - stream.pointee.avail_out)
        switch result {
        case Z_STREAM_END:
            return (consumed, produced, .memberEnded)
        case Z_OK, Z_BUF_ERROR:
            return (consumed, produced, .needsMore)
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
            // The stream is unusable after an error until it is reset.
            inflateReset(stream)
            return (consumed, produced, .corrupt(message))
        }
    }

    mutating func end() {
        if ready { inflateEnd(stream) }
        ready = false
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
