import Crypto

/// SHA-256 (FIPS 180-4), streaming: how the store identifies an input file by its content.
///
/// A cryptographic hash rather than a fast one because a collision would silently drop a file from the
/// results. Computed by swift-crypto (BoringSSL, which uses the CPU's SHA instructions where it has
/// them), as the nightly job hashes every byte it reads. `finalized()` leaves the hasher usable, so one
/// pass over a file yields the digests of several prefixes.
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
    func finalized() -> Digest {
        // Finalising a copy leaves this hasher's state as it was.
        let copy = hasher
        return copy.finalize().withUnsafeBytes { Digest(bytes: $0) }
    }

    /// A digest's 32 bytes as a value, hashed and compared as four words: `examine` looks a file's
    /// prefixes up among the counted heads without making a string of each.
    struct Digest: Hashable {
        private var words: (UInt64, UInt64, UInt64, UInt64)

        init(bytes: UnsafeRawBufferPointer) {
            precondition(bytes.count == 32, "a SHA-256 digest has 32 bytes")
            words = (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        }

        /// The digest written as `hex` writes it (64 lower-case hexadecimal digits); nil for any other
        /// text, which no digest's `hex` equals.
        init?(hex: String) {
            var utf8 = hex.utf8.makeIterator()
            var bytes = [UInt8](repeating: 0, count: 32)
            for index in 0..<32 {
                guard let high = utf8.next().flatMap(Self.value), let low = utf8.next().flatMap(Self.value) else { return nil }
                bytes[index] = high << 4 | low
            }
            guard utf8.next() == nil else { return nil }
            self = bytes.withUnsafeBytes { Digest(bytes: $0) }
        }

        /// Lower-case hexadecimal, as the store keeps digests.
        var hex: String {
            withUnsafeBytes(of: words) { SHA256.hexadecimal($0) }
        }

        static func == (lhs: Digest, rhs: Digest) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }

        private static func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
    }

    /// Two lower-case hexadecimal digits a byte, written straight into the string's storage.
    static func hexadecimal(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { digits in
            // An index loop: an enumerated sequence looks its generic metadata up on every byte in
            // debug builds, where the tests run the nightly job over thousands of files.
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                digits[2 * index] = hexDigit(byte >> 4)
                digits[2 * index + 1] = hexDigit(byte & 15)
                index += 1
            }
            return bytes.count * 2
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
