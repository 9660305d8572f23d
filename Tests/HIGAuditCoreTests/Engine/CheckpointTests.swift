import Foundation
import Testing
@testable import HIGAuditCore

/// An engine restored from a checkpoint continues the stream exactly: splitting one stream into runs
/// at any points (the nightly job's batches) gives the reports of one run over all of it (SPEC §5).
@Suite struct CheckpointTests {
    /// Feeds `events` in runs split at `cuts`, checkpointing through JSON between runs, and returns the
    /// reports (session-id order) plus the late lines.
    static func runInBatches(_ events: [Event], cuts: [Int], _ configuration: AuditConfiguration) -> [SessionReport] {
        var reports: [SessionReport] = []
        var closedEarlier: Set<String> = []
        var checkpoint = EngineCheckpoint()
        var start = 0
        for end in cuts + [events.count] {
            var batchReports: [SessionReport] = []
            let engine = SessionEngine(configuration: configuration, checkpoint: checkpoint) { batchReports.append($0) }
            let known = closedEarlier
            engine.closedBeforeStart = { known.contains($0) }
            for event in events[start..<end] { engine.ingest(event) }
            if end == events.count { engine.finish() }
            let data = (try? JSONEncoder().encode(engine.checkpoint())) ?? Data()
            checkpoint = (try? JSONDecoder().decode(EngineCheckpoint.self, from: data)) ?? EngineCheckpoint()
            if end < events.count { #expect(checkpoint == engine.checkpoint()) }
            reports += batchReports
            closedEarlier.formUnion(batchReports.map(\.session))
            start = end
        }
        return reports
    }

    /// The events as lines 1, 2, … of file 0, so that a run split by checkpoints numbers them as one.
    static func numbered(_ events: [Event]) -> [Event] {
        events.enumerated().map { offset, event in
            var event = event
            event.source = SourceLocation(file: 0, line: Int64(offset + 1))
            return event
        }
    }

    @Test(arguments: 0..<20)
    func batchesWithCheckpointsEqualOneRun(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        var sessions: [[Event]] = []
        for index in 0..<Int.random(in: 2...10, using: &rng) {
            // Spread over more than the session gap, so some sessions close by gap mid-stream.
            sessions.append(ReorderPropertyTests.randomSession(
                "s\(index)", startingAt: Int64.random(in: 0...200_000, using: &rng), using: &rng))
        }
        var stream = sessions.flatMap { $0 }
            .map { ($0, $0.ts + Int64.random(in: 0..<ReorderPropertyTests.lateness, using: &rng)) }
            .enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
        // A few very late events and duplicates, so those buckets cross batch boundaries too.
        for index in stride(from: 5, to: stream.count, by: 37) { stream.append(stream[index]) }
        for index in stream.indices { stream[index].source = SourceLocation(file: 0, line: Int64(index + 1)) }
        let configuration = AuditConfiguration(maxLatenessMs: ReorderPropertyTests.lateness, sessionGapMs: 60_000)

        let expected = run(stream, configuration).reports.sorted { $0.session < $1.session }
        let cuts = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Int.random(in: 0...stream.count, using: &rng) }.sorted()
        let actual = Self.runInBatches(stream, cuts: cuts, configuration).sorted { $0.session < $1.session }
        #expect(actual == expected)
        #expect(!expected.flatMap(\.violations).isEmpty)
    }
    /// `tab-state-lost` takes in the screens shown since the latest switch only at the next one, from
    /// counts the session context keeps: a checkpoint between them must carry those counts.
    @Test func aScreenShownBeforeACheckpointIsRememberedAfterIt() {
        let events = Self.numbered([
            tabSwitch(1000, "tab:A", "tab:B", screen: "b.root"),
            at(1100, .navPush(to: "b.detail"), screen: "b.detail"),
            at(1150, .haptic(kind: .selection, durationMs: nil)),
            tabSwitch(1200, "tab:B", "tab:A", screen: "a.root"),
            tabSwitch(1300, "tab:A", "tab:B", screen: "b.root"),  // lost b.detail
        ])
        let configuration = only("tab-state-lost", maxLatenessMs: 0)
        let expected = run(events, configuration).reports
        #expect(expected.flatMap(\.violations).map(\.source.line) == [5])
        for cut in 1..<events.count {
            #expect(Self.runInBatches(events, cuts: [cut], configuration) == expected, "cut after \(cut)")
        }
    }

    /// A checkpoint read by a version of the tool that does not know the screen counts (which
    /// ignores `screenSightings`, `replacedScreen`, `screenChangedAtSighting` and `sightingsAtSwitch`),
    /// and one written by such a version, go on as one run does, at any cut: the checkpoint keeps
    /// `tab-state-lost`'s remembered screen up to date (`TabStateLostRule.settle`), and both counts
    /// start from zero again.
    @Test(arguments: 1..<6)
    func aCheckpointWithoutScreenCountsStillReads(cut: Int) throws {
        let events = Self.numbered([
            tabSwitch(1000, "tab:A", "tab:B", screen: "b.root"),
            at(1100, .navPush(to: "b.detail"), screen: "b.detail"),
            tabSwitch(1200, "tab:B", "tab:A", screen: "a.root"),
            at(1250, .navPush(to: "a.detail"), screen: "a.detail"),
            tabSwitch(1300, "tab:A", "tab:B", screen: "b.root"),  // lost b.detail
            tabSwitch(1400, "tab:B", "tab:A", screen: "a.root"),  // lost a.detail
        ])
        let configuration = only("tab-state-lost", maxLatenessMs: 0)
        let expected = run(events, configuration).violationLines
        #expect(expected == [5, 6])
        let first = SessionEngine(configuration: configuration) { _ in }
        for event in events.prefix(cut) { first.ingest(event) }
        var json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(first.checkpoint())) as? [String: Any])
        var sessions = try #require(json["sessions"] as? [[String: Any]])
        var context = try #require(sessions[0]["context"] as? [String: Any])
        #expect(context["screenSightings"] as? Int == cut)
        for key in ["screenSightings", "replacedScreen", "screenChangedAtSighting"] { context[key] = nil }
        sessions[0]["context"] = context
        var states = try #require(sessions[0]["ruleStates"] as? [String: Any])
        var tabState = try #require(states["tabStateLost"] as? [String: Any])
        tabState["sightingsAtSwitch"] = nil
        states["tabStateLost"] = tabState
        sessions[0]["ruleStates"] = states
        json["sessions"] = sessions
        let old = try JSONDecoder().decode(
            EngineCheckpoint.self, from: JSONSerialization.data(withJSONObject: json))
        var reports: [SessionReport] = []
        let second = SessionEngine(configuration: configuration, checkpoint: old) { reports.append($0) }
        for event in events.dropFirst(cut) { second.ingest(event) }
        second.finish()
        #expect(reports.flatMap(\.violations).map(\.source.line) == expected)
    }

    /// A checkpoint written before devices had clocks (a `streamNewestTs`, no `devices`, sessions
    /// without `device`) continues: each session goes to the device that labels it.
    @Test func aCheckpointFromBeforeDeviceClocksContinues() throws {
        let configuration = AuditConfiguration(sessionGapMs: 60_000)
        let first = SessionEngine(configuration: configuration) { _ in }
        first.ingest(at(0, .sessionStart(.defaults), session: "a", device: "A"))
        first.ingest(at(0, .sessionStart(.defaults), session: "b", device: "B"))
        var json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(first.checkpoint())) as? [String: Any])
        #expect((json["devices"] as? [Any])?.count == 2)
        json["devices"] = nil
        json["streamNewestTs"] = 0
        var sessions = try #require(json["sessions"] as? [[String: Any]])
        for index in sessions.indices { sessions[index]["device"] = nil }
        json["sessions"] = sessions
        let old = try JSONDecoder().decode(EngineCheckpoint.self, from: JSONSerialization.data(withJSONObject: json))
        var reports: [String] = []
        let second = SessionEngine(configuration: configuration, checkpoint: old) { reports.append($0.session) }
        #expect(second.openDeviceCount == 2)
        // A's clock moves past "a"'s gap; B's session stays open.
        second.ingest(at(60_001, .sessionStart(.defaults), session: "a2", device: "A"))
        #expect(reports == ["a"])
        #expect(second.checkpoint().sessions.map(\.id) == ["a2", "b"])
        #expect(second.checkpoint().sessions.map(\.device) == ["A", "B"])
    }

    /// A checkpoint from the version with eleven rules (its rule states without the launch rules'
    /// keys) is continued by this one: the launch rules start the checkpointed sessions afresh, the
    /// others carry on, and events of the new types after the checkpoint are judged as in one run.
    @Test func aCheckpointWithoutTheLaunchRulesStatesContinues() throws {
        let events = Self.numbered([
            at(1_000, .sessionStart(SessionSettings())), haptic(1_100), haptic(1_200), haptic(1_300),
            haptic(1_400), touch(1_500, .ended),
            // The checkpoint falls here.
            haptic(1_600), at(4_000, .appReady), at(4_100, .permissionRequest(permission: .tracking, result: .denied)),
            at(5_000, .ratingPrompt), at(5_100, .widgetDisplay(widget: "w", content: .placeholder, loadMs: nil)),
        ])
        let configuration = AuditConfiguration()
        let first = SessionEngine(configuration: configuration) { _ in }
        for event in events[..<6] { first.ingest(event) }
        let data = try JSONEncoder().encode(first.checkpoint())
        let oldData = try Self.removingKeys(
            ["slowLaunch", "unpromptedPermissionRequest", "earlyRatingPrompt", "widgetPlaceholder"], from: data)
        #expect(oldData != data)
        let checkpoint = try JSONDecoder().decode(EngineCheckpoint.self, from: oldData)
        #expect(checkpoint == first.checkpoint())

        var reports: [SessionReport] = []
        let second = SessionEngine(configuration: configuration, checkpoint: checkpoint) { reports.append($0) }
        for event in events[6...] { second.ingest(event) }
        second.finish()
        // The details may differ (the permission rule no longer knows the touch before the
        // checkpoint), the verdicts may not: the touch was more than 2 s before the request.
        func verdicts(_ violations: [Violation]) -> [String] {
            violations.map { "\($0.rule) \($0.source.line) \($0.startTs)-\($0.endTs) ×\($0.count) \($0.screen)" }
        }
        let expected = run(events, configuration).violations
        #expect(verdicts(reports.flatMap(\.violations)) == verdicts(expected))
        #expect(Set(expected.map(\.rule)) == [
            "haptic-overuse", "slow-launch", "unprompted-permission-request", "early-rating-prompt", "widget-placeholder",
        ])
    }

    /// The JSON with every object member named in `keys` removed, at any depth.
    static func removingKeys(_ keys: Set<String>, from data: Data) throws -> Data {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { !keys.contains($0.key) }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return try JSONSerialization.data(withJSONObject: strip(try JSONSerialization.jsonObject(with: data)))
    }
}
