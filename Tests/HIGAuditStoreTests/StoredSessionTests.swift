import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// Open sessions stored field by field (`StoredSession`, migration `v9-checkpoint-sessions-explicit`,
/// issue 46): every event type and value comes back equal, damaged rows throw naming their session,
/// and the rows of today's main (`PackedCheckpoint`'s form) are rewritten and continued.
@Suite struct StoredSessionTests {
    /// A session of the sample's first night that has violations and rule states, its state as stored.
    static func sampleSession(in directory: URL) throws -> (session: SessionCheckpoint, stored: [UInt8]) {
        let path = directory.appendingPathComponent("store.sqlite").path
        try nightly(path, try PackedCheckpointTests.uploads("1800"), AuditConfiguration())
        let states = try PackedCheckpointTests.storedStates(path)
        let sessions = try PackedCheckpointTests.load(path).sessions
        let session = try #require(sessions.filter { !$0.context.violations.isEmpty && $0.ruleStates != RuleStates() }
            .min { states[$0.id]!.count < states[$1.id]!.count })
        return (session, [UInt8](states[session.id]!))
    }

    /// One event of every type, optional values present and absent, texts repeated, changed, absent and
    /// (the session's) different from the checkpoint's id, sources of imported records and unknown files.
    static func everyKindOfEvent(session: String) -> [Event] {
        let custom = SessionSettings(
            hapticsEnabled: false, pencilPreferredAction: .showColorPalette, pencilCustomActionEnabled: true,
            touches: .sampled, synthetic: true)
        let payloads: [EventPayload] = [
            .sessionStart(.defaults), .sessionStart(custom), .sessionEnd, .appReady, .ratingPrompt,
            .touch(Touch(phase: .began, target: "tab:Library", input: .pencil, x: 1.5, y: -0.25)),
            .touch(Touch(phase: .ended)),
            .pencilDoubleTap(action: .system(.switchPrevious)), .pencilDoubleTap(action: .custom("lasso é")),
            .haptic(kind: HapticKind.allCases.last!, durationMs: 12.5), .haptic(kind: HapticKind.allCases[0], durationMs: nil),
            .outcome(result: OutcomeResult.allCases.last!, task: "export"), .outcome(result: OutcomeResult.allCases[0], task: nil),
            .tabSwitch(from: "a", to: "b"), .navPush(to: "detail"), .navPop(to: "home"),
            .modalPresent(modal: "sheet", style: ModalStyle.allCases.last!), .modalDismiss(modal: "sheet"),
            .contentMutation(action: MutationAction.allCases.last!, object: "note", undoable: true),
            .contentMutation(action: MutationAction.allCases[0], object: nil, undoable: false),
            .loadingStart(id: "feed", indicator: LoadingIndicator.allCases.last!), .loadingEnd(id: "feed"),
            .captureStart(source: CaptureSource.allCases.last!), .captureStop(source: CaptureSource.allCases[0]),
            .permissionRequest(permission: Permission.allCases.last!, result: PermissionResult.allCases.last!),
            .permissionRequest(permission: Permission.allCases[0], result: nil),
            .widgetDisplay(widget: "clock", content: WidgetContent.allCases.last!, loadMs: 3),
            .widgetDisplay(widget: "clock", content: WidgetContent.allCases[0], loadMs: nil),
        ]
        return payloads.enumerated().map { index, payload in
            let n = Int64(index)
            return Event(
                ts: 1_795_197_600_000 + n * 7 - (index == 3 ? 50 : 0), session: index == 5 ? session + "-other" : session,
                payload: payload, device: index == 4 ? nil : "ipad-0001", app: "com.example.notes",
                appVersion: index < 10 ? "5.2.0" : "5.3.0", osVersion: index % 4 == 0 ? nil : "18.1",
                screen: index % 3 == 0 ? "home" : "detail \(index)", id: index == 6 ? nil : "e-\(index)",
                source: SourceLocation(file: index == 7 ? -1 : Int32(index / 9), line: 10_000 - n * 3, record: index % 5 == 0 ? 0 : Int32(index)))
        }
    }

    @Test func everyEventTypeAndValueRoundTrips() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var session = try Self.sampleSession(in: directory).session
        session.pendingEvents = Self.everyKindOfEvent(session: session.id)
        session.seenIds = [0, 1, .max, 1 << 63]
        session.endTs = -5
        session.releasedEarlyTs = .min
        let stored = try StoredSession.encode(session)
        #expect(stored.first == StoredSession.formatVersion)
        #expect(try StoredSession.decode(stored) == session)

        session.device = nil
        session.endTs = nil
        session.releasedEarlyTs = nil
        session.pendingEvents = []
        session.seenIds = []
        #expect(try StoredSession.decode(try StoredSession.encode(session)) == session)
    }

    /// Every prefix of a stored session throws, naming the session, and so does a changed byte wherever
    /// it no longer reads; nothing traps.
    @Test func everyTruncationOrDamageThrowsNamingTheSession() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var session = try Self.sampleSession(in: directory).session
        session.pendingEvents += Self.everyKindOfEvent(session: session.id)
        let stored = try StoredSession.encode(session)
        func named(_ bytes: [UInt8]) -> Bool {
            do {
                _ = try StoredCheckpoint.decode(Data(bytes), session: session.id, JSONDecoder())
                return false
            } catch StoredCheckpointError.unreadableSession(let name, _) {
                return name == session.id
            } catch {
                return false
            }
        }
        for length in 0..<stored.count {
            #expect(named(Array(stored.prefix(length))), "the first \(length) bytes")
        }
        #expect(named(stored + [0]), "a byte past the session")
        for index in stored.indices {
            for value: UInt8 in [0x00, 0x7F, 0xFF] where stored[index] != value {
                var changed = stored
                changed[index] = value
                _ = try? StoredCheckpoint.decode(Data(changed), session: session.id, JSONDecoder())
            }
        }
        // A form this version does not know (a later one) is not read as any it does.
        var later = stored
        later[0] = StoredSession.formatVersion + 1
        #expect(named(later))
    }

    /// A damaged row of the new form stops the night with the session named, and writes nothing.
    @Test func aDamagedStoredRowStopsTheNightNamingItsSession() throws {
        try PackedCheckpointTests.expectADamagedRowStopsTheNight { $0.prefix($0.count / 2) }
    }

    /// Fixtures/README.md: two nights with open sessions by today's main before this migration (schema
    /// `v1`–`v8`, the checkpoint rows in `PackedCheckpoint`'s form).
    static let storeOfMainBeforeExplicit = "store-2026-11-29-4745989.sqlite"

    /// The migration rewrites the packed rows field by field, each session equal to what it held, and the
    /// next night continues them: the store's tables are `analyze`'s over the three nights.
    @Test func thePackedRowsOfTodaysMainAreRewrittenAndContinued() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try RowIndexesByRunTests.copy(Self.storeOfMainBeforeExplicit, in: directory)
        #expect(try StoreMigrationTests.migrations(path) == Array(StoreMigrations.identifiers.prefix(8)).sorted())
        let packed = try PackedCheckpointTests.storedStates(path)
        #expect(!packed.isEmpty && packed.values.allSatisfy { $0.first == PackedCheckpoint.formatVersion })
        let before = try PackedCheckpointTests.load(path)
        #expect(before.sessions.contains { !$0.pendingEvents.isEmpty })

        _ = try ResultsStore(writingAt: path)
        #expect(try StoreMigrationTests.migrations(path) == StoreMigrations.identifiers.sorted())
        let stored = try PackedCheckpointTests.storedStates(path)
        #expect(Set(stored.keys) == Set(packed.keys))
        #expect(stored.values.allSatisfy { $0.first == StoredSession.formatVersion })
        #expect(try PackedCheckpointTests.load(path) == before)

        try PackedCheckpointTests.expectTheLastNightEqualsOneAnalyze(path)
    }

    /// The migration rewrites a batch of keys at a time: more rows than a batch all come out in the new
    /// form and equal, and the next night continues them.
    @Test func theMigrationRewritesMoreRowsThanABatch() throws {
        // The rows as a version before `v9` wrote them.
        try PackedCheckpointTests.expectManyRowsMigrate(
            writtenAs: { Data(try PackedCheckpoint.encode($0)) }, startingWith: PackedCheckpoint.formatVersion,
            forgetting: "v9-checkpoint-sessions-explicit", into: StoredSession.formatVersion)
    }

    /// A store whose rows are of this form records `v9`: a version before it (which would fail on the
    /// rows) refuses the store by that record, as this version refuses a store of a later one.
    @Test func theRecordOfTheNewFormRefusesTheStoreToEarlierVersions() throws {
        #expect(StoreMigrations.identifiers.contains("v9-checkpoint-sessions-explicit"))
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        try nightly(path, try PackedCheckpointTests.uploads("1800"), AuditConfiguration())
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-a-later-form')")
        }
        #expect(throws: StoreError.self) { _ = try ResultsStore(writingAt: path) }
    }
}
