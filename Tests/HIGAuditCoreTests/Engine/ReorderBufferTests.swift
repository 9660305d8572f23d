import Testing
@testable import HIGAuditCore

/// `ReorderBuffer` manages its storage by hand; it must still release exactly what a stable sort by
/// `ts` of the inserted events gives, whatever the order of inserts, releases and growth.
@Suite struct ReorderBufferTests {
    private func event(_ ts: Int64, _ serial: Int) -> Event {
        Event(ts: ts, session: "session-with-a-long-id-\(serial)", payload: .sessionEnd, id: "e\(serial)")
    }

    /// Random interleavings of inserts (nearly sorted, with ties and jumps back) and releases up to a
    /// moving bound, so that the ring wraps and grows while wrapped.
    @Test(arguments: [1, 2, 3, 4, 5])
    func releasesInStableTimestampOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let buffer = ReorderBufferBox()
        var reference: [Event] = []
        var released: [Event] = []
        var expected: [Event] = []
        var clock: Int64 = 0
        for serial in 0..<2000 {
            clock += Int64.random(in: 0...3, using: &rng)
            let ts = clock - Int64.random(in: 0...12, using: &rng)
            let next = event(ts, serial)
            buffer.insert(next)
            reference.append(next)
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let bound = clock - Int64.random(in: 0...20, using: &rng)
                // What a stable sort says may leave: the leading events at or before the bound.
                let sorted = reference.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }
                var leaving = 0
                while leaving < sorted.count, sorted[leaving].element.ts <= bound { leaving += 1 }
                expected += sorted.prefix(leaving).map(\.element)
                let leavingOffsets = Set(sorted.prefix(leaving).map(\.offset))
                reference = reference.enumerated().filter { !leavingOffsets.contains($0.offset) }.map(\.element)
                while buffer.releaseFirst(notAfter: bound, { released.append(copy $0) }) {}
                #expect(released == expected)
                #expect(buffer.pending == stablyByTimestamp(reference))
            }
            #expect(buffer.count == reference.count)
        }
        while buffer.releaseFirst(notAfter: .max, { released.append(copy $0) }) {}
        expected += stablyByTimestamp(reference)
        #expect(released == expected)
        #expect(buffer.isEmpty)
    }

    @Test func nothingLeavesBeforeItsTime() {
        let buffer = ReorderBufferBox()
        buffer.insert(event(10, 1))
        var seen: [Int64] = []
        #expect(!buffer.releaseFirst(notAfter: 9, { seen.append($0.ts) }))
        #expect(buffer.releaseFirst(notAfter: 10, { seen.append($0.ts) }))
        #expect(seen == [10])
        #expect(!buffer.releaseFirst(notAfter: .max, { seen.append($0.ts) }))
    }

    /// A checkpoint lists the waiting events in release order without taking them out; a buffer
    /// dropped with events still in it destroys them (exercised here, checked by sanitizers, not asserted).
    @Test func pendingEventsAreListedInReleaseOrder() {
        var buffer: ReorderBufferBox? = ReorderBufferBox()
        for serial in 0..<20 { buffer?.insert(event(Int64(20 - serial), serial)) }
        #expect(buffer?.pending.map(\.ts) == Array(1...20).map(Int64.init))
        #expect(buffer?.count == 20)
        #expect(buffer?.pending.map(\.ts) == Array(1...20).map(Int64.init))
        buffer = nil
    }
}

/// `events` sorted by `ts`, equal `ts` in their order in `events`.
private func stablyByTimestamp(_ events: [Event]) -> [Event] {
    events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(\.element)
}

/// `ReorderBuffer` is noncopyable, which `#expect` cannot take apart: the tests reach it through a box.
private final class ReorderBufferBox {
    private var buffer = ReorderBuffer()

    func insert(_ event: Event) { buffer.insert(event) }
    func releaseFirst(notAfter threshold: Int64, _ body: (borrowing Event) -> Void) -> Bool {
        buffer.releaseFirst(notAfter: threshold, body)
    }
    var pending: [Event] { buffer.pending }
    var count: Int { buffer.count }
    var isEmpty: Bool { buffer.isEmpty }
}
