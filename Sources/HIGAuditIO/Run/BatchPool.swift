import Synchronization

/// The batches of one `--jobs` run: emptied ones are kept for the reader threads to fill again, so
/// the run makes about as many batches as it has in flight at once, however many inputs it reads.
/// A batch is ~200 KB: one made afresh costs its pages' first-touch faults (and its zeroing by the
/// kernel) on the thread that fills it.
final class BatchPool: Sendable {
    /// Batches kept for reuse beyond those in flight.
    static let spareCapacity = 64

    private let spares = BlockingChannel<EventBatch>(capacity: BatchPool.spareCapacity)
    private let made = Atomic<Int>(0)

    /// Batches made so far (spares taken again are not counted).
    var batchesMade: Int { made.load(ordering: .relaxed) }

    /// An empty batch: a spare if there is one, else a new one.
    func take() -> EventBatch {
        if let spare = spares.takeIfAny() { return spare }
        made.add(1, ordering: .relaxed)
        return EventBatch()
    }

    /// Keeps an empty batch for reuse, if there is room.
    func giveBack(_ batch: EventBatch) {
        spares.giveIfRoom(batch)
    }
}
