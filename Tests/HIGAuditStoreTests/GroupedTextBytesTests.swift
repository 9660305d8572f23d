import Foundation
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `query --group-by` keeps every group SQLite counts: texts that Swift compares equal but whose bytes
/// differ (NFC "é", NFD "e" + U+0301) are two groups, and no violation is lost between them.
@Suite struct GroupedTextBytesTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func canonicallyEquivalentScreensAndDevicesKeepTheirOwnRows() throws {
        #expect(Self.composed == Self.decomposed && !Self.composed.utf8.elementsEqual(Self.decomposed.utf8))
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // One session with a long haptic on each spelling of the screen; two devices, one of each spelling.
        let lines = [
            #"{"ts":0,"session":"u1","type":"session.start","device":"\#(Self.decomposed)","app_version":"1.0"}"#,
            #"{"ts":5000,"session":"u1","type":"haptic","kind":"custom","duration_ms":2000,"screen":"\#(Self.decomposed)"}"#,
            #"{"ts":6000,"session":"u1","type":"haptic","kind":"custom","duration_ms":2000,"screen":"\#(Self.composed)"}"#,
            #"{"ts":9000,"session":"u1","type":"session.end"}"#,
            #"{"ts":20000,"session":"u2","type":"session.start","device":"\#(Self.composed)","app_version":"1.0"}"#,
            #"{"ts":21000,"session":"u2","type":"haptic","kind":"custom","duration_ms":2000,"screen":"home"}"#,
            #"{"ts":29000,"session":"u2","type":"session.end"}"#,
        ]
        let path = try closedStore(of: lines, in: directory)
        try ResultsStore(readingAt: path).read { db in
            func rows(_ dimensions: [GroupDimension]) throws -> [[String]] {
                let table = try StoreQuery.grouped(db, by: dimensions)
                return table.materializedRows.map { $0.map(\.plainText) }
            }
            let byRule = try rows([.rule]).first { $0[0] == "haptic-overuse" }
            #expect(byRule?[1] == "3", "\(String(describing: byRule))")
            let byScreen = try rows([.screen])
            #expect(byScreen.map { $0[1] } .compactMap(Int.init).reduce(0, +) == 3, "\(byScreen)")
            #expect(byScreen.filter { $0[0] == Self.composed }.count == 2, "two rows, one per spelling: \(byScreen)")
            // Each device spelling is its own group, with its own session among the totals.
            let byDevice = try rows([.device])
            #expect(byDevice.count == 2 && byDevice.allSatisfy { $0[3] == "1" }, "\(byDevice)")
            #expect(byDevice.map { $0[1] }.compactMap(Int.init).reduce(0, +) == 3, "\(byDevice)")
        }
    }
}
