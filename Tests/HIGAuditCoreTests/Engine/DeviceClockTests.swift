import Testing
@testable import HIGAuditCore

/// SPEC §2 "Device clocks": a session belongs to the device of its first event read, each device's
/// clock is the `ts` of its most recently accepted event, and sessions close only on their own
/// device's clock, so results depend only on each device's own reading order.
@Suite struct DeviceClockTests {
    private func on(_ device: String?, _ ts: Int64, _ payload: EventPayload = .haptic(kind: .selection, durationMs: nil), session: String) -> Event {
        at(ts, payload, session: session, device: device)
    }

    /// One file per device: device A's whole evening is read before device B's. Under one clock for
    /// the whole input, B's session would close after its first event and the rest would be late.
    @Test func anotherDevicesClockNeverClosesASession() {
        let hour: Int64 = 3_600_000
        var events: [Event] = []
        for minute in 0..<180 { events.append(on("A", Int64(minute) * 60_000, session: "a")) }
        for minute in 0..<180 { events.append(on(minute == 0 ? "B" : nil, Int64(minute) * 60_000 + 1, session: "b")) }
        events.append(on("A", 10 * hour, .sessionEnd, session: "a2"))
        let result = run(events)
        #expect(result.statistics.lateEvents == 0)
        #expect(result.report("a")?.acceptedEvents == 180)
        #expect(result.report("b")?.acceptedEvents == 180)
    }

    @Test func aSessionsDeviceIsThatOfItsFirstEventRead() {
        // "s" opens on device X; an event of it naming Y still moves X's clock and closes X's gap.
        let result = run([
            on("X", 0, session: "old"),
            on("X", 1, session: "s"),
            on("Y", 1_800_001, session: "s"),     // X's clock 1 800 001 > 0 + 1 800 000: "old" closes
            on("X", 2, session: "old"),
        ])
        #expect(result.dispositions == [.accepted, .accepted, .accepted, .late(.sessionClosed)])
        #expect(result.reports.map(\.session) == ["old", "s"])
    }

    @Test func sessionsWithoutADeviceShareTheEmptyDevicesClock() {
        let result = run([
            on(nil, 0, session: "a"),
            on(nil, 1_800_001, session: "b"),
            on(nil, 1, session: "a"),
            on("D", 0, session: "c"),
            on("D", 3_600_000, session: "d"),
            on("D", 2, session: "c"),
        ])
        #expect(result.dispositions == [.accepted, .accepted, .late(.sessionClosed), .accepted, .accepted, .late(.sessionClosed)])
    }

    /// An older upload of a device read after a newer one is read whole: the clock is the latest
    /// accepted `ts` (it goes back), not the largest, so the older sessions are not closed by it.
    @Test func anOlderUploadReadAfterANewerOneIsReadWhole() {
        let day: Int64 = 86_400_000
        var events: [Event] = []
        for minute in 0..<30 { events.append(on("D", day + Int64(minute) * 60_000, session: "tuesday")) }
        for minute in 0..<30 { events.append(on("D", Int64(minute) * 60_000, session: "monday")) }
        events.append(on("D", 29 * 60_000 + 1, .sessionEnd, session: "monday"))
        let result = run(events)
        #expect(result.statistics.lateEvents == 0)
        #expect(result.report("monday")?.acceptedEvents == 31)
        #expect(result.report("tuesday")?.acceptedEvents == 30)
    }

    /// The event that moves the clock past a session's `session.end` bound closes it at once, its own
    /// session included; the earliest `session.end` counts.
    @Test func theEventsOwnSessionClosesWhenItsClockPassesTheEnd() {
        let result = run([
            on("D", 1000, .sessionEnd, session: "s"),
            on("D", 500, .sessionEnd, session: "s"),
            on("D", 10_499, session: "s"),
            on("D", 10_500, session: "s"),       // 10 500 ≥ 500 + 10 000: closes after this event
            on("D", 10_501, session: "s"),
        ])
        #expect(result.dispositions == [.accepted, .accepted, .accepted, .accepted, .late(.sessionClosed)])
        #expect(result.report("s")?.acceptedEvents == 4)
    }

    /// Late and duplicate events move no clock.
    @Test func lateAndDuplicateEventsMoveNoClock() {
        let kept = run([
            at(0, .sessionEnd, session: "ended", device: "D"),
            at(0, .sessionStart(.defaults), session: "s", id: "e1", device: "D"),
            at(0, .sessionStart(.defaults), session: "t", device: "D"),
            at(30_000, .sessionStart(.defaults), session: "t", device: "D"),   // t's newest 30 000
            at(15_000, .haptic(kind: .selection, durationMs: nil), session: "t", device: "D"),  // late: no clock move
            at(20_000, .sessionStart(.defaults), session: "s", id: "e1", device: "D"),  // duplicate: no clock move
        ])
        #expect(kept.dispositions == [.accepted, .accepted, .accepted, .accepted,
                                      .late(.tooOld(sessionNewestTs: 30_000, maxLatenessMs: 10_000)), .duplicate])
        // "ended" closed when the clock reached 30 000; nothing after moved the clock back to 15 000 or 20 000.
        #expect(kept.reports.first?.session == "ended")
    }

    /// Any interleaving of devices that keeps each device's order gives the same reports.
    @Test(arguments: 0..<20)
    func interleavingDevicesChangesNothing(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        var perDevice: [[Event]] = []
        for device in 0..<5 {
            var events: [Event] = []
            var ts = Int64.random(in: 0...5_000_000, using: &rng)
            for sessionIndex in 0..<Int.random(in: 1...4, using: &rng) {
                let session = "d\(device)-s\(sessionIndex)"
                events.append(at(ts, .sessionStart(.defaults), session: session, device: "dev\(device)"))
                for _ in 0..<Int.random(in: 5...40, using: &rng) {
                    ts += Int64.random(in: 1...120_000, using: &rng)
                    events.append(at(ts, .haptic(kind: .selection, durationMs: nil), session: session))
                }
                if Bool.random(using: &rng) { events.append(at(ts + 1, .sessionEnd, session: session)) }
                ts += Int64.random(in: 0...4_000_000, using: &rng)
            }
            perDevice.append(events)
        }
        func numbered(_ events: [Event]) -> [Event] {
            // A source that follows the event, wherever it is read, so reports compare equal.
            events.enumerated().map { index, event in
                var event = event
                event.source = SourceLocation(file: Int32(event.device.map { Int($0.dropFirst(3))! } ?? 9), line: Int64(index))
                return event
            }
        }
        let sequential = perDevice.flatMap { numbered($0) }
        var cursors = Array(repeating: 0, count: perDevice.count)
        var interleaved: [Event] = []
        while interleaved.count < sequential.count {
            let device = Int.random(in: 0..<perDevice.count, using: &rng)
            guard cursors[device] < perDevice[device].count else { continue }
            interleaved.append(numbered(perDevice[device])[cursors[device]])
            cursors[device] += 1
        }
        let byTime = sequential.sorted { $0.ts < $1.ts }
        let expected = run(sequential)
        for order in [interleaved, byTime, perDevice.reversed().flatMap { numbered($0) }] {
            let actual = run(order)
            #expect(actual.statistics == expected.statistics)
            #expect(actual.reports.sorted { $0.session < $1.session } == expected.reports.sorted { $0.session < $1.session })
        }
    }

    /// Nightly's `idle_runs`: a device that sent nothing in this run and the `runs − 1` before it has
    /// its sessions closed; one that sent something is kept, and its count starts again.
    @Test func idleDevicesCloseAfterTheirRuns() {
        var reports: [String] = []
        let first = SessionEngine(onReport: { reports.append($0.session) })
        first.ingest(at(0, .sessionStart(.defaults), session: "quiet", device: "Q"))
        first.ingest(at(0, .sessionStart(.defaults), session: "busy", device: "B"))
        var checkpoint = first.checkpoint()
        #expect(checkpoint.devices.map(\.idleRuns) == [0, 0])
        for run in 1...3 {
            let engine = SessionEngine(configuration: AuditConfiguration(), checkpoint: checkpoint, onReport: { reports.append($0.session) })
            engine.ingest(at(Int64(run) * 1000, .haptic(kind: .selection, durationMs: nil), session: "busy"))
            engine.closeSessionsOfIdleDevices(after: 3)
            checkpoint = engine.checkpoint()
            if run < 3 {
                #expect(checkpoint.devices.map(\.device) == ["B", "Q"])
                #expect(checkpoint.devices.map(\.idleRuns) == [0, run])
            }
        }
        #expect(reports == ["quiet"])
        #expect(checkpoint.sessions.map(\.id) == ["busy"])
        #expect(checkpoint.sessions.map(\.device) == ["B"])
    }
}
