#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import HIGAuditCore
import Testing
@testable import HIGAuditStore

/// `merge` under careless or concurrent operation (issue 45.2, 45.6, 45.9): merges into one store take
/// turns and lose no part, a store changed mid-merge is not replaced, links are refused, and what a
/// killed merge left is removed by the next one.
@Suite struct MergeSafetyTests {
    /// Two parts of one run, split in two shards, in `directory`.
    static func parts(in directory: URL) throws -> (parts: [String], sessions: Int) {
        let files = try ShardMergeTests.files(in: directory)
        var parts: [String] = []
        for index in 0..<2 {
            let part = directory.appendingPathComponent("part-\(index).sqlite").path
            try ShardMergeTests.part(part, files, shard: DeviceShard(index: index, count: 2)!)
            parts.append(part)
        }
        let sessions = try parts.map { try sessionCount($0) }.reduce(0, +)
        return (parts, sessions)
    }

    static func sessionCount(_ store: String) throws -> Int {
        try ResultsStore(readingAt: store).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sessions") ?? 0 }
    }

    /// Merges of different parts into one store at the same moment: each waits for the other, and the
    /// store ends with every part's sessions. Before the lock, the last rename won and one part was lost.
    @Test func concurrentMergesIntoOneStoreKeepEveryPart() throws {
        guard let executable = KillRecoveryTests.executable else {
            Issue.record("the hig-audit executable was not found under .build; build with `swift build --build-tests` first")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, sessions) = try Self.parts(in: directory)
        for attempt in 0..<4 {
            let merged = directory.appendingPathComponent("merged-\(attempt).sqlite").path
            let processes = try parts.map { part -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = ["merge", "--quiet", "--store", merged, part]
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in processes { process.waitUntilExit() }
            // Whichever merge goes first holds one shard of two (3: the store lacks a shard); the second
            // completes the store (0).
            #expect(processes.map(\.terminationStatus).sorted() == [0, 3], "attempt \(attempt)")
            #expect(try Self.sessionCount(merged) == sessions, "attempt \(attempt)")
        }
    }

    /// A merge that finds the lock held says so and waits; it finishes once the lock is released.
    @Test func aMergeWaitsForTheLockAndSaysSo() throws {
        guard let executable = KillRecoveryTests.executable else {
            Issue.record("the hig-audit executable was not found under .build")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, sessions) = try Self.parts(in: directory)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        let held = open(merged + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["merge", "--store", merged] + parts
        // Standard error goes to a file, read while the merge waits: the lock is released only once the
        // merge has said it waits, however long a loaded machine takes to start it.
        let errorsPath = directory.appendingPathComponent("merge-errors.txt").path
        #expect(FileManager.default.createFile(atPath: errorsPath, contents: nil))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
        process.standardError = errors
        try process.run()
        let waiting = "another merge into \(merged) is running; waiting for it to finish"
        let deadline = Date().addingTimeInterval(300)
        var text = ""
        while !text.contains(waiting) && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            text = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
        }
        #expect(text.contains(waiting), "\(text)")
        #expect(process.isRunning)
        #expect(!FileManager.default.fileExists(atPath: merged))
        close(held)
        process.waitUntilExit()
        try errors.close()
        #expect(process.terminationStatus == 0)
        #expect(try Self.sessionCount(merged) == sessions)
    }

    /// The store is replaced only if nobody changed it since the merge read it.
    @Test func aStoreChangedDuringTheMergeIsNotReplaced() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, _) = try Self.parts(in: directory)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: [parts[0]], into: merged)
        let before = try Self.sessionCount(merged)
        #expect(throws: StoreMergeError.changedWhileMerging(merged)) {
            try StoreMerge.merge(parts: [parts[1]], into: merged, waiting: {}, beforeReplacing: {
                // Another writer: a copy of the store put in its place.
                try? FileManager.default.copyItem(atPath: merged, toPath: merged + ".copy")
                _ = rename(merged + ".copy", merged)
            })
        }
        #expect(try Self.sessionCount(merged) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".merge-tmp-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A store that is a link (symbolic or hard) or a part itself is refused before anything is written.
    @Test func aStoreThatIsALinkOrAPartIsRefused() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, _) = try Self.parts(in: directory)
        let partBytes = try Data(contentsOf: URL(fileURLWithPath: parts[0]))
        let symbolic = directory.appendingPathComponent("symbolic.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: parts[0])
        #expect(throws: StoreMergeError.storeIsALink(symbolic)) { try StoreMerge.merge(parts: [parts[1]], into: symbolic) }
        let hard = directory.appendingPathComponent("hard.sqlite").path
        #expect(link(parts[0], hard) == 0)
        #expect(throws: StoreMergeError.storeHasHardLinks(hard, 2)) { try StoreMerge.merge(parts: [parts[1]], into: hard) }
        try FileManager.default.removeItem(atPath: hard)
        let relative = directory.appendingPathComponent(".").appendingPathComponent("part-0.sqlite").path
        #expect(throws: StoreMergeError.storeIsAPart(store: parts[0], part: relative)) {
            try StoreMerge.merge(parts: [relative, parts[1]], into: parts[0])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts[0])) == partBytes)
    }

    /// `kill -9` mid-merge leaves `STORE.merge-tmp-PID` and its journal; the next merge removes them when
    /// their process is gone, and leaves those of a merge still running.
    @Test func leftoversOfAKilledMergeAreRemovedByTheNextOne() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, _) = try Self.parts(in: directory)
        let merged = directory.appendingPathComponent("merged.sqlite").path
        // A process that has surely ended: one this test started and waited for.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        // And one still running (another merge, as far as the next one can tell).
        let sleeping = Process()
        sleeping.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeping.arguments = ["30"]
        try sleeping.run()
        defer { sleeping.terminate() }
        let dead = "\(merged).merge-tmp-\(ended.processIdentifier)"
        let running = "\(merged).merge-tmp-\(sleeping.processIdentifier)"
        for path in [dead, dead + "-journal", running, "\(merged).merge-tmp-\(ended.processIdentifier)-other"] {
            try Data("half a store".utf8).write(to: URL(fileURLWithPath: path))
        }
        _ = try StoreMerge.merge(parts: parts, into: merged)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".merge-tmp-") })
        #expect(left == ["merged.sqlite.merge-tmp-\(sleeping.processIdentifier)", "merged.sqlite.merge-tmp-\(ended.processIdentifier)-other"])
    }

    /// The store of a merge is new or one a merge wrote (45.6): a partial store that `nightly --shard`
    /// wrote is refused as the store, whatever its name, and nothing is written; a merged store, also
    /// one of an earlier version (unmarked, with several parts), takes more parts.
    @Test func aPartialStoreIsRefusedAsTheStoreOfAMerge() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (parts, sessions) = try Self.parts(in: directory)
        let copy = directory.appendingPathComponent("part-0-copy.sqlite").path
        try FileManager.default.copyItem(atPath: parts[0], toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(throws: StoreMergeError.aPartAsTheStore(copy)) { try StoreMerge.merge(parts: [parts[1]], into: copy) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)

        let merged = directory.appendingPathComponent("merged.sqlite").path
        _ = try StoreMerge.merge(parts: [parts[0]], into: merged)
        _ = try StoreMerge.merge(parts: [parts[1]], into: merged)
        #expect(try Self.sessionCount(merged) == sessions)
        // A store merged by an earlier version has no mark, but several parts.
        let queue = try DatabaseQueue(path: merged)
        try queue.write { try $0.execute(sql: "PRAGMA user_version = 0") }
        try queue.close()
        #expect(try StoreMerge.merge(parts: parts, into: merged).partsAlreadyMerged == 2)
    }
}
