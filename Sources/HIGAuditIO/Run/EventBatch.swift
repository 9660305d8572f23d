import HIGAuditCore

/// Events decoded on a `--jobs` reader thread, in input order, with the diagnostics met among them,
/// each placed before the event it preceded, so that the run's thread says them in the order one
/// thread would have. The events live in raw memory and are moved out, not copied.
final class EventBatch: @unchecked Sendable {
    static let capacity = 1024

    private let events = UnsafeMutablePointer<Event>.allocate(capacity: EventBatch.capacity)
    private(set) var count = 0
    /// Each diagnostic with the number of events before it in this batch.
    private(set) var diagnostics: [(eventsBefore: Int, diagnostic: Diagnostic)] = []
    /// Decompressed bytes of the input read when the batch was handed over.
    var bytesInInput: Int64 = 0
    /// Whether the batch holds a batch of the `ReadAheadBudget`, to give back once it is emptied.
    var holdsBudget = false

    deinit {
        events.deinitialize(count: count)
        events.deallocate()
    }

    var isFull: Bool { count == Self.capacity }
    var isEmpty: Bool { count == 0 && diagnostics.isEmpty }

    func append(_ event: consuming Event) {
        (events + count).initialize(to: event)
        count += 1
    }

    func append(_ diagnostic: Diagnostic) {
        diagnostics.append((count, diagnostic))
    }

    /// Hands each event to `target` and each diagnostic to `say`, in their order, and leaves the batch
    /// empty for reuse.
    func drain<Target: EventTarget>(into target: Target, say: (Diagnostic) -> Void) {
        var said = 0
        for index in 0..<count {
            while said < diagnostics.count, diagnostics[said].eventsBefore == index {
                say(diagnostics[said].diagnostic)
                said += 1
            }
            target.accept(movingFrom: events + index)
        }
        count = 0
        for index in said..<diagnostics.count { say(diagnostics[index].diagnostic) }
        diagnostics.removeAll(keepingCapacity: true)
    }
}

/// What a reader thread hands over for one input: batches, then the read's result.
enum InputMessage: @unchecked Sendable {
    case batch(EventBatch)
    case finished(FileReadResult)
}

/// The `EventTarget` of a reader thread: fills batches and hands each over when full.
final class EventBatcher: EventTarget {
    private let input: InputInFlight
    private let batches: BatchPool
    private let budget: ReadAheadBudget
    /// The batch being filled; nil once the input is finished.
    private var batch: EventBatch?
    var bytesInInput: Int64 = 0

    init(input: InputInFlight, batches: BatchPool, budget: ReadAheadBudget) {
        self.input = input
        self.batches = batches
        self.budget = budget
        batch = batches.take()
    }

    func accept(_ event: consuming Event) {
        guard let batch else { preconditionFailure("an event after its input was finished") }
        batch.append(event)
        if batch.isFull {
            handOver(batch)
            self.batch = batches.take()
        }
    }

    func say(_ diagnostic: Diagnostic) {
        guard let batch else { preconditionFailure("a diagnostic after its input was finished") }
        batch.append(diagnostic)
    }

    /// Hands over what is left, then the result. Takes no new batch: one taken here would be dropped
    /// unused, and a run of many small inputs would make a batch for each.
    func finish(_ result: FileReadResult) {
        if let batch = batch.take() {
            if batch.isEmpty { batches.giveBack(batch) } else { handOver(batch) }
        }
        input.messages.give(.finished(result))
    }

    private func handOver(_ batch: EventBatch) {
        batch.bytesInInput = bytesInInput
        batch.holdsBudget = budget.take(for: input)
        if !input.messages.give(.batch(batch)), batch.holdsBudget { budget.giveBack() }
    }
}
