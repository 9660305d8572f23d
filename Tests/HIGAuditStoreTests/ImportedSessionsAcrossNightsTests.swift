import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `nightly --from` over an SDK session whose launches are uploaded on different nights (SPEC §7
/// "Sessions", §2 incremental runs): the nights give what one run over all their inputs gives, because
/// what the importer knows of each SDK session is kept in the store between runs
/// (`StoredImportedSessions`, migration `v10-checkpoint-import-sessions`).
@Suite struct ImportedSessionsAcrossNightsTests {
    /// A PostHog event of the SDK session `session` on device `dev1`, at `time` on 2026-11-20.
    static func posthog(
        _ session: String, _ name: String, _ uuid: String, _ time: String, _ properties: String = ""
    ) -> String {
        #"{"uuid":"\#(uuid)","event":"\#(name)","timestamp":"2026-11-20T\#(time)Z","properties":{"$session_id":"\#(session)","$device_id":"dev1","$app_version":"1.0"\#(properties)}}"#
    }

    static func coldLaunch(_ session: String, _ uuid: String, _ time: String) -> String {
        posthog(session, "Application Opened", uuid, time, #","from_background":false"#)
    }

    static func screen(_ session: String, _ name: String, _ uuid: String, _ time: String) -> String {
        posthog(session, "$screen", uuid, time, #","$screen_name":"\#(name)""#)
    }

    /// Each night's lines as a file of its own, in night order.
    static func write(_ nights: [[String]], in directory: URL) throws -> [String] {
        try nights.enumerated().map { index, lines in
            let path = directory.appendingPathComponent("night-\(index + 1).jsonl").path
            try LogFixtures.text(lines).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// One `nightly --from posthog` run over `paths`, with an importer of its own as each run has.
    @discardableResult
    static func nightlyFrom(
        _ store: String, _ paths: [String], closeOpen: Bool = false, jobs: Int = 1, _ configuration: AuditConfiguration
    ) throws -> (NightlyOutcome, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let run = NightlyRun(
            store: try ResultsStore(writingAt: store), configuration: configuration, reader: try InputReader(),
            closeOpen: closeOpen, onDiagnostic: { diagnostics.append($0) })
        run.importer = EventImporter(format: .posthog, settings: configuration.importSettings)
        run.jobs = jobs
        let outcome = try run.run(paths.map { InputSource(path: $0) })
        return (outcome, diagnostics)
    }

    /// `analyze --from posthog` over `paths` in one run: the answer the nights must give.
    static func analyzeFrom(_ paths: [String], _ configuration: AuditConfiguration) -> [TableName: String] {
        try! analyzeTables(paths, configuration, from: .posthog)
    }

    /// One night per file, the last closing what is open, and the tables of the store.
    static func nights(
        _ nights: [[String]], jobs: Int = 1, _ configuration: AuditConfiguration = AuditConfiguration()
    ) throws -> (
        store: [TableName: String], oneRun: [TableName: String], diagnostics: [Diagnostic], sessions: [String], duplicates: Int64
    ) {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try write(nights, in: directory)
        let store = directory.appendingPathComponent("store.sqlite").path
        var diagnostics: [Diagnostic] = []
        var duplicates: Int64 = 0
        for (index, path) in paths.enumerated() {
            let (outcome, said) = try nightlyFrom(store, [path], closeOpen: index == paths.count - 1, jobs: jobs, configuration)
            diagnostics += said
            duplicates += outcome.statistics.duplicateEvents
        }
        let sessions = try DatabaseQueue(path: store).read { try String.fetchAll($0, sql: "SELECT session FROM sessions ORDER BY session") }
        return (try storeTables(store), analyzeFrom(paths, configuration), diagnostics, sessions, duplicates)
    }

    /// A rating prompt soon after a second cold launch uploaded the next night is `early-rating-prompt`
    /// in `S1#2`, and nothing is late, whether the first imported session is still open at the end of
    /// the first night or has closed (an event of another session of the device 20 s after its
    /// `session.end`, past `max_lateness_ms`); and with `--jobs 2`, whose importer reads on a thread
    /// of its own.
    @Test(arguments: [false, true], [1, 2])
    func aSecondLaunchUploadedTheNextNightIsTheNextImportedSession(firstClosed: Bool, jobs: Int) throws {
        let other = firstClosed ? [Self.coldLaunch("S0", "z1", "10:00:20")] : []
        let result = try Self.nights([
            [Self.coldLaunch("S1", "o1", "10:00:00"), Self.posthog("S1", "hig.rating.prompt", "r1", "10:00:02"),
             Self.posthog("S1", "Application Backgrounded", "b1", "10:00:03")] + other,
            [Self.coldLaunch("S1", "o2", "10:05:00"), Self.posthog("S1", "hig.rating.prompt", "r2", "10:05:05")],
        ], jobs: jobs)
        #expect(result.store == result.oneRun)
        #expect(result.sessions == (firstClosed ? ["S0"] : []) + ["S1", "S1#2"])
        let violations = result.store[.violations] ?? ""
        #expect(violations.contains("early-rating-prompt,warning,S1#2,dev1,1.0,"), "\(violations)")
        #expect(!result.diagnostics.contains { $0.category == .lateEvent }, "\(result.diagnostics)")
    }

    /// A launch retried on the next night (the same event id) is a duplicate of the launch read the
    /// night before, not a new launch: the second launch's prompt stays in `S1#2`.
    @Test func aLaunchRetriedTheNextNightStaysADuplicate() throws {
        let second = Self.coldLaunch("S1", "o2", "10:05:00")
        let result = try Self.nights([
            [Self.coldLaunch("S1", "o1", "10:00:00"), second],
            [second, Self.posthog("S1", "hig.rating.prompt", "r1", "10:05:30")],
        ])
        #expect(result.store == result.oneRun)
        #expect(result.sessions == ["S1", "S1#2"])
        #expect(result.duplicates == 1)
        let violations = result.store[.violations] ?? ""
        #expect(violations.contains("early-rating-prompt,warning,S1#2,dev1,1.0,"), "\(violations)")
    }

    /// The tab the person is on carries over: a tab root shown the next night without a touch is a
    /// forced switch from the tab of the night before (`import.tab_roots`; every touch captured).
    @Test func theTabCarriesOverToTheNextNight() throws {
        var configuration = AuditConfiguration()
        configuration.importSettings = ImportSettings(tabRoots: [ScreenGlob("Library"), ScreenGlob("Search")], touches: .all)
        let result = try Self.nights([
            [Self.coldLaunch("S1", "o1", "10:00:00"), Self.screen("S1", "Library", "v1", "10:00:05")],
            [Self.screen("S1", "Search", "v2", "10:00:30")],
        ], configuration)
        #expect(result.store == result.oneRun)
        let violations = result.store[.violations] ?? ""
        #expect(violations.contains("forced-tab-switch,error,S1,dev1,1.0,Library,"), "\(violations)")
    }

    /// The rows of an SDK session no run of its format has read for `idle_runs` runs in a row go at the
    /// end of the last of them, as the open sessions of a device idle that long close (SPEC §2).
    @Test func aSessionIdleForIdleRunsLosesItsRow() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = AuditConfiguration()
        configuration.idleRuns = 2
        let paths = try Self.write([
            [Self.coldLaunch("S1", "o1", "10:00:00"), Self.coldLaunch("S2", "p1", "10:00:01")],
            [Self.posthog("S2", "hig.rating.prompt", "p2", "11:00:00")],
            [Self.posthog("S2", "hig.rating.prompt", "p3", "12:00:00")],
        ], in: directory)
        let store = directory.appendingPathComponent("store.sqlite").path
        func kept() throws -> [String] {
            try DatabaseQueue(path: store).read {
                try String.fetchAll($0, sql: "SELECT session FROM checkpoint_import_sessions ORDER BY session")
            }
        }
        try Self.nightlyFrom(store, [paths[0]], configuration)
        #expect(try kept() == ["S1", "S2"])
        try Self.nightlyFrom(store, [paths[1]], configuration)
        #expect(try kept() == ["S1", "S2"])
        // A run that reads nothing new counts for no session, as it counts for no device.
        try Self.nightlyFrom(store, [paths[1]], configuration)
        #expect(try kept() == ["S1", "S2"])
        try Self.nightlyFrom(store, [paths[2]], configuration)
        #expect(try kept() == ["S2"])
    }

    /// A store of the version before (`v9`, no table of imported sessions) is migrated by its next run,
    /// which then keeps its SDK sessions for the run after.
    @Test func aStoreOfTheVersionBeforeIsMigrated() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try Self.write([
            [Self.coldLaunch("S1", "o1", "10:00:00")],
            [Self.coldLaunch("S1", "o2", "10:05:00")],
            [Self.coldLaunch("S1", "o3", "10:10:00")],
        ], in: directory)
        let store = directory.appendingPathComponent("store.sqlite").path
        let configuration = AuditConfiguration()
        try Self.nightlyFrom(store, [paths[0]], configuration)
        // As the version before left it.
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: """
                DROP TABLE checkpoint_import_sessions; DROP TABLE checkpoint_import_formats;
                DELETE FROM grdb_migrations WHERE identifier = 'v10-checkpoint-import-sessions'
                """)
        }
        // Readers read it as it is.
        _ = try ResultsStore(readingAt: store).read { try StoredTables.load($0) }
        try Self.nightlyFrom(store, [paths[1]], configuration)
        #expect(try StoreMigrationTests.migrations(store) == StoreMigrations.identifiers.sorted())
        try Self.nightlyFrom(store, [paths[2]], closeOpen: true, configuration)
        let sessions = try DatabaseQueue(path: store).read { try String.fetchAll($0, sql: "SELECT session FROM sessions ORDER BY session") }
        // The version before kept nothing of night 1's SDK sessions: night 2's launch is numbered afresh
        // (`S1` again); night 3's follows night 2's.
        #expect(sessions == ["S1", "S1#2"])
    }

    /// Runs of native NDJSON keep no imported sessions, and give what they gave before.
    @Test func aStoreWithoutImportsKeepsNoImportedSessions() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let chunks = LogFixtures.chunks(LogFixtures.stream(seed: 10), count: 2)
        let paths = try LogFixtures.writeZstdFiles(chunks, in: directory)
        let store = directory.appendingPathComponent("store.sqlite").path
        let configuration = StoreTestConfiguration.standard
        try nightly(store, [paths[0]], configuration)
        try nightly(store, [paths[1]], closeOpen: true, configuration)
        let rows = try DatabaseQueue(path: store).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM checkpoint_import_sessions"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM checkpoint_import_formats"))
        }
        #expect(rows.0 == 0 && rows.1 == 0)
        #expect(try storeTables(store) == analyzeTables(paths, configuration))
    }
}
