/// The last value each field had, so that the next line with the same bytes reuses its `String`.
///
/// Logs repeat the same touch target, tab and modal ids line after line, and the same text fields too
/// long to be kept inline (`CompactText`: session ids, screens over 16 bytes). Comparing a few bytes is
/// much cheaper than building a `String` (a UTF-8 validation pass, and an allocation for values longer
/// than 15 bytes), and a reused `String` shares its storage. One entry per field; values longer than
/// `maxLength` are not remembered.
struct RecentStrings {
    /// Long enough for UUIDs (36 bytes), which apps often use as session and device ids.
    static let maxLength = 64

    private let bytes: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<Int>
    private let strings: UnsafeMutablePointer<String>
    private let slots: Int

    init(slots: Int) {
        self.slots = slots
        bytes = .allocate(capacity: slots * Self.maxLength)
        bytes.initialize(repeating: 0, count: slots * Self.maxLength)
        lengths = .allocate(capacity: slots)
        lengths.initialize(repeating: -1, count: slots)
        strings = .allocate(capacity: slots)
        strings.initialize(repeating: "", count: slots)
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        strings.deinitialize(count: slots)
        strings.deallocate()
        lengths.deallocate()
        bytes.deallocate()
    }

    /// The `String` of `count` validated UTF-8 bytes at `start`, reused if `slot` last held the same.
    @inline(__always)
    func string(slot: Int, start: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= Self.maxLength else { return Self.make(start, count) }
        let remembered = bytes + slot &* Self.maxLength
        if lengths[slot] == count, ByteComparison.equal(remembered, start, count: count) { return strings[slot] }
        let string = Self.make(start, count)
        remembered.update(from: start, count: count)
        lengths[slot] = count
        strings[slot] = string
        return string
    }

    @inline(__always)
    private static func make(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
