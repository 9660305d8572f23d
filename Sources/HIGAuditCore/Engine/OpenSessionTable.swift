/// The engine's open sessions by key (`SessionEngine.open`): an open-addressing hash table of
/// `CompactText` keys and session pointers, in place of `[CompactText: UnsafeMutablePointer<OpenSession>]`.
///
/// When uploads of thousands of devices are read interleaved, nearly every event is of another
/// session than the previous one and is looked up here. `Dictionary` hashes the key's three parts with
/// SipHash; an inline key (nearly every session id: up to 16 bytes, or a UUID packed into 16) is already
/// two words, so one folded multiply of them with the table's random seed spreads it (as wyhash and
/// aHash do), and a slot holds the key's words and the pointer side by side, so that a probe reads one
/// slot and never the session. Keys of more than 16 bytes (rare) are hashed by `Hasher`.
///
/// Linear probing, a power-of-two capacity, at most half full; removal shifts the following entries
/// back (no tombstones), so probes stay as short as the load allows however many sessions have come
/// and gone. The seed is drawn per table: which slot a key lands in cannot be chosen by whoever writes
/// the log. Iteration order is unspecified, as a dictionary's; the engine sorts where order matters.
///
/// Noncopyable: it owns its slots' memory, freed in `deinit`, and never the sessions, which the engine
/// frees.
struct OpenSessionTable: ~Copyable {
    private struct Slot {
        /// nil for an empty slot.
        var session: UnsafeMutablePointer<OpenSession>?
        var key: CompactText
    }

    private var slots: UnsafeMutablePointer<Slot>
    /// Capacity − 1; the capacity is a power of two.
    private var mask: Int
    /// The top bits of the hash that index a slot: 64 − log2(capacity).
    private var shift: UInt64
    private(set) var count = 0
    private let seed: (UInt64, UInt64)

    private static let emptyKey = CompactText(low: 0, high: 0, count: 0)

    init() {
        let capacity = 16
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(session: nil, key: Self.emptyKey), count: capacity)
        mask = capacity &- 1
        shift = 64 &- 4
        var generator = SystemRandomNumberGenerator()
        seed = (generator.next(), generator.next() | 1)
    }

    deinit {
        slots.deinitialize(count: mask &+ 1)
        slots.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The slot where a probe for `key` starts.
    @inline(__always)
    private func home(_ key: CompactText) -> Int {
        if let (low, high, count) = key.inlineParts { return home(low: low, high: high, count: count) }
        var hasher = Hasher()
        hasher.combine(seed.0)
        hasher.combine(key)
        return slot(ofHash: UInt64(UInt(bitPattern: hasher.finalize())))
    }

    /// The slot where a probe for the inline key of these parts starts.
    @inline(__always)
    private func home(low: UInt64, high: UInt64, count: UInt8) -> Int {
        let product = (low ^ seed.0).multipliedFullWidth(by: (high &+ UInt64(count)) ^ seed.1)
        return slot(ofHash: product.high ^ product.low)
    }

    @inline(__always)
    private func slot(ofHash hash: UInt64) -> Int {
        // Fibonacci hashing: the top bits of the product, so that every bit of the hash counts.
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The open session whose key is the text in the session slot of `texts`, found from the slot's
    /// words without making the key, which would be made, compared and destroyed for nearly every
    /// event where devices interleave (the previous event's session rarely matches; figures:
    /// `Tests/Benchmarks/README.md`, "The session engine's own costs").
    @inline(__always)
    func session(of texts: borrowing EventTexts) -> UnsafeMutablePointer<OpenSession>? {
        guard let (low, high, count) = texts.inlineParts(.session) else { return self[texts.session] }
        var index = home(low: low, high: high, count: count)
        while let session = slots[index].session {
            if let stored = slots[index].key.inlineParts, stored.low == low, stored.high == high, stored.count == count {
                return session
            }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// The session with `key`, if open.
    @inline(__always)
    subscript(key: CompactText) -> UnsafeMutablePointer<OpenSession>? {
        var index = home(key)
        while let session = slots[index].session {
            if slots[index].key == key { return session }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Adds or replaces the session of `key`; returns the one it replaced.
    @discardableResult
    mutating func insert(_ session: UnsafeMutablePointer<OpenSession>, for key: CompactText)
        -> UnsafeMutablePointer<OpenSession>?
    {
        var index = home(key)
        while let present = slots[index].session {
            if slots[index].key == key {
                slots[index].session = session
                return present
            }
            index = (index &+ 1) & mask
        }
        slots[index] = Slot(session: session, key: key)
        count &+= 1
        if count &* 2 > mask &+ 1 { grow() }
        return nil
    }

    /// Removes the session of `key`; returns it, nil if there was none.
    @discardableResult
    mutating func remove(_ key: CompactText) -> UnsafeMutablePointer<OpenSession>? {
        var index = home(key)
        while let session = slots[index].session {
            if slots[index].key == key {
                closeGap(at: index)
                count &-= 1
                return session
            }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Empties the slot at `gap` and moves back each following entry of the run that may fill it (one
    /// whose home is not cyclically in `(gap, entry]`), so that every key stays reachable from its home
    /// without passing an empty slot.
    private mutating func closeGap(at start: Int) {
        var gap = start
        var index = start
        while true {
            index = (index &+ 1) & mask
            guard slots[index].session != nil else { break }
            let home = home(slots[index].key)
            // Distances from the gap, cyclically: the entry may move into the gap when its home is not
            // strictly after the gap on its way to the entry.
            if (index &- home) & mask >= (index &- gap) & mask {
                slots[gap] = slots[index]
                gap = index
            }
        }
        slots[gap] = Slot(session: nil, key: Self.emptyKey)
    }

    private mutating func grow() {
        let oldSlots = slots
        let oldCapacity = mask &+ 1
        let capacity = oldCapacity &* 2
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(session: nil, key: Self.emptyKey), count: capacity)
        mask = capacity &- 1
        shift &-= 1
        for index in 0..<oldCapacity where oldSlots[index].session != nil {
            var target = home(oldSlots[index].key)
            while slots[target].session != nil { target = (target &+ 1) & mask }
            slots[target] = oldSlots[index]
        }
        oldSlots.deinitialize(count: oldCapacity)
        oldSlots.deallocate()
    }

    /// Every open session, in no particular order.
    var values: [UnsafeMutablePointer<OpenSession>] {
        var all: [UnsafeMutablePointer<OpenSession>] = []
        all.reserveCapacity(count)
        for index in 0...mask { if let session = slots[index].session { all.append(session) } }
        return all
    }
}
