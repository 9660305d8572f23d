/// One session's accepted events that rules may not see yet, because a later accepted event could
/// still sort before them (SPEC §2: input may be out of order by up to `max_lateness_ms`).
///
/// A ring buffer kept sorted by `ts`, equal `ts` in input order. Input is nearly sorted, so inserting
/// scans from the back and usually appends at once; releasing takes from the front. Both are O(1) on
/// sorted input and O(buffer) at worst; the storage settles at the session's working size and is
/// reused, so steady state allocates nothing.
///
/// Every accepted event passes through here, so the storage is managed by hand: an event is moved in
/// once, moved out once and lent to the rules (`releaseFirst`). An array of optionals cost a copy of
/// the ~200-byte event on the way in, one on the way out and one more per call level that passed it
/// on, and copies of an `Event` also retain its strings.
///
/// A noncopyable struct, not a class: it lives inside its session (`OpenSession`), in memory the engine
/// owns, so that the engine reaches it without loading, retaining and releasing a reference.
struct ReorderBuffer: ~Copyable {
    private var events: UnsafeMutablePointer<Event>
    /// The `ts` of each occupied slot, kept beside the events so that finding an insertion point or
    /// testing the oldest event reads 8 bytes.
    private var stamps: UnsafeMutablePointer<Int64>
    /// A power of two.
    private var capacity: Int
    /// Index of the oldest event.
    private var head = 0
    private(set) var count = 0

    init() {
        capacity = 8
        events = .allocate(capacity: capacity)
        stamps = .allocate(capacity: capacity)
    }

    deinit {
        for offset in 0..<count { (events + slot(offset)).deinitialize(count: 1) }
        events.deallocate()
        stamps.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func slot(_ offset: Int) -> Int {
        (head &+ offset) & (capacity &- 1)
    }

    @inline(__always)
    mutating func insert(_ event: consuming Event) {
        emptySlot(for: event.ts).initialize(to: consume event)
    }

    /// Moves the event at `event` into the buffer, leaving that memory uninitialized: an event waiting
    /// in a batch goes into its slot in one copy, not through a value on the way.
    @inline(__always)
    mutating func insert(movingFrom event: UnsafeMutablePointer<Event>) {
        emptySlot(for: event.pointee.ts).moveInitialize(from: event, count: 1)
    }

    /// Makes room for an event of `ts` at its place and counts it: the caller initializes the slot.
    @inline(__always)
    private mutating func emptySlot(for ts: Int64) -> UnsafeMutablePointer<Event> {
        if count == capacity { grow() }
        // Strictly greater: an equal `ts` goes after the ones already there, keeping input order.
        var position = count
        while position > 0, stamps[slot(position &- 1)] > ts { position &-= 1 }
        var index = count
        while index > position {
            let to = slot(index)
            let from = slot(index &- 1)
            (events + to).moveInitialize(from: events + from, count: 1)
            stamps[to] = stamps[from]
            index &-= 1
        }
        let target = slot(position)
        stamps[target] = ts
        count &+= 1
        return events + target
    }

    /// Removes the oldest event if its `ts` is at most `threshold` and lends it to `body`.
    /// - Returns: whether there was such an event.
    @inline(__always)
    mutating func releaseFirst(notAfter threshold: Int64, _ body: (borrowing Event) -> Void) -> Bool {
        guard count > 0, stamps[head] <= threshold else { return false }
        // Moved out first: lent straight from the slot, the event was copied (and retained) for the
        // call, because nothing tells the compiler that `body` leaves the storage alone.
        let oldest = (events + head).move()
        head = slot(1)
        count &-= 1
        body(oldest)
        return true
    }

    /// The waiting events in release order, left in place (for a checkpoint).
    var pending: [Event] {
        (0..<count).map { events[slot($0)] }
    }

    /// Points at each waiting event, in release order, left in place (to park the session): read where
    /// it lies, as lending it by value copied the event (and retained its texts) for each call.
    func forEachPending(_ body: (UnsafePointer<Event>) -> Void) {
        for offset in 0..<count { body(events + slot(offset)) }
    }

    /// Makes room for `total` events at least, so that filling an empty buffer with a parked session's
    /// waiting events grows it once, not once per doubling.
    mutating func reserveCapacity(_ total: Int) {
        guard total > capacity else { return }
        var larger = capacity
        while larger < total { larger &*= 2 }
        grow(to: larger)
    }

    private mutating func grow() {
        grow(to: capacity * 2)
    }

    /// Moves the events, oldest first, into storage for `larger` (a power of two above `capacity`): the
    /// run from `head` to the end of the storage, then the part that wrapped to its start, each moved
    /// in one piece rather than event by event.
    private mutating func grow(to larger: Int) {
        let largerEvents = UnsafeMutablePointer<Event>.allocate(capacity: larger)
        let largerStamps = UnsafeMutablePointer<Int64>.allocate(capacity: larger)
        let toEnd = Swift.min(count, capacity &- head)
        let wrapped = count &- toEnd
        largerEvents.moveInitialize(from: events + head, count: toEnd)
        (largerEvents + toEnd).moveInitialize(from: events, count: wrapped)
        largerStamps.initialize(from: stamps + head, count: toEnd)
        (largerStamps + toEnd).initialize(from: stamps, count: wrapped)
        events.deallocate()
        stamps.deallocate()
        events = largerEvents
        stamps = largerStamps
        capacity = larger
        head = 0
    }
}
