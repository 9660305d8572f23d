import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// SPEC §2 "Device clocks" across nightly runs: a device that uploads days late continues its sessions,
/// and the sessions of a device that never comes back close after `idle_runs` runs.
@Suite struct OfflineDeviceNightsTests {
    static let day: Int64 = 86_400_000

    /// One session's lines from `start`: a haptic burst (a `haptic-overuse` violation) and a forced tab
    /// switch every ten events, one event a second.
    static func session(_ id: String, device: String, start: Int64, events: Int, end: Bool) -> [String] {
        var lines = [#"{"ts":\#(start),"session":"\#(id)","type":"session.start","device":"\#(device)","app_version":"5.2"}"#]
        for index in 1...events {
            let ts = start + Int64(index) * 1000
            let body = index % 10 == 0
                ? #""type":"nav.tab_switch","from":"tab:A","to":"tab:B","screen":"s\#(index)""#
                : #""type":"haptic","kind":"selection""#
            lines.append(#"{"ts":\#(ts),"session":"\#(id)",\#(body),"id":"e\#(index)"}"#)
            if index % 7 == 0 {
                for burst in 1...5 {
                    lines.append(#"{"ts":\#(ts + Int64(burst) * 10),"session":"\#(id)","type":"haptic","kind":"impact.light","id":"b\#(index)-\#(burst)"}"#)
                }
            }
        }
        if end { lines.append(#"{"ts":\#(start + Int64(events + 1) * 1000),"session":"\#(id)","type":"session.end"}"#) }
        return lines
    }

    /// Nights of uploads: the steady device "A" every night; the offline device "O" uploads the first
    /// half of a session on night 1 and the rest of it on night `returnsOn` (if any), days late.
    static func nights(_ directory: URL, count: Int, returnsOn: Int?) throws -> [[String]] {
        let base = LogFixtures.base
        let offline = session("o-1", device: "O", start: base + 3_600_000, events: 80, end: true)
        var nights: [[String]] = []
        for night in 1...count {
            var files: [[String]] = []
            let start = base + Int64(night - 1) * day
            files.append(session("a-\(night)", device: "A", start: start, events: 60, end: night % 2 == 0))
            if night == 1 { files.append(Array(offline.prefix(40))) }
            if night == returnsOn { files.append(Array(offline.dropFirst(40))) }
            var paths: [String] = []
            for (index, lines) in files.enumerated() {
                let url = directory.appendingPathComponent("night-\(night)-upload-\(index).ndjson.zst")
                try LogFixtures.zstd(LogFixtures.text(lines)).write(to: url)
                paths.append(url.path)
            }
            nights.append(paths)
        }
        return nights
    }

    static func openSessionsInCheckpoint(_ storePath: String) throws -> [String] {
        let store = try ResultsStore(readingAt: storePath)
        return try store.read { db in
            try StoredCheckpoint.load(db).sessions.map(\.id)
        }
    }

    /// Offline for three nights, its session straddling the runs: nothing is late, and the store's
    /// tables equal one `analyze` over every file in the same order.
    @Test func aDeviceOfflineForThreeNightsContinuesItsSession() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nights = try Self.nights(directory, count: 5, returnsOn: 5)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()
        for (index, paths) in nights.enumerated() {
            let last = index == nights.count - 1
            let (outcome, diagnostics) = try nightly(storePath, paths, closeOpen: last, configuration)
            #expect(outcome.statistics.lateEvents == 0, "night \(index + 1): \(diagnostics)")
            if (1...3).contains(index) { #expect(try Self.openSessionsInCheckpoint(storePath).contains("o-1")) }
        }
        let expected = try analyzeTables(nights.flatMap { $0 }, configuration)
        let actual = try storeTables(storePath)
        for name in expected.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
        // The offline session's violations are all there: bursts at events 7, 14, …, 77, both halves.
        let offlineBursts = expected[.violations]?.split(separator: "\r\n")
            .filter { $0.hasPrefix("haptic-overuse,") && $0.contains(",o-1,") }.count
        #expect(offlineBursts == 11)
    }

    /// A device that never returns: its checkpointed session closes at the end of the `idle_runs`-th run
    /// without it, and a straggler of that session after that is late.
    @Test func aDeviceThatNeverReturnsClosesAfterIdleRuns() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nights = try Self.nights(directory, count: 5, returnsOn: 5)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        var configuration = AuditConfiguration()
        configuration.idleRuns = 3
        var closedOn: Int64?
        for (index, paths) in nights.enumerated() {
            let (outcome, _) = try nightly(storePath, paths, closeOpen: false, configuration)
            let open = try Self.openSessionsInCheckpoint(storePath)
            if index < 3 { #expect(open.contains("o-1"), "night \(index + 1)") }
            if index == 3 {
                #expect(!open.contains("o-1"))
                closedOn = outcome.runID
            }
            if index == 4 {
                let secondHalf = Self.session("o-1", device: "O", start: 0, events: 80, end: true).count - 40
                #expect(outcome.statistics.lateEvents == secondHalf, "the second half comes too late")
            }
        }
        let store = try ResultsStore(readingAt: storePath)
        let run = try store.read { try Int64.fetchOne($0, sql: "SELECT run_id FROM sessions WHERE session = 'o-1'") }
        #expect(run == closedOn)
    }

    /// Runs that read no new file do not count as idle.
    @Test func runsThatReadNothingAreNotIdle() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nights = try Self.nights(directory, count: 1, returnsOn: nil)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        var configuration = AuditConfiguration()
        configuration.idleRuns = 1
        try nightly(storePath, nights[0], configuration)
        for _ in 0..<3 { try nightly(storePath, nights[0], configuration) }
        #expect(try Self.openSessionsInCheckpoint(storePath).sorted() == ["a-1", "o-1"])
    }
}

/// What people read of a run: its times as the tables print them.
@Suite struct ReadableRunsTests {
    @Test func runsReadableShowsRFC3339Times() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nights = try OfflineDeviceNightsTests.nights(directory, count: 1, returnsOn: nil)
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, nights[0])
        let store = try ResultsStore(readingAt: storePath)
        let row = try store.read { try Row.fetchOne($0, sql: "SELECT run_id, started, finished, started_at, events FROM runs_readable") }
        let started: String = try #require(row?["started"])
        #expect(started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        #expect(row?["run_id"] == 1)
        #expect((row?["events"] as Int64?) ?? 0 > 0)
    }

    @Test func lateEventMessagesGiveTimesAsTheTablesDo() {
        let reason = LateReason.tooOld(sessionNewestTs: 1_795_000_020_000, maxLatenessMs: 10_000)
        #expect(reason.message(forEventAt: 1_795_000_000_000)
            == "event at 2026-11-18T11:06:40.000Z: ts is more than 10000 ms older than the session's newest event (2026-11-18T11:07:00.000Z)")
    }
}
