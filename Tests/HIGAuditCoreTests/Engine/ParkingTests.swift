import Testing
@testable import HIGAuditCore

/// Quiet devices' sessions packed and woken (`SessionEngine+Parking`, issue 46): parking changes how
/// an open session waits, never what the engine decides, reports or checkpoints.
@Suite struct ParkingTests {
    /// `HandOverTests.run` with the engine parking every device `quietAfterEvents` accepted events
    /// after it last spoke (0: after every event, its own device included), while more than
    /// `keptAwakeSessions` sessions are in memory (0: whenever it is quiet).
    static func run(
        _ events: [Event], quietAfterEvents: Int64, keptAwakeSessions: Int = 0, fromMemory: Bool = false,
        from checkpoint: EngineCheckpoint = EngineCheckpoint(), finishing: Bool = true
    ) -> (trace: HandOverTests.Trace, parkedAtMost: Int) {
        var trace = HandOverTests.Trace()
        var reports: [SessionReport] = []
        var late: [Int64] = []
        var parkedAtMost = 0
        let engine = SessionEngine(
            configuration: HandOverTests.configuration, checkpoint: checkpoint,
            onLate: { event, _ in late.append(event.source.line) }, onReport: { reports.append($0) })
        engine.quietAfterEvents = quietAfterEvents
        engine.keptAwakeSessions = keptAwakeSessions
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        defer { slot.deallocate() }
        for event in events {
            let disposition: EventDisposition
            if fromMemory {
                slot.initialize(to: event)
                disposition = engine.ingest(movingFrom: slot)
            } else {
                disposition = engine.ingest(event)
            }
            parkedAtMost = max(parkedAtMost, engine.parkedSessionCount)
            trace.steps.append(HandOverTests.Trace.Step(
                disposition: disposition, open: engine.openSessionCount, closed: engine.closedSessionCount,
                reports: reports.count))
        }
        if finishing { engine.finish() }
        trace.checkpoint = engine.checkpoint()
        trace.reports = reports
        trace.late = late
        trace.statistics = engine.statistics
        return (trace, parkedAtMost)
    }

    /// The property: packing every device after every event (and waking it at its next event) gives
    /// exactly the dispositions, late events, reports, counters and checkpoint of never packing.
    @Test(arguments: 0..<20)
    func parkingAfterEveryEventChangesNothing(seed: Int) {
        let events = HandOverTests.noisyInput(seed: seed)
        let never = Self.run(events, quietAfterEvents: .max)
        let always = Self.run(events, quietAfterEvents: 0)
        #expect(never.parkedAtMost == 0)
        #expect(always.parkedAtMost > 0)
        #expect(never.trace.statistics.duplicateEvents > 0 && never.trace.statistics.lateEvents > 0)
        #expect(HandOverTests.firstDifference(always.trace.steps, never.trace.steps) == nil)
        #expect(always.trace.late == never.trace.late)
        #expect(always.trace.statistics == never.trace.statistics)
        #expect(always.trace.reports == never.trace.reports)
        #expect(!never.trace.violations.isEmpty)
        let handedOver = Self.run(events, quietAfterEvents: 0, fromMemory: true)
        #expect(handedOver.trace == never.trace)
    }

    /// Parked at a few events' quiet: devices wake and park again while their sessions are open.
    @Test(arguments: 0..<10)
    func parkingAfterAFewQuietEventsChangesNothing(seed: Int) {
        let events = HandOverTests.noisyInput(seed: seed)
        let never = Self.run(events, quietAfterEvents: .max)
        let sometimes = Self.run(events, quietAfterEvents: 3)
        #expect(sometimes.parkedAtMost > 0)
        #expect(sometimes.trace == never.trace)
        #expect(Self.run(events, quietAfterEvents: 3, keptAwakeSessions: 2).trace == never.trace)
    }

    /// Checkpoints list parked sessions as they were, and an engine restored from one continues them
    /// exactly, parking or not.
    @Test(arguments: 0..<10)
    func checkpointsOfParkedSessionsAreTheCheckpointsOfOpenOnes(seed: Int) {
        let events = HandOverTests.noisyInput(seed: seed)
        let cut = events.count / 2
        let first = Self.run(Array(events[..<cut]), quietAfterEvents: .max, finishing: false).trace
        let firstParked = Self.run(Array(events[..<cut]), quietAfterEvents: 0, finishing: false).trace
        #expect(!first.checkpoint.sessions.isEmpty)
        #expect(firstParked.checkpoint == first.checkpoint)
        let second = Self.run(Array(events[cut...]), quietAfterEvents: .max, from: first.checkpoint, finishing: false)
        let secondParked = Self.run(Array(events[cut...]), quietAfterEvents: 0, from: first.checkpoint, finishing: false)
        #expect(secondParked.trace == second.trace)
    }

    /// Many devices that each send one short session and go quiet: past `quietAfterEvents` their
    /// sessions wait parked, and the end of input closes them all in session-id order, as it would have.
    @Test func manyQuietDevicesWaitParkedAndCloseInSessionOrder() {
        var events: [Event] = []
        for device in 0..<3_000 {
            let ts = Int64(device) * 3
            let session = "s-\(device)"
            events.append(at(ts, .sessionStart(.defaults), session: session, screen: "home", device: "d-\(device)", appVersion: "5.2"))
            events.append(at(ts + 900, .appReady, session: session, device: "d-\(device)"))
            events.append(at(ts + 2_500, .sessionEnd, session: session, device: "d-\(device)"))
        }
        for index in events.indices { events[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let never = Self.run(events, quietAfterEvents: .max)
        let parked = Self.run(events, quietAfterEvents: 300)
        #expect(parked.parkedAtMost > 2_500)
        #expect(parked.trace.reports.map(\.session) == never.trace.reports.map(\.session))
        #expect(parked.trace == never.trace)
        #expect(never.trace.reports.map(\.session) == never.trace.reports.map(\.session).sorted())
    }

    /// Parking is for memory: with few sessions in memory, quiet devices stay awake, however long
    /// they are quiet (here 3 ended sessions through 21,000 events of a busy device: a device is looked
    /// at for the default quiet of 10,000 events after it joined the queue, and parked at the second
    /// look), and what they report is the same.
    @Test func fewSessionsInMemoryAreNotParkedHoweverQuiet() {
        var events: [Event] = []
        for device in 0..<3 {
            let session = "quiet-\(device)"
            events.append(at(Int64(device), .sessionStart(.defaults), session: session, device: "q-\(device)"))
            events.append(at(Int64(device) + 500, .sessionEnd, session: session, device: "q-\(device)"))
        }
        for index in 0..<21_000 {
            events.append(at(1_000 + Int64(index) * 10, .appReady, session: "busy", id: "e\(index)", device: "busy"))
        }
        for index in events.indices { events[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        var reports: [SessionReport] = []
        let engine = SessionEngine(configuration: HandOverTests.configuration, onReport: { reports.append($0) })
        for event in events { engine.ingest(event) }
        #expect(engine.openSessionCount == 4)
        #expect(engine.parkedSessionCount == 0 && engine.devicesParked == 0)
        engine.finish()
        #expect(reports == Self.run(events, quietAfterEvents: .max).trace.reports)
    }

    /// `count` devices that each send one short session, starting 3 ms apart (`fleet.sh`'s shape).
    static func oneSessionDevices(_ count: Int) -> [Event] {
        var events: [Event] = []
        for device in 0..<count {
            let ts = Int64(device) * 3
            let session = "s-\(device)"
            events.append(at(ts, .sessionStart(.defaults), session: session, device: "d-\(device)"))
            events.append(at(ts + 900, .appReady, session: session, device: "d-\(device)"))
            events.append(at(ts + 2_500, .sessionEnd, session: session, device: "d-\(device)"))
        }
        return events
    }

    /// Past `keptAwakeSessions` sessions in memory, quiet devices are parked until the sessions in
    /// memory are back down to it, and nothing either way reports differently.
    @Test func pastTheSessionsKeptAwakeQuietDevicesAreParkedDownToThem() {
        var events = Self.oneSessionDevices(60)
        for index in events.indices { events[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let never = Self.run(events, quietAfterEvents: .max)
        let kept = Self.run(events, quietAfterEvents: 3, keptAwakeSessions: 20, finishing: false)
        let all = Self.run(events, quietAfterEvents: 3, finishing: false)
        // 60 sessions, at least 20 kept in memory: at most 40 parked, and fewer than by quiet alone.
        #expect(kept.parkedAtMost >= 30 && kept.parkedAtMost <= 40)
        #expect(all.parkedAtMost > kept.parkedAtMost)
        #expect(kept.trace.checkpoint == Self.run(events, quietAfterEvents: .max, finishing: false).trace.checkpoint)
        #expect(Self.run(events, quietAfterEvents: 3, keptAwakeSessions: 20).trace == never.trace)
    }

    /// A fleet of devices that each send one short session (`fleet.sh`) keeps more sessions awake
    /// within the default quiet threshold than `keptAwakeSessions`: once past it, its quiet devices are
    /// parked down to it, so it holds no more sessions in memory at once than by quiet alone (fewer:
    /// the devices looked at once the floor is passed have been quiet long enough).
    @Test func aFleetOfOneSessionDevicesHoldsNoMoreSessionsInMemory() {
        let events = Self.oneSessionDevices(12_000)
        func parks(keptAwakeSessions: Int) -> (parks: Int, inMemoryAtMost: Int) {
            let engine = SessionEngine(configuration: HandOverTests.configuration, onReport: { _ in })
            engine.keptAwakeSessions = keptAwakeSessions
            var inMemoryAtMost = 0
            for event in events {
                engine.ingest(event)
                inMemoryAtMost = max(inMemoryAtMost, engine.openSessionCount - engine.parkedSessionCount)
            }
            return (engine.devicesParked, inMemoryAtMost)
        }
        let byQuiet = parks(keptAwakeSessions: 0)
        let kept = parks(keptAwakeSessions: SessionEngine.defaultKeptAwakeSessions)
        #expect(byQuiet.parks > 4_000 && kept.parks >= byQuiet.parks)
        #expect(kept.inMemoryAtMost <= byQuiet.inMemoryAtMost)
        #expect(kept.inMemoryAtMost <= SessionEngine.defaultKeptAwakeSessions + 1)
    }

    /// A restored checkpoint's sessions wait parked (a restore costs their packed size) and wake when
    /// their device speaks; the run gives what one run over all the input gives.
    @Test func aRestoredCheckpointWaitsParkedUntilItsDevicesSpeak() {
        let earlier = (0..<200).flatMap { device in
            [
                at(Int64(device), .sessionStart(.defaults), session: "s-\(device)", id: "a", device: "d-\(device)"),
                at(Int64(device) + 900, .appReady, session: "s-\(device)", id: "b", device: "d-\(device)"),
            ]
        }
        let later = [at(2_000, .sessionEnd, session: "s-5", id: "c", device: "d-5")]
        let whole = ParkingTests.run(earlier + later, quietAfterEvents: .max).trace
        let first = ParkingTests.run(earlier, quietAfterEvents: .max, finishing: false).trace
        var reports: [SessionReport] = []
        let restored = SessionEngine(
            configuration: HandOverTests.configuration, checkpoint: first.checkpoint, onReport: { reports.append($0) })
        #expect(restored.parkedSessionCount == 200)
        #expect(restored.openSessionCount == 200 && restored.openDeviceCount == 200)
        #expect(restored.ingest(later[0]) == .accepted)
        #expect(restored.parkedSessionCount == 199)
        restored.finish()
        #expect(reports == whole.reports)
    }

    /// A device that pauses mid-session, again and again, while others speak, is parked at its first
    /// pauses only: each wake doubles the quiet it needs, so it stops being packed and unpacked at every
    /// pause, and nothing it reports changes. (Its session has no end yet, so its quiet starts at
    /// `inProgressQuietFactor` times the base: its pauses are longer than that.)
    @Test func aDeviceThatKeepsWakingIsParkedLessOften() throws {
        var events: [Event] = []
        var ts: Int64 = 1_000
        events.append(at(ts, .sessionStart(.defaults), session: "pausing", screen: "home", device: "pauser", appVersion: "5.2"))
        for pause in 0..<12 {
            for other in 0..<40 {
                ts += 10
                events.append(at(ts, .appReady, session: "busy-\(pause)-\(other)", device: "busy-\(pause)-\(other)"))
            }
            ts += 10
            events.append(at(ts, .appReady, session: "pausing", device: "pauser"))
        }
        for index in events.indices { events[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let never = Self.run(events, quietAfterEvents: .max)
        var reports: [SessionReport] = []
        let engine = SessionEngine(configuration: HandOverTests.configuration, onReport: { reports.append($0) })
        engine.quietAfterEvents = 4
        engine.keptAwakeSessions = 0
        for event in events { _ = engine.ingest(event) }
        // Parked at its first pauses (40 events of quiet >= 4 × 4, then perhaps >= 32), never once it
        // needs 64: at most three times in twelve pauses. Each busy device is parked once at most.
        let pauser = try #require(engine.devices[CompactText("pauser")])
        #expect(pauser.pointee.wakes >= 1 && pauser.pointee.wakes <= 3)
        #expect(engine.devicesParked <= 480 + 3)
        engine.finish()
        #expect(reports == never.trace.reports)
        #expect(Self.run(events, quietAfterEvents: 4).trace == never.trace)
    }

    /// A device whose session has no `session.end` yet is most likely paused mid-session: it needs
    /// `inProgressQuietFactor` times the quiet of a device whose sessions have all ended, which only
    /// wait out their lateness window; nothing either reports changes.
    @Test func aSessionInProgressWaitsLongerBeforeItsDeviceIsParked() {
        var events = [
            at(1_000, .sessionStart(.defaults), session: "ended", device: "ended-device"),
            at(1_010, .sessionEnd, session: "ended", device: "ended-device"),
            at(1_020, .sessionStart(.defaults), session: "going-on", device: "going-on-device"),
            at(1_030, .appReady, session: "going-on", device: "going-on-device"),
        ]
        for other in 0..<24 {
            events.append(at(1_040 + Int64(other) * 10, .sessionStart(.defaults), session: "busy-\(other)", device: "busy-\(other)"))
        }
        for index in events.indices { events[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let never = Self.run(events, quietAfterEvents: .max)
        var reports: [SessionReport] = []
        let engine = SessionEngine(configuration: HandOverTests.configuration, onReport: { reports.append($0) })
        engine.quietAfterEvents = 4
        engine.keptAwakeSessions = 0
        // After 8 events of quiet (>= 4, < 4 × 4): only the device whose session ended is parked.
        for event in events[..<12] { _ = engine.ingest(event) }
        #expect(engine.parkedDevices[CompactText("ended-device")] != nil)
        #expect(engine.devices[CompactText("going-on-device")] != nil)
        #expect(engine.parkedDevices[CompactText("going-on-device")] == nil)
        // After 24 (>= 16): both are.
        for event in events[12...] { _ = engine.ingest(event) }
        #expect(engine.parkedDevices[CompactText("going-on-device")] != nil)
        engine.finish()
        #expect(reports == never.trace.reports)
        #expect(Self.run(events, quietAfterEvents: 4).trace == never.trace)
    }

    /// A session woken by an event long after it was parked closes on its device's restored clock.
    @Test func aWokenDeviceKeepsItsClock() {
        let events = [
            at(1_000, .appReady, session: "a", device: "d1"),
            at(2_000, .sessionEnd, session: "a", device: "d1"),
            at(1_000, .appReady, session: "b", device: "d2"),
            at(3_000, .appReady, session: "b", device: "d2"),
            // d1 speaks again past a's end by the lateness bound: a closes now, not at the end.
            at(2_000 + ReorderPropertyTests.lateness, .appReady, session: "c", device: "d1"),
        ]
        let parked = Self.run(events, quietAfterEvents: 0, finishing: false)
        #expect(parked.trace.steps.map(\.closed) == [0, 0, 0, 0, 1])
        #expect(parked.trace.reports.map(\.session) == ["a"])
        #expect(parked.trace == Self.run(events, quietAfterEvents: .max, finishing: false).trace)
    }
}

/// Events packed into a parked session's bytes come back equal, whatever their fields.
@Suite struct PackedEventTests {
    static func roundTrip(_ event: Event, newestTs: Int64 = 1_795_000_000_000) -> Event {
        roundTrip([event], newestTs: newestTs)[0]
    }

    /// Events of one session packed in order, then read back; the reader must end where the writer did.
    static func roundTrip(_ events: [Event], newestTs: Int64) -> [Event] {
        var writer = PackedWriter()
        for event in events { writer.event(event, newestTs: newestTs) }
        var reader = PackedReader(writer.bytes, heldAside: writer.heldAside)
        let back = events.map { reader.event(session: $0.sessionText, newestTs: newestTs) }
        #expect(reader.isAtEnd)
        return back
    }

    static let payloads: [EventPayload] = [
        .sessionStart(.defaults),
        .sessionStart(SessionSettings(hapticsEnabled: false, pencilPreferredAction: .ignore, pencilCustomActionEnabled: true)),
        .sessionEnd, .appReady, .ratingPrompt,
        .touch(Touch(phase: .moved, target: "tab:Library", input: .pencil, x: 12.5, y: -3)),
        .touch(Touch(phase: .cancelled)),
        .pencilDoubleTap(action: .system(.showColorPalette)), .pencilDoubleTap(action: .custom("lasso")),
        .haptic(kind: .impactRigid, durationMs: 2_000.25), .haptic(kind: .selection, durationMs: nil),
        .outcome(result: .failure, task: "save"), .outcome(result: .success, task: nil),
        .tabSwitch(from: "tab:A", to: "tab:B"), .navPush(to: "detail"), .navPop(to: "list"),
        .modalPresent(modal: "share", style: .popover), .modalDismiss(modal: "share"),
        .contentMutation(action: .clear, object: "canvas", undoable: false),
        .contentMutation(action: .insert, object: nil, undoable: true),
        .loadingStart(id: "feed", indicator: .placeholder), .loadingEnd(id: "feed"),
        .captureStart(source: .microphone), .captureStop(source: .camera),
        .permissionRequest(permission: .tracking, result: .alreadyDecided),
        .permissionRequest(permission: .camera, result: nil),
        .widgetDisplay(widget: "weather", content: .cached, loadMs: 812.5),
        .widgetDisplay(widget: "weather", content: .fresh, loadMs: nil),
    ]

    @Test func everyPayloadComesBackEqual() {
        #expect(Set(Self.payloads.map(\.kind)) == Set(EventKind.allCases))
        for (index, payload) in Self.payloads.enumerated() {
            let event = Event(
                ts: 1_794_999_990_000 + Int64(index), session: "s", payload: payload,
                source: SourceLocation(file: 3, line: Int64(index) + 1))
            #expect(Self.roundTrip(event) == event)
        }
    }

    @Test func everyTextComesBackWithItsBytes() {
        let event = Event(
            ts: 1_795_000_000_123, session: "0f8fad5b-d9cb-469f-a165-70867728950e", payload: .appReady,
            device: "iPad of someone with a long name", app: "", appVersion: "5.2.1",
            osVersion: "0F8FAD5B-D9CB-469F-A165-70867728950E", screen: "é", id: "e12",
            source: SourceLocation(file: 0, line: 99))
        let back = Self.roundTrip(event, newestTs: 1_795_000_000_000)
        #expect(back == event)
        for slot in EventTexts.Slot.allCases {
            #expect(back.texts[slot]?.string == event.texts[slot]?.string)
        }
    }

    /// The record of an event imported from a line that holds several (`PATH:LINE#K`) survives parking:
    /// it was once dropped, and a violation of a woken session pointed at the line alone.
    @Test func theRecordOfASourceComesBack() {
        let event = Event(
            ts: 1_794_999_990_000, session: "s", payload: .appReady,
            source: SourceLocation(file: 2, line: 40, record: 3))
        #expect(Self.roundTrip(event).source == SourceLocation(file: 2, line: 40, record: 3))
    }

    /// A session's waiting events written one after another, each against the one before: texts that
    /// repeat, change, appear and disappear, and sources that go back as well as forward, come back
    /// equal and in order.
    @Test func aSessionsEventsComeBackEqualInOrder() {
        let newestTs: Int64 = 1_795_000_000_000
        let base = Event(
            ts: newestTs - 5_000, session: "s", payload: .appReady, device: "d1", app: "sketch", appVersion: "5.2.0",
            osVersion: "18.1", screen: "home", id: "e1", source: SourceLocation(file: 4, line: 10))
        var events = [base]
        var next = base
        next.ts += 10
        next.texts[.id] = CompactText("e2")
        next.source = SourceLocation(file: 4, line: 11, record: 2)
        events.append(next)
        next.texts[.screen] = CompactText("canvas")
        next.texts[.id] = CompactText("a fairly long id of more than sixteen bytes")
        next.payload = .touch(Touch(phase: .moved, target: nil, input: .finger, x: 3.25, y: 1e300))
        next.source = SourceLocation(file: 1, line: 3)
        events.append(next)
        next.texts[.screen] = nil
        next.texts[.device] = CompactText("0F8FAD5B-D9CB-469F-A165-70867728950E")
        next.texts[.id] = nil
        next.source = SourceLocation(file: 9, line: 1_000_000)
        events.append(next)
        next.texts[.screen] = CompactText("home")
        next.texts[.device] = CompactText("d1")
        next.texts[.id] = CompactText("a fairly long id of more than sixteen bytes")
        next.ts = newestTs
        events.append(next)

        let back = Self.roundTrip(events, newestTs: newestTs)
        #expect(back == events)
    }

    /// Texts that drop out and come back with no new text between (the writer then keeps comparing
    /// with an older event's), and strings written again, alternating, empty, or with the same
    /// characters in other bytes (`é` composed and decomposed), come back with their bytes and in order.
    @Test func textsAndStringsWrittenAgainComeBackWithTheirBytes() {
        let newestTs: Int64 = 1_795_000_000_000
        let first = Event(
            ts: newestTs - 100, session: "s", payload: .navPush(to: "caf\u{E9}"), device: "d1", app: "sketch",
            screen: "home", id: "e1", source: SourceLocation(file: 0, line: 1))
        var events = [first]
        var next = first
        next.texts[.screen] = nil
        next.texts[.id] = nil
        next.payload = .navPush(to: "cafe\u{301}")
        events.append(next)
        next.texts[.screen] = CompactText("home")
        next.payload = .tabSwitch(from: "cafe\u{301}", to: "cafe\u{301}")
        events.append(next)
        next.texts[.id] = CompactText("e1")
        next.payload = .modalPresent(modal: "", style: .popover)
        events.append(next)
        next.texts[.app] = nil
        next.payload = .modalDismiss(modal: "")
        events.append(next)
        next.payload = .touch(Touch(phase: .began, target: "caf\u{E9}", input: .finger, x: 1, y: 2))
        events.append(next)
        next.texts[.app] = CompactText("sketch")
        next.texts[.device] = CompactText("d2")
        next.payload = .touch(Touch(phase: .ended, target: "caf\u{E9}", input: .finger, x: 1, y: 2))
        events.append(next)

        let back = Self.roundTrip(events, newestTs: newestTs)
        #expect(back == events)
        for (event, read) in zip(events, back) {
            for slot in EventTexts.Slot.allCases {
                #expect(read.texts[slot].map { Array($0.string.utf8) } == event.texts[slot].map { Array($0.string.utf8) })
            }
        }
        let strings = back.map { event -> [String] in
            switch event.payload {
            case .navPush(let to): [to]
            case .tabSwitch(let from, let to): [from, to]
            case .modalPresent(let modal, _), .modalDismiss(let modal): [modal]
            case .touch(let touch): [touch.target ?? "-"]
            default: []
            }
        }
        #expect(strings.map { $0.map { Array($0.utf8) } } == [
            ["caf\u{E9}"], ["cafe\u{301}"], ["cafe\u{301}", "cafe\u{301}"], [""], [""], ["caf\u{E9}"], ["caf\u{E9}"],
        ].map { $0.map { Array($0.utf8) } })
    }

    /// `PackedWriter.choice` writes a case as its byte, `PackedReader.choice` reads it back as one: every
    /// case of every enumeration a parked event holds must be numbered as its place in `allCases`.
    @Test func everyCaseIsWrittenAsItsPlaceAndReadBack() {
        func check<Value: CaseIterable & Equatable>(_: Value.Type) {
            for (place, value) in Value.allCases.enumerated() {
                #expect(CaseNumbers.place(of: value) == place, "\(Value.self).\(value)")
                #expect(CaseNumbers.value(at: place, of: Value.self) == value, "\(Value.self).\(value)")
                var writer = PackedWriter()
                writer.choice(value)
                var reader = PackedReader(writer.bytes)
                #expect(reader.choice(Value.self) == value)
                #expect(reader.isAtEnd)
            }
        }
        check(TouchPhase.self)
        check(TouchInput.self)
        check(HapticKind.self)
        check(OutcomeResult.self)
        check(ModalStyle.self)
        check(MutationAction.self)
        check(LoadingIndicator.self)
        check(CaptureSource.self)
        check(Permission.self)
        check(PermissionResult.self)
        check(WidgetContent.self)
    }

    /// Doubles, varints of every length and texts past the writer's first reservation come back whole.
    @Test func numbersAndTextsPastTheFirstReservationComeBack() {
        var writer = PackedWriter(reservingCapacity: 1)
        let numbers: [Int64] = [0, 1, -1, 63, -64, 64, 1 << 20, -(1 << 40), .max, .min]
        let doubles: [Double] = [0, -0.5, 12.25, .infinity, .greatestFiniteMagnitude]
        let texts = [CompactText(""), CompactText("d1"), CompactText("sixteen-bytes-16"),
                     CompactText("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), CompactText(String(repeating: "long-", count: 20))]
        for _ in 0..<40 {
            for number in numbers { writer.signed(number) }
            for value in doubles { writer.double(value) }
            for text in texts { writer.text(text) }
            writer.string(String(repeating: "x", count: 300))
        }
        var reader = PackedReader(writer.bytes)
        for _ in 0..<40 {
            for number in numbers { #expect(reader.signed() == number) }
            for value in doubles { #expect(reader.double() == value) }
            for text in texts { #expect(reader.text() == text) }
            #expect(reader.string() == String(repeating: "x", count: 300))
        }
        #expect(reader.isAtEnd)
    }

    /// Random runs of a session's events whose texts appear, vanish, repeat an older event's, turn
    /// long, or are UUIDs packed in either case, with one text changing by a single byte: each comes
    /// back with every slot's bytes, in order, whatever the writer compared it against.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomRunsOfTextsComeBackWithTheirBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pool: [String?] = [
            nil, "", "d1", "d2", "home", "homf", "sixteen bytes ok", "seventeen bytes..",
            "a fairly long text of more than sixteen bytes", "a fairly long text of more than sixteen bytez",
            "0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E", "caf\u{E9}",
        ]
        let newestTs: Int64 = 1_795_000_000_000
        var events: [Event] = []
        var next = Event(ts: newestTs - 1_000, session: "s", payload: .appReady, source: SourceLocation(file: 0, line: 1))
        for index in 0..<400 {
            for slot in EventTexts.Slot.allCases where slot != .session && random.next() % 3 == 0 {
                next.texts[slot] = pool[Int(random.next() % UInt64(pool.count))].map(CompactText.init)
            }
            next.ts = newestTs - 1_000 + Int64(index)
            next.source = SourceLocation(file: 0, line: Int64(index) + 1)
            events.append(next)
        }
        let back = Self.roundTrip(events, newestTs: newestTs)
        #expect(back == events)
        for (read, written) in zip(back, events) {
            for slot in EventTexts.Slot.allCases {
                #expect(read.texts[slot]?.string == written.texts[slot]?.string)
            }
        }
    }
}

/// SPEC §2 `max_pending_events`: past it a session's earliest waiting event goes to the rules at once,
/// and a later event older than one gone early is late.
@Suite struct PendingLimitTests {
    static func configuration(limit: Int) -> AuditConfiguration {
        AuditConfiguration(maxLatenessMs: 1_000_000, maxPendingEvents: limit)
    }

    @Test func theEarliestWaitingEventGoesEarlyAndOlderOnesAreLate() {
        var warned: [String] = []
        var late: [LateReason] = []
        var reports: [SessionReport] = []
        let engine = SessionEngine(
            configuration: Self.configuration(limit: 3), onLate: { late.append($1) }, onReport: { reports.append($0) })
        engine.onPendingLimit = { session, limit in warned.append("\(session) \(limit)") }
        let dispositions = [
            at(10, .appReady, session: "s"), at(20, .appReady, session: "s"), at(30, .appReady, session: "s"),
            at(40, .appReady, session: "s"),  // the fourth waiting: the one at 10 goes to the rules
            at(50, .appReady, session: "s"),  // and the one at 20
            at(5, .appReady, session: "s"),  // older than one gone early: late
            at(20, .appReady, session: "s"),  // as old as the newest gone early: still in order, accepted
            at(25, .appReady, session: "s"),
        ].map { engine.ingest($0) }
        #expect(dispositions == [
            .accepted, .accepted, .accepted, .accepted, .accepted,
            .late(.olderThanReleasedEarly(releasedTs: 20, maxPendingEvents: 3)), .accepted, .accepted,
        ])
        #expect(warned == ["s 3"])
        #expect(engine.statistics.lateEvents == 1)
        engine.finish()
        #expect(reports.map(\.acceptedEvents) == [7])
        #expect(late.count == 1)
        #expect(late.first?.description.contains("max_pending_events") == true)
    }

    /// The bound survives a checkpoint and parking.
    @Test func theBoundOfEventsGoneEarlySurvivesCheckpointsAndParking() {
        let events = (1...5).map { at(Int64($0) * 10, .appReady, session: "s", device: "d") }
        let engine = SessionEngine(configuration: Self.configuration(limit: 2), onReport: { _ in })
        engine.quietAfterEvents = 0
        engine.keptAwakeSessions = 0
        for event in events { engine.ingest(event) }
        #expect(engine.parkedSessionCount == 1)
        let checkpoint = engine.checkpoint()
        #expect(checkpoint.sessions.first?.releasedEarlyTs == 30)
        #expect(engine.ingest(at(25, .appReady, session: "s", device: "d"))
            == .late(.olderThanReleasedEarly(releasedTs: 30, maxPendingEvents: 2)))
        let restored = SessionEngine(configuration: Self.configuration(limit: 2), checkpoint: checkpoint, onReport: { _ in })
        #expect(restored.ingest(at(25, .appReady, session: "s", device: "d"))
            == .late(.olderThanReleasedEarly(releasedTs: 30, maxPendingEvents: 2)))
        #expect(restored.ingest(at(30, .appReady, session: "s", device: "d")) == .accepted)
    }
}
