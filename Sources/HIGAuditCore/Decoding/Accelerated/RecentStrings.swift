/// The last values each field had, so that a later line with the same bytes reuses their `String`.
///
/// Logs repeat the same touch target, tab and modal ids line after line, and the same text fields too
/// long to be kept inline (`CompactText`: session ids, screens over 16 bytes). Comparing a few bytes is
/// much cheaper than building a `String` (a UTF-8 validation pass, and an allocation for values longer
/// than 15 bytes), and a reused `String` shares its storage. An upload interleaves many devices' lines,
/// each on its own target or screen, so the value before is seldom the line's: each field keeps `ways`
/// values, a value's place among them chosen by its length and last bytes (`way`), so that a few values
/// taking turns each keep theirs; the place a field used last is tried first, so a value repeated line
/// after line costs one comparison, as with one place. A value is returned only for the same bytes; which place it takes
/// changes what is remembered, never what is returned. Values longer than `maxLength` are not remembered.
struct RecentStrings {
    /// Long enough for UUIDs (36 bytes), which apps often use as session and device ids.
    static let maxLength = 64
    /// Values remembered per field (a power of two): enough that the few dozen touch targets of an
    /// app's screens, interleaved across devices, seldom push each other out (`way` spreads them by
    /// hash, not by use). A decoder lives for the run, so its room is made once.
    static let ways = 32

    private let bytes: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<Int>
    private let strings: UnsafeMutablePointer<String>
    /// Per field, the entry it used last.
    private let latest: UnsafeMutablePointer<Int>
    private let slots: Int

    init(slots: Int) {
        self.slots = slots
        let entries = slots * Self.ways
        bytes = .allocate(capacity: entries * Self.maxLength)
        bytes.initialize(repeating: 0, count: entries * Self.maxLength)
        lengths = .allocate(capacity: entries)
        lengths.initialize(repeating: -1, count: entries)
        strings = .allocate(capacity: entries)
        strings.initialize(repeating: "", count: entries)
        latest = .allocate(capacity: slots)
        for slot in 0..<slots { (latest + slot).initialize(to: slot * Self.ways) }
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        strings.deinitialize(count: slots * Self.ways)
        strings.deallocate()
        latest.deallocate()
        lengths.deallocate()
        bytes.deallocate()
    }

    /// The `String` of `count` validated UTF-8 bytes at `start`, reused if `slot` held the same bytes
    /// in the entry it used last or at their place (`way`), and has not held other bytes there since.
    @inline(__always)
    func string(slot: Int, start: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= Self.maxLength else { return Self.make(start, count) }
        let last = latest[slot]
        if lengths[last] == count, ByteComparison.equal(bytes + last &* Self.maxLength, start, count: count) {
            return strings[last]
        }
        let entry = slot &* Self.ways &+ Self.way(start, count: count)
        latest[slot] = entry
        let remembered = bytes + entry &* Self.maxLength
        if lengths[entry] == count, ByteComparison.equal(remembered, start, count: count) { return strings[entry] }
        let string = Self.make(start, count)
        remembered.update(from: start, count: count)
        lengths[entry] = count
        strings[entry] = string
        return string
    }

    /// The place of a value among its field's `ways`: a hash of its length and of its last eight
    /// bytes (of its first, middle and last byte when shorter), which tell apart values that share a
    /// prefix (`button:save`, `button:done`). Reads only the value's bytes.
    @inline(__always)
    static func way(_ start: UnsafePointer<UInt8>, count: Int) -> Int {
        var key = UInt64(truncatingIfNeeded: count)
        if count >= 8 {
            key ^= UnsafeRawPointer(start + (count &- 8)).loadUnaligned(as: UInt64.self)
        } else if count > 0 {
            key ^= UInt64(start[0]) &<< 8 | UInt64(start[count &>> 1]) &<< 16 | UInt64(start[count &- 1]) &<< 24
        }
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 &- ways.trailingZeroBitCount))
    }

    @inline(__always)
    private static func make(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
