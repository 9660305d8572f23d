/// One session's accepted events that rules may not see yet, because a later accepted event could
/// still sort before them (SPEC §2: input may be out of order by up to `max_lateness_ms`).
///
/// A ring buffer kept sorted by `ts`, equal `ts` in input order. Input is nearly sorted, so inserting
/// scans from the back and usually appends at once; releasing takes from the front. Both are O(1) on
/// sorted input and O(buffer) at worst; the storage settles at the session's working size and is
/// reused, so steady state allocates nothing. Released slots are `nil`: taking an event out moves it.
struct ReorderBuffer {
    private var slots: [Event?] = []
    /// Index of the oldest event in `slots`.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func slot(_ offset: Int) -> Int {
        // Capacity is a power of two.
        (head &+ offset) & (slots.count &- 1)
    }

    mutating func insert(_ event: consuming Event) {
        if count == slots.count { grow() }
        // Strictly greater: an equal `ts` goes after the ones already there, keeping input order.
        var position = count
        while position > 0, (slots[slot(position - 1)]?.ts ?? .min) > event.ts { position -= 1 }
        var index = count
        while index > position {
            slots.swapAt(slot(index), slot(index - 1))
            index -= 1
        }
        slots[slot(position)] = event
        count += 1
    }

    /// The oldest event if its `ts` is at most `threshold`, removed from the buffer.
    mutating func popFirst(notAfter threshold: Int64) -> Event? {
        guard count > 0, (slots[head]?.ts ?? .max) <= threshold else { return nil }
        let event = slots[head].take()
        head = slot(1)
        count -= 1
        return event
    }

    /// The oldest event, whatever its `ts` (the session is closing).
    mutating func popFirst() -> Event? {
        popFirst(notAfter: .max)
    }

    private mutating func grow() {
        var larger = [Event?](repeating: nil, count: max(slots.count * 2, 8))
        for offset in 0..<count { larger[offset] = slots[slot(offset)].take() }
        slots = larger
        head = 0
    }
}
