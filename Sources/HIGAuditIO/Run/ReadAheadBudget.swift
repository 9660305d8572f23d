import Foundation

/// The batches that inputs behind the one whose events the run's thread is taking (the front) may
/// hold, shared by all of them rather than fixed per input.
///
/// An input read ahead gets most of the budget while the front's own batches are taken as they come,
/// so a reader ahead goes further before it waits, and memory is bounded by the budget however many
/// inputs are read ahead. The front never waits for the budget: the run's thread waits for its
/// batches, and the inputs behind it may hold the whole budget until it is done.
final class ReadAheadBudget: @unchecked Sendable {
    /// The budget, in batches of `EventBatch.capacity` events (~200 KB each). Deeper reading ahead
    /// keeps the second core busy longer while the front input is decoded; this many keeps `analyze`
    /// under its memory bar (Tests/Benchmarks/README.md).
    static let defaultBatches = 112
    /// Sets the budget, for tests that make readers wait for it all the time.
    static let batchesVariable = "HIG_AUDIT_READ_AHEAD_BATCHES"
    /// What the front input may hold: the run's thread takes its batches as they come unless it is
    /// busy elsewhere (a nightly run's store).
    static let frontBatches = 64

    static func batches(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        environment[batchesVariable].flatMap { Int($0) }.map { max(1, $0) } ?? defaultBatches
    }

    /// The most an input read ahead may hold on its own: the whole budget.
    let batches: Int
    private let condition = NSCondition()
    private var left: Int
    private var closed = false

    init(batches: Int = ReadAheadBudget.batches()) {
        self.batches = batches
        left = batches
    }

    /// Waits until `input` is the front or a batch of the budget is free; true when a batch was taken
    /// from the budget (to be given back with `giveBack` once the batch is emptied). Returns false at
    /// once after `close`.
    func take(for input: InputInFlight) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !input.isFront, left == 0, !closed, !input.messages.isClosed { condition.wait() }
        guard !input.isFront, left > 0 else { return false }
        left -= 1
        return true
    }

    func giveBack() {
        condition.lock()
        left += 1
        // Every waiter looks again: one of them may be waiting for an input that was closed.
        condition.broadcast()
        condition.unlock()
    }

    /// Makes `input` the front: a reader of it waiting for the budget goes on.
    func makeFront(_ input: InputInFlight) {
        input.messages.setCapacity(Self.frontBatches)
        condition.lock()
        input.isFront = true
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiting reader for good (the run is ending, inputs are dropped).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
