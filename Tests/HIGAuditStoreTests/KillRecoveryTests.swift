import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

#if canImport(Glibc)
import Glibc
#endif

/// SPEC §5: "a run killed at any moment leaves the store consistent, and the next run completes the
/// work". `hig-audit nightly` runs as a process and is SIGKILLed at many points of each night — before
/// it reads anything, after each input file, after its last file (while it commits or writes `--out`);
/// each time the store must be exactly as before the run or exactly as after an uninterrupted run, and
/// after all nights the store must hold the results of one `analyze`.
@Suite(.serialized) struct KillRecoveryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `hig-audit` executable SwiftPM built beside the tests.
    static var executable: String? {
        let build = packageRoot.appendingPathComponent(".build")
        let candidates = ["debug", "release"].map { build.appendingPathComponent($0).appendingPathComponent("hig-audit").path }
            + ((try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []).flatMap { triple in
                ["debug", "release"].map { build.appendingPathComponent(triple).appendingPathComponent($0).appendingPathComponent("hig-audit").path }
            }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Everything a run writes, schema included, except the wall-clock times of runs; the checkpoint decoded (its JSON
    /// spells dictionaries in each process's hash order).
    struct Fingerprint: Equatable {
        var tables: String
        var checkpoint: EngineCheckpoint?
    }

    static func fingerprint(_ path: String) throws -> Fingerprint {
        guard FileManager.default.fileExists(atPath: path) else { return Fingerprint(tables: "no store") }
        let store = try ResultsStore(writingAt: path)
        return try store.read { db in
            var text = ""
            for sql in [
                "SELECT id, close_open, files, files_skipped, files_changed, lines, events, sessions, sessions_closed, open_sessions, malformed_lines, late_events, violations FROM runs ORDER BY id",
                "SELECT * FROM input_files ORDER BY id",
                "SELECT * FROM sessions ORDER BY session",
                "SELECT * FROM session_haptics ORDER BY session, kind", "SELECT * FROM violations ORDER BY id",
                "SELECT * FROM unknown_types ORDER BY run_id, type", "SELECT * FROM rules ORDER BY rule",
                "SELECT run_id, stream_newest_ts, open_sessions FROM engine_checkpoint",
                // The schema too: a first run builds the row indexes again before it commits.
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
            ] {
                for row in try Row.fetchAll(db, sql: sql) { text += row.description + "\n" }
                text += "--\n"
            }
            let stored = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engine_checkpoint") ?? 0
            return Fingerprint(tables: text, checkpoint: stored == 0 ? nil : try StoredCheckpoint.load(db))
        }
    }

    /// Runs `hig-audit nightly`; with `killAfter` = k, sends SIGKILL once k input files were reported
    /// read (k = 0: at once). Returns the exit status, or nil when killed.
    static func runNightly(_ executable: String, store: String, files: [String], closeOpen: Bool, out: String, killAfter: Int?) throws -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // --verbose: the kill is timed by the line each input file adds when read.
        process.arguments = ["nightly", "--verbose", "--store", store, "--out", out] + (closeOpen ? ["--close-open"] : [])
            + ["--session-gap-ms", "120000"] + files
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if let killAfter {
            var seen = 0
            var buffer = Data()
            if killAfter == 0 { kill(process.processIdentifier, SIGKILL) }
            while seen < killAfter {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                seen = String(decoding: buffer, as: UTF8.self).components(separatedBy: ": read").count - 1
            }
            if seen >= killAfter { kill(process.processIdentifier, SIGKILL) }
        }
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    }

    @Test func runsKilledAtManyPointsLeaveTheStoreAsBeforeOrCompleteAndTheNextRunFinishesTheWork() throws {
        guard let executable = Self.executable else {
            Issue.record("the hig-audit executable was not found under .build; build with `swift build --build-tests` first")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = LogFixtures.stream(seed: 31, sessions: 150, eventsPerSession: 40...120)
        let paths = try LogFixtures.writeZstdFiles(LogFixtures.chunks(lines, count: 9), in: directory, framesPerFile: 3)
        let nights = [Array(paths[0..<3]), Array(paths[3..<6]), Array(paths[6..<9])]
        let store = directory.appendingPathComponent("store.sqlite").path
        let scratch = directory.appendingPathComponent("scratch.sqlite").path
        let out = directory.appendingPathComponent("out").path

        // An empty store (its schema is created in a transaction of its own, before a run starts).
        _ = try ResultsStore(writingAt: store)
        var unchanged = 0
        var completed = 0
        for (index, night) in nights.enumerated() {
            let closeOpen = index == nights.count - 1
            let before = try Self.fingerprint(store)
            // What an uninterrupted run makes of this store, computed on a copy.
            try? FileManager.default.removeItem(atPath: scratch)
            if FileManager.default.fileExists(atPath: store) { try FileManager.default.copyItem(atPath: store, toPath: scratch) }
            let status = try Self.runNightly(executable, store: scratch, files: night, closeOpen: closeOpen, out: out, killAfter: nil)
            // 3 where the fixture's malformed line is; late events alone do not skip input.
            #expect(status == 3 || status == 0)
            let after = try Self.fingerprint(scratch)
            #expect(after != before)

            for killAfter in 0...night.count {
                _ = try Self.runNightly(executable, store: store, files: night, closeOpen: closeOpen, out: out, killAfter: killAfter)
                let now = try Self.fingerprint(store)
                #expect(now == before || now == after, "night \(index), killed after \(killAfter) files: a partial run was committed")
                if now == before { unchanged += 1 } else if now == after { completed += 1 }
                if now == after { break }
            }
            // The next run does whatever the killed ones left.
            _ = try Self.runNightly(executable, store: store, files: night, closeOpen: closeOpen, out: out, killAfter: nil)
            #expect(try Self.fingerprint(store) == after)
        }
        #expect(unchanged >= 6, "too few kills landed inside a run to prove anything (\(completed) completed)")

        let expected = try analyzeTables(paths, StoreTestConfiguration.standard)
        let actual = try storeTables(store)
        for name in expected.keys { #expect(actual[name] == expected[name], "\(name.rawValue)") }
        // Exports are complete files (written under a temporary name, then renamed).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.contains(".tmp-") }
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".csv") })
                == Set(TableName.exported.map { "\($0.rawValue).csv" }))
        // A temporary file of a killed export may remain; it never replaces a table file.
        #expect(leftovers.allSatisfy { !$0.hasSuffix(".csv") && !$0.hasSuffix(".json") })
    }
}
