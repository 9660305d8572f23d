import Crypto

/// SHA-256 (FIPS 180-4), streaming: how the store identifies an input file by its content.
///
/// A cryptographic hash rather than a fast one because a collision would silently drop a file from the
/// results. Computed by swift-crypto (BoringSSL, which uses the CPU's SHA instructions where it has
/// them): hashing the input is the largest part of what the nightly job adds to `analyze`.
/// `finalized()` leaves the hasher usable, so one pass over a file yields the digests of several
/// prefixes.
struct SHA256 {
    private var hasher = Crypto.SHA256()
    /// Bytes hashed so far.
    private(set) var length: Int64 = 0

    init() {}

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= Int64(bytes.count)
        hasher.update(bufferPointer: bytes)
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything hashed so far; the hasher can go on.
    func finalized() -> [UInt8] {
        // Finalising a copy leaves this hasher's state as it was.
        let copy = hasher
        return Array(copy.finalize())
    }
}

extension Array where Element == UInt8 {
    /// Lower-case hexadecimal, as the store keeps digests.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
