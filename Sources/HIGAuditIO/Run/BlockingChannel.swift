import Foundation

/// A first-in, first-out hand-over between threads that blocks a taker while it is empty and a
/// giver while it is full: the bound is what keeps `--jobs` readers from running ahead of the engine
/// by more than a few batches, so memory does not grow with the input.
final class BlockingChannel<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var capacity: Int
    private var closed = false

    init(capacity: Int = .max) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Waits for room, then adds `item`. False, dropping it, when the channel is (or gets) closed.
    @discardableResult
    func give(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Adds `item` if there is room now; false, dropping it, if not.
    @discardableResult
    func giveIfRoom(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard items.count - head < capacity, !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item; nil once the channel is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head, !closed { condition.wait() }
        return removeFirstLocked()
    }

    /// An item if one is there now, without waiting.
    func takeIfAny() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return removeFirstLocked()
    }

    /// Ends the hand-over: givers stop waiting and are refused, takers get what is left, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sets a new bound; givers waiting for room look again. Items already in the channel stay.
    func setCapacity(_ newCapacity: Int) {
        precondition(newCapacity > 0)
        condition.lock()
        capacity = newCapacity
        condition.broadcast()
        condition.unlock()
    }

    /// Whether nothing is waiting to be taken right now.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return items.count == head
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    private func removeFirstLocked() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }
}
