/// A 64-bit fingerprint of an event `id`, which is what a session remembers for duplicate detection
/// of ids that are not numbered (`SeenIds`), and what a checkpoint keeps of every id.
///
/// Remembering fingerprints instead of the strings keeps an open session's memory at 8 bytes per id
/// and makes the check a hash of the id's bytes plus an integer set lookup. FNV-1a is fixed
/// (not seeded per process), so fingerprints stay valid in a checkpoint across runs. Two different ids
/// of one session sharing a fingerprint would make the later one a false duplicate; for a session with
/// n ids the chance is about n² / 2⁶⁵ (10⁻¹¹ for 20 000 ids).
enum EventIdentity {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    @inline(__always)
    static func fingerprint(_ id: String) -> UInt64 {
        var hash = offsetBasis
        var id = id
        id.withUTF8 { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* prime
            }
        }
        return hash
    }
}
