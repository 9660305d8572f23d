/// One session's accepted events that rules may not see yet, because a later accepted event could
/// still sort before them (SPEC §2: input may be out of order by up to `max_lateness_ms`).
///
/// A ring buffer kept sorted by `ts`, equal `ts` in input order. Input is nearly sorted, so inserting
/// scans from the back and usually appends at once; releasing takes from the front. Both are O(1) on
/// sorted input and O(buffer) at worst; the storage settles at the session's working size and is
/// reused, so steady state allocates nothing. Released slots are `nil`: taking an event out moves it.
struct ReorderBuffer {
    private var slots: [Event?] = []
    /// The `ts` of each occupied slot, kept beside the events so that finding an insertion point or
    /// testing the oldest event reads 8 bytes instead of copying (and retaining) a whole `Event?`.
    private var stamps: [Int64] = []
    /// Index of the oldest event in `slots`.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func slot(_ offset: Int) -> Int {
        // Capacity is a power of two.
        (head &+ offset) & (slots.count &- 1)
    }

    @inline(__always)
    mutating func insert(_ event: consuming Event) {
        if count == slots.count { grow() }
        let ts = event.ts
        // Strictly greater: an equal `ts` goes after the ones already there, keeping input order.
        var position = count
        while position > 0, stamps[slot(position &- 1)] > ts { position &-= 1 }
        var index = count
        while index > position {
            let to = slot(index)
            let from = slot(index &- 1)
            slots.swapAt(to, from)
            stamps[to] = stamps[from]
            index &-= 1
        }
        let target = slot(position)
        slots[target] = consume event
        stamps[target] = ts
        count &+= 1
    }

    /// The oldest event if its `ts` is at most `threshold`, removed from the buffer.
    @inline(__always)
    mutating func popFirst(notAfter threshold: Int64) -> Event? {
        guard count > 0, stamps[head] <= threshold else { return nil }
        let event = slots[head].take()
        head = slot(1)
        count &-= 1
        return event
    }

    /// The oldest event, whatever its `ts` (the session is closing).
    mutating func popFirst() -> Event? {
        popFirst(notAfter: .max)
    }

    private mutating func grow() {
        let capacity = max(slots.count * 2, 8)
        var larger = [Event?](repeating: nil, count: capacity)
        var largerStamps = [Int64](repeating: 0, count: capacity)
        for offset in 0..<count {
            larger[offset] = slots[slot(offset)].take()
            largerStamps[offset] = stamps[slot(offset)]
        }
        slots = larger
        stamps = largerStamps
        head = 0
    }
}
