import Testing
@testable import HIGAuditCore

/// Which imported session a launch read after its session's synthetic start opens (SPEC §7
/// "Sessions", `EventImporter.launchNumber`): one at or before that start's `ts` is the launch the
/// events before it followed, uploaded after them, and keeps the SDK's id; one after it is the next
/// launch. Read both ways, by layouts' plans and without, as `import` writes them.
@Suite struct ImportedLaunchOrderTests {
    static func line(_ name: String, _ uuid: String, second: Int, _ properties: String = "") -> [UInt8] {
        let time = "2026-11-20T10:00:\(second < 10 ? "0" : "")\(second)Z"
        return Array(#"{"uuid":"\#(uuid)","event":"\#(name)","timestamp":"\#(time)","properties":{"$session_id":"S1","$device_id":"dev1"\#(properties)}}"#.utf8)
    }

    static func opened(_ uuid: String, second: Int) -> [UInt8] {
        line("Application Opened", uuid, second: second, #","from_background":false"#)
    }

    /// What `import` writes for `lines`, read by plans and without (the two must agree): each line's
    /// session and type.
    static func written(_ lines: [[UInt8]]) -> [String] {
        let ways = [true, false].map { readsPlans in
            ImportOutcomes.read(.posthog, lines, writes: true) { $0.readsPlans = readsPlans }.outcomes
                .filter { $0.hasPrefix("written ") }
                .map { written in
                    let session = written.firstMatch(of: /"session":"([^"]*)"/).map { String($0.1) } ?? "?"
                    let type = written.firstMatch(of: /"type":"([^"]*)"/).map { String($0.1) } ?? "?"
                    return written.contains(#""synthetic":true"#) ? "\(session) \(type) synthetic" : "\(session) \(type)"
                }
        }
        #expect(ways[0] == ways[1])
        return ways[0]
    }

    /// The tester's F3: a rating prompt read before the launch it followed keeps that launch's session.
    @Test func aLaunchReadAfterAnEventItPrecedesKeepsTheSDKsId() {
        let lines = [Self.line("hig.rating.prompt", "r1", second: 2), Self.opened("o1", second: 0)]
        #expect(Self.written(lines) == ["S1 session.start synthetic", "S1 rating.prompt", "S1 session.start"])
    }

    /// At the synthetic start's own time too; and the launches after it are numbered from it.
    @Test func laterLaunchesCountFromTheFirstReadAfterItsEvents() {
        let lines = [
            Self.line("hig.haptic", "h1", second: 1, #","kind":"impact.light""#), Self.opened("o1", second: 1),
            Self.opened("o1", second: 1), Self.opened("o2", second: 30), Self.line("hig.rating.prompt", "r2", second: 31),
        ]
        // The retried first launch is its duplicate in `S1` (the engine skips it), not a second launch.
        #expect(Self.written(lines) == [
            "S1 session.start synthetic", "S1 haptic", "S1 session.start", "S1 session.start", "S1#2 session.start", "S1#2 rating.prompt",
        ])
    }

    /// A launch after the synthetic start's `ts` is another launch than the one the events before it
    /// followed: in `S1` it would come after their `session.end`, late once `S1` closed.
    @Test func aLaunchAfterTheSyntheticStartIsTheNextLaunch() {
        let lines = [
            Self.line("hig.rating.prompt", "r1", second: 2), Self.line("Application Backgrounded", "b1", second: 3),
            Self.opened("o1", second: 20), Self.line("hig.rating.prompt", "r2", second: 21),
        ]
        #expect(Self.written(lines) == [
            "S1 session.start synthetic", "S1 rating.prompt", "S1 session.end", "S1#2 session.start", "S1#2 rating.prompt",
        ])
    }

    /// A first launch read after the screens it preceded continues the session the screens before it began: the tab they
    /// showed is the one a later tab root switches from.
    @Test func aFirstLaunchReadAfterItsScreensKeepsTheTabShown() {
        let lines = [
            Self.line("$screen", "s1", second: 2, #","$screen_name":"Library""#), Self.opened("o1", second: 0),
            Self.line("$screen", "s2", second: 3, #","$screen_name":"Search""#),
        ]
        #expect(Self.written(lines) == [
            "S1 session.start synthetic", "S1 nav.push", "S1 session.start", "S1 nav.tab_switch",
        ])
    }
}
