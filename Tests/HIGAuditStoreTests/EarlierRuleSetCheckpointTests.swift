import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// A store whose engine checkpoint was written by the version with eleven rules (its rule states have
/// no keys for `slow-launch`, `unprompted-permission-request`, `early-rating-prompt` and
/// `widget-placeholder`) is continued by this version: the checkpointed sessions go on, the four rules
/// starting from their initial states, and the tables equal one `analyze` over all the files.
@Suite struct EarlierRuleSetCheckpointTests {
    static let launchRuleKeys: Set<String> = ["slowLaunch", "unpromptedPermissionRequest", "earlyRatingPrompt", "widgetPlaceholder"]

    /// Sessions that start in the first file, before any event of the new types, and go on in the
    /// second with launch, permission, rating and widget events.
    static func files() -> (first: [String], second: [String]) {
        var first: [String] = []
        var second: [String] = []
        for number in 0..<6 {
            let session = "s\(number)"
            let t = LogFixtures.base + Int64(number) * 1_000
            func line(_ ts: Int64, _ fields: String) -> String {
                #"{"ts":\#(ts),"session":"\#(session)","device":"ipad-\#(number)","app_version":"5.\#(number % 2)","screen":"home",\#(fields)}"#
            }
            first.append(line(t, #""type":"session.start""#))
            first.append(line(t + 300, #""type":"nav.push","to":"detail""#))
            second.append(line(t + 1_500 + Int64(number) * 200, #""type":"app.ready""#))
            second.append(line(t + 2_400, #""type":"permission.request","permission":"location""#))
            second.append(line(t + 3_000, #""type":"touch","phase":"ended","target":"button:scan""#))
            second.append(line(t + 3_500, #""type":"permission.request","permission":"camera","result":"granted""#))
            second.append(line(t + 30_000 * Int64(number), #""type":"rating.prompt""#))
            second.append(line(t + 200_000, #""type":"rating.prompt""#))
            second.append(line(t + 200_100, #""type":"widget.display","widget":"w","content":"cached","load_ms":\#(number * 400)"#))
            second.append(line(t + 200_200, #""type":"session.end""#))
        }
        return (first, second.sorted { $0.split(separator: ",")[0] < $1.split(separator: ",")[0] })
    }

    @Test func aCheckpointWithoutTheLaunchRulesContinues() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let (first, second) = Self.files()
        let paths = try LogFixtures.writeZstdFiles([first, second], in: directory, framesPerFile: 1)
        try nightly(storePath, [paths[0]])

        // Write the checkpoint back as the eleven-rule version wrote it: one JSON value, no rows.
        let queue = try DatabaseQueue(path: storePath)
        try queue.write { db in
            let data = try JSONEncoder().encode(try StoredCheckpoint.load(db))
            let stripped = try Self.removingKeys(Self.launchRuleKeys, from: data)
            let sessions = try JSONDecoder().decode(EngineCheckpoint.self, from: stripped).sessions
            #expect(sessions.count == 6)
            #expect(stripped.count < data.count)
            try db.execute(sql: "DELETE FROM checkpoint_sessions")
            try db.execute(sql: "DELETE FROM checkpoint_devices")
            try db.execute(sql: "UPDATE engine_checkpoint SET state = ? WHERE id = 1", arguments: [stripped])
        }
        try queue.close()

        let (outcome, _) = try nightly(storePath, [paths[1]], closeOpen: true)
        #expect(outcome.statistics.events == Int64(second.count))
        let expected = try analyzeTables(paths, StoreTestConfiguration.standard)
        #expect(try storeTables(storePath) == expected)
        let summary = try #require(expected[.summary])
        for rule in ["slow-launch", "unprompted-permission-request", "early-rating-prompt", "widget-placeholder"] {
            #expect(!summary.contains("\(rule),warning,0,"), "\(rule) must have violations here")
        }
    }

    /// The JSON with every object member named in `keys` removed, at any depth.
    static func removingKeys(_ keys: Set<String>, from data: Data) throws -> Data {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] { return object.filter { !keys.contains($0.key) }.mapValues(strip) }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return try JSONSerialization.data(withJSONObject: strip(try JSONSerialization.jsonObject(with: data)))
    }
}
