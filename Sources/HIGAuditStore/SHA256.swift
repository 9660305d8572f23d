import Crypto

/// SHA-256 (FIPS 180-4), streaming: how the store identifies an input file by its content.
///
/// A cryptographic hash rather than a fast one because a collision would silently drop a file from the
/// results. Computed by swift-crypto (BoringSSL, which uses the CPU's SHA instructions where it has
/// them): hashing the input is the largest part of what the nightly job adds to `analyze`.
/// `finalizedHex()` leaves the hasher usable, so one pass over a file yields the digests of several
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

    /// The digest of everything hashed so far, in lower-case hexadecimal as the store keeps digests;
    /// the hasher can go on.
    func finalizedHex() -> String {
        // Finalising a copy leaves this hasher's state as it was.
        let copy = hasher
        return copy.finalize().withUnsafeBytes(Self.hexadecimal)
    }

    /// Two lower-case hexadecimal digits a byte, written straight into the string's storage: the
    /// nightly run makes a few of these for every input file it identifies.
    static func hexadecimal(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { digits in
            for (index, byte) in bytes.enumerated() {
                digits[2 * index] = hexDigit(byte >> 4)
                digits[2 * index + 1] = hexDigit(byte & 15)
            }
            return bytes.count * 2
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
