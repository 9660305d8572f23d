import Foundation
import GRDB
import Testing
@testable import HIGAuditStore

/// `ResultsStore.read(_:alongside:)` answers from one snapshot on two connections, whatever a writer
/// commits meanwhile.
@Suite struct SnapshotLaneTests {
    /// A new store's path, in a directory `body` may use, removed afterwards.
    static func withNewStore(_ body: (String) throws -> Void) throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        _ = try ResultsStore(writingAt: path)
        try body(path)
    }

    @Test func bothHalvesSeeTheSameCommitsWhileAWriterKeepsCommitting() throws {
        try Self.withNewStore { path in try Self.readWhileAWriterCommits(path) }
    }

    static func readWhileAWriterCommits(_ path: String) throws {
        let reader = try ResultsStore(readingAt: path)

        let writing = Flag()
        let writer = Thread {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            var next = 0
            while !writing.isLowered {
                try? queue.write { try $0.execute(sql: "INSERT INTO rules VALUES (?, 'warning')", arguments: ["rule-\(next)"]) }
                next += 1
                usleep(1000)
            }
            writing.confirm(count: next)
        }
        writer.start()
        var seen: Set<Int> = []
        for _ in 0..<40 {
            let (first, second) = try reader.read({ db -> Int in
                let before = try rules(db)
                usleep(200)
                return before
            }, alongside: { db in
                usleep(100)
                return try rules(db)
            })
            #expect(first == second)
            seen.insert(first)
        }
        writing.lower()
        let written = writing.waitForCount()
        #expect(written > 0, "the writer committed between the reads")
        #expect(seen.count > 1, "the reads saw several states of the store")
    }

    static func rules(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rules") ?? -1 }

    /// A first half that throws still waits for the lane: no thread of the read, and no lock, outlives it.
    @Test func whenTheFirstHalfThrowsTheLaneEndsBeforeTheReadReturns() throws {
        struct Failure: Error {}
        try Self.withNewStore { path in
            let reader = try ResultsStore(readingAt: path)
            #expect(throws: Failure.self) {
                _ = try reader.read({ _ -> Int in
                    usleep(50_000)
                    throw Failure()
                }, alongside: { db -> Int in
                    let count = try Self.rules(db)
                    usleep(500_000)
                    return count
                })
            }
            var configuration = Configuration()
            configuration.busyMode = .immediateError
            let writer = try DatabaseQueue(path: path, configuration: configuration)
            #expect(throws: Never.self) {
                try writer.write { try $0.execute(sql: "INSERT INTO rules VALUES ('x', 'warning')") }
            }
        }
    }

    @Test func aLaneErrorIsTheAnswersError() throws {
        try Self.withNewStore { path in
            let reader = try ResultsStore(readingAt: path)
            #expect(throws: DatabaseError.self) {
                _ = try reader.read({ _ in 1 }, alongside: { db in try Int.fetchOne(db, sql: "SELECT * FROM no_such_table") })
            }
        }
    }
}

/// A stop signal for the writer thread, and how many commits it made.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var lowered = false
    private var count: Int?
    private let done = DispatchSemaphore(value: 0)

    var isLowered: Bool { lock.withLock { lowered } }
    func lower() { lock.withLock { lowered = true } }
    func confirm(count: Int) {
        lock.withLock { self.count = count }
        done.signal()
    }
    func waitForCount() -> Int {
        done.wait()
        return lock.withLock { count } ?? 0
    }
}
