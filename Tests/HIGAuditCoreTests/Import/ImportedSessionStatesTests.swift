import Testing
@testable import HIGAuditCore

/// An importer's SDK sessions handed to the importer of a later run (`EventImporter+SessionStates`):
/// the lines the two write are the lines one importer writes over all the input (SPEC §7 "Sessions"),
/// for every form of session name the importer finds by its bytes or by its `String`.
@Suite struct ImportedSessionStatesTests {
    /// A short name, a UUID, a long name, and names that stand in a line with escapes.
    static let sessions = [
        "S1", "0f8fad5b-d9cb-469f-a165-70867728950e", "a-session-name-longer-than-sixteen-bytes",
        #"S\"2"#, #"S\u0033"#,
    ]

    static func line(_ session: String, _ event: String, _ uuid: String, _ time: String, _ properties: String = "") -> [UInt8] {
        Array(#"{"uuid":"\#(uuid)","event":"\#(event)","timestamp":"2026-11-20T\#(time)Z","properties":{"$session_id":"\#(session)","$device_id":"d","$app_version":"1.0"\#(properties)}}"#.utf8)
    }

    /// Per session: a launch and its tab, a second launch and its tab; then that launch retried, a
    /// switch to another tab, a third launch, a prompt.
    static func lines(night: Int) -> [[UInt8]] {
        sessions.enumerated().flatMap { index, session -> [[UInt8]] in
            let opened = #","from_background":false"#
            switch night {
            case 1:
                return [line(session, "Application Opened", "o1-\(index)", "10:00:00", opened),
                        line(session, "$screen", "v1-\(index)", "10:00:01", #","$screen_name":"Library""#),
                        line(session, "Application Opened", "o2-\(index)", "10:05:00", opened),
                        line(session, "$screen", "v2-\(index)", "10:05:01", #","$screen_name":"Library""#)]
            default:
                return [line(session, "Application Opened", "o2-\(index)", "10:05:00", opened),
                        line(session, "$screen", "v3-\(index)", "10:06:00", #","$screen_name":"Search""#),
                        line(session, "Application Opened", "o3-\(index)", "10:10:00", opened),
                        line(session, "hig.rating.prompt", "r-\(index)", "10:10:02")]
            }
        }
    }

    static func written(_ outcomes: [String]) -> [String] { outcomes.filter { $0.hasPrefix("written ") } }

    @Test func aLaterRunGoesOnFromTheStatesHandedToIt() {
        let oneRun = ImportOutcomes.read(.posthog, Self.lines(night: 1) + Self.lines(night: 2), writes: true) { _ in }
        let first = ImportOutcomes.read(.posthog, Self.lines(night: 1), writes: true) { _ in }
        var states: [(String, EventImporter.SessionLaunches)] = []
        first.importer.forEachSessionRead { session, state, changed in
            #expect(changed)
            states.append((session, state))
        }
        #expect(Set(states.map(\.0)) == Set(["S1", "0f8fad5b-d9cb-469f-a165-70867728950e", "a-session-name-longer-than-sixteen-bytes", #"S"2"#, "S3"]))
        let second = ImportOutcomes.read(.posthog, Self.lines(night: 2), writes: true) { importer in
            for (session, state) in states { importer.restore(session: session, state) }
        }
        let written = Self.written(first.outcomes) + Self.written(second.outcomes)
        #expect(written == Self.written(oneRun.outcomes))
        #expect(written.contains { $0.contains(#""session":"S1#2","type":"nav.tab_switch""#) && $0.contains(#""from":"Library""#) })
        #expect(written.contains { $0.contains(#""session":"S1#3","type":"session.start""#) })
        #expect(second.importer.sessionsKnown == Self.sessions.count)
    }

    /// A restored session is named by the next call only once an event of it is read, and as changed
    /// only when what is known of it changed.
    @Test func onlySessionsReadAreHandedOver() {
        let first = ImportOutcomes.read(.posthog, Self.lines(night: 1), writes: false) { _ in }
        var states: [String: EventImporter.SessionLaunches] = [:]
        first.importer.forEachSessionRead { session, state, _ in states[session] = state }
        let opened = #","from_background":false"#
        let second = ImportOutcomes.read(.posthog, [
            Self.line("S1", "hig.rating.prompt", "r", "10:06:00"),
            Self.line("S3", "Application Opened", "o9", "10:07:00", opened),
        ], writes: false) { importer in
            for (session, state) in states { importer.restore(session: session, state) }
        }
        var handed: [String: Bool] = [:]
        second.importer.forEachSessionRead { session, _, changed in handed[session] = changed }
        #expect(handed == ["S1": false, "S3": true])
        var again = 0
        second.importer.forEachSessionRead { _, _, _ in again += 1 }
        #expect(again == 0)
    }
}
