/// The SDK sessions an importer has seen, each with what it learned of it (`SessionLaunches`): found
/// by name, names comparing as Swift strings compare, and remembered by the bytes a name stands as in
/// its line.
///
/// Why: with thousands of sessions interleaved, nearly every event is of another session than the
/// last, and a look-up by `String` made a `String` of its name (an allocation past 15 bytes) and
/// hashed it with SipHash. A name of at most 16 bytes, or a canonical UUID, is two words
/// (`CompactText`'s inline form, one form a text); once a name is found, its words point at its session,
/// so that its later events find it with one multiply and a compare. Equal words are equal bytes, and
/// equal bytes are one name: a remembered place is always the one the `String` would find. A name
/// of another length is always looked up by its `String`.
///
/// Linear probing over a power-of-two table at most half full, never removed from (an importer keeps
/// every session it has seen). Which slot a name lands in does not decide what is found, only how
/// fast: names chosen to collide make look-ups slower, never wrong.
///
/// Each place is marked when its session is read and when its state changes, so that a nightly run
/// checkpoints what it learned without comparing every session it restored (`forEachMarked`).
struct ImportedSessions: ~Copyable {
    private var places: [String: Int] = [:]
    /// Each session's state, by place.
    private(set) var states: [EventImporter.SessionLaunches] = []
    /// Each session's marks, by place (`read`, `changed`).
    private var marks: [UInt8] = []
    static let read: UInt8 = 1
    static let changed: UInt8 = 2

    private struct Slot {
        var low: UInt64
        var high: UInt64
        /// `CompactText`'s count (a byte count up to 16, or a packed UUID's code); 0xFF for an empty slot.
        var count: UInt8
        var place: Int32
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private var remembered = 0
    private static let empty: UInt8 = 0xFF

    init() {
        let capacity = 1024
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(low: 0, high: 0, count: Self.empty, place: 0), count: capacity)
        mask = capacity &- 1
    }

    deinit {
        slots.deallocate()
    }

    var count: Int { states.count }

    /// The two words and count a name of these bytes is remembered by, or nil when it is not.
    @inline(__always)
    private static func key(_ raw: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64, count: UInt8)? {
        guard let start = raw.baseAddress else { return nil }
        if raw.count <= CompactText.inlineCapacity {
            let words = CompactText.inlineWords(start, count: raw.count, readable: raw.count)
            return (words.low, words.high, UInt8(truncatingIfNeeded: raw.count))
        }
        return raw.count == PackedUUID.textLength ? PackedUUID.pack(start) : nil
    }

    @inline(__always)
    private func home(_ key: (low: UInt64, high: UInt64, count: UInt8)) -> Int {
        let mixed = (key.low ^ UInt64(key.count)) &* 0x9E37_79B9_7F4A_7C15 ^ key.high &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: (mixed ^ mixed &>> 29) & UInt64(mask))
    }

    /// The place of the session whose name stands in its line as `raw` (`name` being that name as a
    /// `String`, made only when needed), or nil when none is kept; a session found is marked read.
    mutating func place(raw: UnsafeBufferPointer<UInt8>, name: () -> String) -> Int? {
        let key = Self.key(raw)
        if let key {
            var slot = home(key)
            while slots[slot].count != Self.empty {
                if slots[slot].count == key.count, slots[slot].low == key.low, slots[slot].high == key.high {
                    let place = Int(slots[slot].place)
                    marks[place] |= Self.read
                    return place
                }
                slot = (slot &+ 1) & mask
            }
        }
        guard let place = places[name()] else { return nil }
        if let key { remember(key, place) }
        marks[place] |= Self.read
        return place
    }

    /// Keeps `state` for the session at `place`, or for a new one named `name` (standing in its line
    /// as `raw`) when `place` is nil; returns its place.
    mutating func keep(
        _ state: EventImporter.SessionLaunches, at place: Int?, raw: UnsafeBufferPointer<UInt8>, name: () -> String
    ) -> Int {
        if let place {
            states[place] = state
            marks[place] |= Self.read | Self.changed
            return place
        }
        let place = states.count
        states.append(state)
        marks.append(Self.read | Self.changed)
        places[name()] = place
        if let key = Self.key(raw) { remember(key, place) }
        return place
    }

    /// Keeps `state` for the session named `name`, as an earlier run left it, unmarked. Its name's
    /// bytes are remembered only when a line holds them as they are (no escape needed): other bytes
    /// in a line stand for another name.
    mutating func restore(_ state: EventImporter.SessionLaunches, name: String) {
        if let place = places[name] {
            states[place] = state
            return
        }
        let place = states.count
        states.append(state)
        marks.append(0)
        places[name] = place
        var name = name
        let plain = name.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }
        guard plain else { return }
        name.withUTF8 { bytes in
            if let key = Self.key(bytes) { remember(key, place) }
        }
    }

    /// Calls `body` with each session marked since the last call (read, maybe changed), and clears
    /// the marks. Goes over every session known: called once a run, not per event.
    mutating func forEachMarked(_ body: (_ name: String, _ state: EventImporter.SessionLaunches, _ changed: Bool) throws -> Void) rethrows {
        for (name, place) in places where marks[place] != 0 {
            try body(name, states[place], marks[place] & Self.changed != 0)
        }
        for place in marks.indices { marks[place] = 0 }
    }

    private mutating func remember(_ key: (low: UInt64, high: UInt64, count: UInt8), _ place: Int) {
        if (remembered &+ 1) &* 2 > mask &+ 1 { grow() }
        var slot = home(key)
        while slots[slot].count != Self.empty { slot = (slot &+ 1) & mask }
        slots[slot] = Slot(low: key.low, high: key.high, count: key.count, place: Int32(truncatingIfNeeded: place))
        remembered &+= 1
    }

    private mutating func grow() {
        let old = slots
        let oldCapacity = mask &+ 1
        let capacity = oldCapacity &* 2
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(low: 0, high: 0, count: Self.empty, place: 0), count: capacity)
        mask = capacity &- 1
        for index in 0..<oldCapacity where old[index].count != Self.empty {
            let entry = old[index]
            var slot = home((entry.low, entry.high, entry.count))
            while slots[slot].count != Self.empty { slot = (slot &+ 1) & mask }
            slots[slot] = entry
        }
        old.deallocate()
    }
}
