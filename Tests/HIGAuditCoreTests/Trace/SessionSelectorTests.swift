import Testing
@testable import HIGAuditCore

/// `show`'s choice of one session from an id or a prefix, made while the input streams by.
@Suite struct SessionSelectorTests {
    func event(_ session: String) -> Event { Event(ts: 0, session: session, payload: .appReady) }

    func steps(_ prefix: String, _ sessions: [String]) -> (steps: [SessionSelector.Step], resolution: SessionSelector.Resolution) {
        var selector = SessionSelector(prefix: prefix)
        let steps = sessions.map { selector.step(for: event($0)) }
        return (steps, selector.resolution)
    }

    @Test func theOnlySessionAPrefixStartsIsRecorded() {
        let result = steps("ab", ["xy", "abc", "xy", "abc", "abc"])
        #expect(result.steps == [.skip, .record, .skip, .record, .record])
        #expect(result.resolution == .found("abc"))
    }

    @Test func aSecondCandidateDropsTheRecordingAndMakesThePrefixAmbiguous() {
        let result = steps("a", ["ab", "ac", "ab", "ad"])
        #expect(result.steps == [.record, .dropRecording, .skip, .skip])
        #expect(result.resolution == .ambiguous(["ab", "ac", "ad"]))
    }

    @Test func aWholeIdWinsWheneverItComes() {
        let late = steps("a", ["ab", "ac", "a", "ab", "a"])
        #expect(late.steps == [.record, .dropRecording, .record, .skip, .record])
        #expect(late.resolution == .found("a"))
        let replacing = steps("a", ["ab", "a", "ac"])
        #expect(replacing.steps == [.record, .recordAnew, .skip])
        #expect(replacing.resolution == .found("a"))
    }

    @Test func nothingMatches() {
        let result = steps("zz", ["ab", "zy"])
        #expect(result.steps == [.skip, .skip])
        #expect(result.resolution == .none)
    }

    @Test func longIdsArePrefixMatchedByTheirBytes() {
        let long = "0123456789abcdef-0123456789"
        let result = steps("0123456789abcdef-", ["0123456789abcdef", long, long])
        #expect(result.steps == [.skip, .record, .record])
        #expect(result.resolution == .found(long))
    }
}

/// What `show` lists: the rules' order, violations at their source, late and duplicate events apart.
@Suite struct SessionTraceTests {
    @Test func acceptedEventsAreInTsOrderThenInputOrderAndViolationsHangOnTheirSource() {
        var trace = SessionTrace(session: "s")
        let events = [(2000, 1), (1000, 2), (2000, 3), (500, 4)].map { ts, line in
            Event(ts: Int64(ts), session: "s", payload: .appReady, source: SourceLocation(file: 0, line: Int64(line)))
        }
        trace.record(events[0], .accepted)
        trace.record(events[1], .accepted)
        trace.record(events[2], .accepted)
        trace.record(events[3], .late(.tooOld(sessionNewestTs: 2000, maxLatenessMs: 1000)))
        let violation = Violation(
            rule: "slow-launch", severity: .warning, session: "s", screen: "", startTs: 2000, endTs: 2000,
            detail: "slow", source: SourceLocation(file: 0, line: 3))
        trace.close(with: SessionReport(
            session: "s", device: "", appVersion: "", firstTs: 1000, lastTs: 2000, acceptedEvents: 3,
            hapticCounts: [:], violations: [violation]))
        #expect(trace.accepted.map(\.event.source.line) == [2, 1, 3])
        #expect(trace.accepted.map(\.violations.count) == [0, 0, 1])
        #expect(trace.notAccepted.map(\.event.source.line) == [4])
        let table = trace.eventsTable(sources: SourceFileTable(paths: ["f"]))
        #expect(table.materializedRows.map { $0[4].plainText } == ["f:2", "f:1", "f:3"])
        #expect(table.materializedRows[2][5] == .label("slow-launch"))
    }
}
