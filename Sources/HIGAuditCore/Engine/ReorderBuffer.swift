/// One session's accepted events that rules may not see yet, because a later accepted event could
/// still sort before them (SPEC §2: input may be out of order by up to `max_lateness_ms`).
///
/// Kept sorted by `ts`, equal `ts` in input order. Input is nearly sorted, so inserting scans from the
/// back and usually stops at once; releasing takes from the front through a moving head, compacted now
/// and then. Both are O(1) amortized on sorted input and O(buffer) at worst.
struct ReorderBuffer {
    /// Released slots are `nil`: taking an event out moves it instead of copying it.
    private var items: [Event?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func insert(_ event: consuming Event) {
        var index = items.count
        // Strictly greater: an equal `ts` goes after the ones already there, keeping input order.
        while index > head, (items[index - 1]?.ts ?? .min) > event.ts { index -= 1 }
        if index == items.count {
            items.append(event)
        } else {
            items.insert(event, at: index)
        }
    }

    /// The oldest event if its `ts` is at most `threshold`, removed from the buffer.
    mutating func popFirst(notAfter threshold: Int64) -> Event? {
        guard head < items.count, (items[head]?.ts ?? .max) <= threshold else { return nil }
        let event = items[head].take()
        head += 1
        compactIfNeeded()
        return event
    }

    /// The oldest event, whatever its `ts` (the session is closing).
    mutating func popFirst() -> Event? {
        popFirst(notAfter: .max)
    }

    private mutating func compactIfNeeded() {
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity <= 1024)
            head = 0
        } else if head >= 256, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
