import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// Open sessions stored in `PackedCheckpoint`'s binary form (migration `v8-checkpoint-sessions-packed`,
/// issue 46): every session a night leaves comes back equal, the nights continue as one run over all of
/// them would, damaged bytes are refused without a crash, and the JSON rows of today's main are
/// rewritten by the migration and continued.
@Suite struct PackedCheckpointTests {
    static let slots = ["1800", "1810", "1820"]

    /// The uploads of `slot` whose iPad number starts with one of `prefixes` (`ipad-00`, `ipad-01`).
    static func uploads(_ slot: String, _ prefixes: [String] = ["ipad-00", "ipad-01"]) throws -> [String] {
        try StoreMigrationTests.uploads(slot).filter { path in
            let name = URL(fileURLWithPath: path).lastPathComponent
            return prefixes.contains { name.hasPrefix($0) }
        }
    }

    static func storedStates(_ path: String) throws -> [String: Data] {
        try DatabaseQueue(path: path).read { db in
            var states: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT session, state FROM checkpoint_sessions") {
                states[row["session"]] = row["state"]
            }
            return states
        }
    }

    /// The night of slot 1820 into the store at `path` closes every session, and the store's tables
    /// equal one `analyze` over every slot's uploads: the migrated checkpoint was continued exactly.
    static func expectTheLastNightEqualsOneAnalyze(_ path: String) throws {
        let configuration = AuditConfiguration()
        let (night, _) = try nightly(path, try StoreMigrationTests.uploads("1820"), closeOpen: true, configuration)
        #expect(night.openSessions == 0)
        let everything = try slots.flatMap { try StoreMigrationTests.uploads($0) }
        let expected = try analyzeTables(everything, configuration)
        let actual = try storeTables(path)
        for name in [TableName.summary, .byVersion, .byScreen, .haptics] {
            #expect(actual[name] == expected[name], "table \(name.rawValue) differs")
        }
    }

    static func load(_ path: String) throws -> EngineCheckpoint {
        try ResultsStore(readingAt: path).read { try StoredCheckpoint.load($0) }
    }

    /// Three nights of the sample's uploads, the middle one from half the iPads (the others' sessions
    /// wait parked through it), the last closing what is open: the store's tables are those of one
    /// `analyze` over the same files, and every stored state is packed and reads back as it was written.
    @Test func nightsContinueOpenSessionsStoredPacked() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()
        let nights = [try Self.uploads("1800"), try Self.uploads("1810", ["ipad-00"]),
                      try Self.uploads("1810", ["ipad-01"]) + Self.uploads("1820")]

        try nightly(path, nights[0], configuration)
        let (middle, _) = try nightly(path, nights[1], configuration)
        #expect(middle.openSessions > 0)
        let states = try Self.storedStates(path)
        #expect(states.count == middle.openSessions)
        #expect(states.values.allSatisfy { $0.first == StoredSession.formatVersion })
        let checkpoint = try Self.load(path)
        #expect(checkpoint.sessions.count == states.count)
        // What makes the round trip worth checking: rule states, waiting events, seen ids, violations.
        #expect(checkpoint.sessions.contains { $0.ruleStates != RuleStates() })
        #expect(checkpoint.sessions.contains { !$0.pendingEvents.isEmpty })
        #expect(checkpoint.sessions.contains { !$0.seenIds.isEmpty })
        #expect(checkpoint.sessions.contains { !$0.context.violations.isEmpty })
        for session in checkpoint.sessions {
            let stored = try StoredSession.encode(session)
            #expect(Data(stored) == states[session.id], "session \(session.id) is stored as it encodes")
            let packed = try PackedCheckpoint.encode(session)
            #expect(try PackedCheckpoint.decode(SessionCheckpoint.self, from: packed) == session)
            #expect(stored.count < packed.count)
            let json = try JSONEncoder().encode(session)
            #expect(packed.count < json.count)
        }

        let (last, _) = try nightly(path, nights[2], closeOpen: true, configuration)
        #expect(last.openSessions == 0)
        #expect(try storeTables(path) == analyzeTables(nights.flatMap { $0 }, configuration))
    }

    /// Values of every kind the coder has, and containers nested, come back equal.
    struct EveryKind: Codable, Equatable {
        var flags: [Bool] = [true, false]
        var small: Int8 = -128
        var wide: Int64 = .min
        var unsigned: UInt64 = .max
        var negative = -1
        var ratio = -0.1
        var single: Float = 3.5
        var text = "é ✓ \u{0}"
        var empty = ""
        var missing: Int? = nil
        var present: String? = "x"
        var words: [UInt64] = [0, .max, 1 << 63]
        var nested: [String: [Int]] = ["a": [1, -2], "b": []]
        var levels: [[String?]] = [["x", nil], []]
    }

    @Test func valuesOfEveryKindRoundTrip() throws {
        let value = EveryKind()
        let packed = try PackedCheckpoint.encode(value)
        let decoded = try PackedCheckpoint.decode(EveryKind.self, from: packed)
        #expect(decoded == value)
    }

    /// Every prefix of a stored state, and a state with a byte changed, throws instead of trapping.
    @Test func damagedBytesThrow() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        try nightly(path, try Self.uploads("1800"), AuditConfiguration())
        // The smallest stored session that has violations: every kind of container and value.
        let packed = try #require(try Self.load(path).sessions.filter { !$0.context.violations.isEmpty }
            .map { try PackedCheckpoint.encode($0) }
            .min { $0.count < $1.count })
        for length in 0..<packed.count {
            #expect(throws: DecodingError.self) {
                _ = try PackedCheckpoint.decode(SessionCheckpoint.self, from: Array(packed.prefix(length)))
            }
        }
        for index in 1..<packed.count {
            var changed = packed
            changed[index] = 0xFF
            // Either it still reads as some value or it throws; it never traps.
            _ = try? PackedCheckpoint.decode(SessionCheckpoint.self, from: changed)
        }
    }

    /// A damaged packed row stops the night with the session named, and writes nothing.
    @Test func aDamagedRowNamesItsSession() throws {
        try Self.expectADamagedRowStopsTheNight { _ in Data([PackedCheckpoint.formatVersion, 0x09, 0x05]) }
    }

    /// After a night of slot 1800, the first open session's row is replaced by `damaged(its row)`: the
    /// night of slot 1810 stops with that session named, and the store file is left byte for byte.
    static func expectADamagedRowStopsTheNight(_ damaged: (Data) -> Data) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        try nightly(path, try uploads("1800"), AuditConfiguration())
        let states = try storedStates(path)
        let session = try #require(states.keys.min())
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE checkpoint_sessions SET state = ? WHERE session = ?",
                           arguments: [damaged(states[session]!), session])
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try nightly(path, try uploads("1810"), AuditConfiguration())
        } throws: { error in
            guard case StoredCheckpointError.unreadableSession(let named, _) = error else { return false }
            return named == session
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Fixtures/README.md: two nights with open sessions by today's main before this migration (schema
    /// `v1`–`v7`, the checkpoint rows as JSON).
    static let storeOfMainBeforePacking = "store-2026-11-29-4484be2.sqlite"

    /// The migration rewrites the JSON rows packed, each session equal to what its JSON held, and the
    /// next night continues them: the store's tables are `analyze`'s over the three nights.
    @Test func theJSONRowsOfTodaysMainArePackedAndContinued() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try RowIndexesByRunTests.copy(Self.storeOfMainBeforePacking, in: directory)
        #expect(try StoreMigrationTests.migrations(path) == Array(StoreMigrations.identifiers.prefix(7)).sorted())
        let json = try Self.storedStates(path)
        #expect(!json.isEmpty && json.values.allSatisfy { $0.first == UInt8(ascii: "{") })
        let before = try Self.load(path)

        _ = try ResultsStore(writingAt: path)
        #expect(try StoreMigrationTests.migrations(path) == StoreMigrations.identifiers.sorted())
        let packed = try Self.storedStates(path)
        #expect(Set(packed.keys) == Set(json.keys))
        #expect(packed.values.allSatisfy { $0.first == StoredSession.formatVersion })
        #expect(try Self.load(path) == before)
        let packedBytes = packed.values.reduce(0) { $0 + $1.count }
        let jsonBytes = json.values.reduce(0) { $0 + $1.count }
        #expect(packedBytes < jsonBytes)

        try Self.expectTheLastNightEqualsOneAnalyze(path)
    }

    /// The migration packs JSON rows a batch of keys at a time: more rows than a batch all come out
    /// packed and equal, and the next night continues them.
    @Test func theMigrationPacksMoreRowsThanABatch() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Only `v8` is missing: its rows are packed, and read as they are (`v9` is recorded already).
        try Self.expectManyRowsMigrate(
            writtenAs: { Data(try encoder.encode($0)) }, startingWith: UInt8(ascii: "{"),
            forgetting: "v8-checkpoint-sessions-packed", into: PackedCheckpoint.formatVersion)
    }

    /// 1,234 open sessions whose rows are put back in an earlier form (`writtenAs`, each then starting
    /// with `startingWith`) and the record of `migration` removed: opening the store rewrites every
    /// row (each then starting with `into`), the sessions load as they were, and the next night gives
    /// the tables of one `analyze` over both nights. More rows than one batch of the migration's walk.
    static func expectManyRowsMigrate(
        writtenAs earlier: (SessionCheckpoint) throws -> Data, startingWith earlierStart: UInt8,
        forgetting migration: String, into formatStart: UInt8
    ) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, second) = CheckpointRowsTests.nights(devices: 1_234)
        let paths = try LogFixtures.writeZstdFiles([first, second], in: directory, framesPerFile: 1)
        let path = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()
        try nightly(path, [paths[0]], configuration)
        let before = try load(path)
        #expect(before.sessions.count == 1_234)
        try DatabaseQueue(path: path).write { db in
            for session in before.sessions {
                try db.execute(sql: "UPDATE checkpoint_sessions SET state = ? WHERE session = ?",
                               arguments: [try earlier(session), session.id])
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [migration])
        }
        #expect(try storedStates(path).values.allSatisfy { $0.first == earlierStart })

        _ = try ResultsStore(writingAt: path)
        let rewritten = try storedStates(path)
        #expect(rewritten.count == 1_234 && rewritten.values.allSatisfy { $0.first == formatStart })
        #expect(try load(path) == before)
        try nightly(path, [paths[1]], closeOpen: true, configuration)
        #expect(try storeTables(path) == analyzeTables(paths, configuration))
    }
}
