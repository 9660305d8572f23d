import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// SPEC §2 `max_pending_events` as a run reports it: one `pending limit` warning naming the session,
/// and each event older than one that went early as a late event with its file and line.
@Suite struct PendingLimitRunTests {
    @Test func aSessionPastTheLimitIsNamedOnceAndItsOlderEventsAreLate() throws {
        let directory = try InputFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stamps: [Int64] = [10, 20, 30, 40, 50, 5, 60]
        let text = stamps.map { offset in
            #"{"ts":\#(1_795_208_646_000 + offset),"session":"s-1","device":"d-1","type":"app.ready"}"#
        }.joined(separator: "\n") + "\n"
        let path = try InputFixtures.write(Array(text.utf8), named: "burst.ndjson", in: directory)
        var diagnostics: [Diagnostic] = []
        let configuration = try ConfigurationLoader(rules: RuleRegistry.descriptions)
            .parse("max_pending_events: 3", file: "audit.yml")
        let run = AuditRun(configuration: configuration, reader: try InputReader(), onDiagnostic: { diagnostics.append($0) })
        run.read([InputSource(path: path)])
        _ = run.finish()
        #expect(diagnostics.filter { $0.category == .pendingLimit }.map(\.location) == ["session s-1"])
        let late = diagnostics.filter { $0.category == .lateEvent }
        #expect(late.count == 1)
        #expect(late.first?.location.hasSuffix("burst.ndjson:6") == true)
        #expect(run.statistics.lateEvents == 1)
        #expect(run.statistics.events == 6)
    }
}
