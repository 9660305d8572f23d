import Foundation
import GRDB
import Testing
@testable import HIGAuditStore

/// `RowStatement` binds values as GRDB's `execute(arguments:)` would, so that the nightly run's rows are
/// the same whichever wrote them, and reports a failed row as GRDB does.
@Suite struct RowStatementTests {
    private let texts = ["", "a", "5.10", "é", "😀 and \u{0301}", "quote \" and ' and \\", "=1+1", "tab\tnew\nline",
                         String(repeating: "long ", count: 400)]
    private let numbers: [Int64] = [0, 1, -1, .max, .min, 1_732_000_000_000]

    @Test func rowsAreTheSameAsGRDBWrites() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            // `number` and `flag` have no type, so no affinity: they keep the type each value was bound as.
            try db.execute(sql: "CREATE TABLE t (source TEXT NOT NULL, text TEXT NOT NULL, number NOT NULL, flag NOT NULL)")
            let statement = try RowStatement(db, sql: "INSERT INTO t VALUES ('row', ?, ?, ?)")
            for (index, text) in texts.enumerated() {
                for number in numbers {
                    let flag = index % 2 == 0
                    try statement.execute(text, number, flag)
                    try db.execute(sql: "INSERT INTO t VALUES ('grdb', ?, ?, ?)", arguments: [text, number, flag])
                }
            }
            let mismatched = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (
                    SELECT text, typeof(text), number, typeof(number), flag, typeof(flag) FROM t WHERE source = 'row'
                    EXCEPT
                    SELECT text, typeof(text), number, typeof(number), flag, typeof(flag) FROM t WHERE source = 'grdb')
                """)
            #expect(mismatched == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE source = 'row'") == texts.count * numbers.count)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE typeof(text) != 'text'") == 0)
            #expect(try String.fetchOne(db, sql: "SELECT text FROM t WHERE source = 'row' AND text LIKE '😀%'") == texts[4])
        }
    }

    /// GRDB binds a String with length -1, so SQLite stores a text up to its first U+0000. The decoder
    /// now refuses such texts, but stores written before through GRDB may hold them cut there, and the
    /// closed-session lookup must find them.
    @Test func aTextWithANULIsStoredAsGRDBStoresIt() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (source TEXT NOT NULL, text TEXT NOT NULL)")
            let statement = try RowStatement(db, sql: "INSERT INTO t VALUES ('row', ?)")
            for text in ["s\u{0}x", "\u{0}", "canvas.editor\u{0}"] {
                try statement.execute(text)
                try db.execute(sql: "INSERT INTO t VALUES ('grdb', ?)", arguments: [text])
            }
            let stored = { (source: String) in
                try Data.fetchAll(
                    db, sql: "SELECT CAST(text AS BLOB) FROM t WHERE source = ? ORDER BY rowid", arguments: [source])
            }
            #expect(try stored("row") == stored("grdb"))
            let lookup = try RowStatement(db, sql: "SELECT 1 FROM t WHERE source = 'grdb' AND text = ?")
            #expect(try lookup.hasRow("s\u{0}x"))
        }
    }

    /// A row that breaks a constraint throws SQLite's own message, and the statement takes the next row.
    @Test func aFailedRowThrowsAndTheStatementGoesOn() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
            let statement = try RowStatement(db, sql: "INSERT INTO t VALUES (?, ?)")
            try statement.execute("a", 1)
            #expect {
                try statement.execute("a", 2)
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.resultCode == .SQLITE_CONSTRAINT && error.message?.contains("t.key") == true
            }
            try statement.execute("b", 3)
            #expect(try Int.fetchOne(db, sql: "SELECT sum(value) FROM t") == 4)
            #expect(db.lastInsertedRowID == 2)
        }
    }

    @Test func aLookupSaysWhetherItHasARow() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (key TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute(sql: "INSERT INTO t VALUES ('a'), ('')")
            let lookup = try RowStatement(db, sql: "SELECT 1 FROM t WHERE key = ?")
            #expect(try lookup.hasRow("a"))
            #expect(try !lookup.hasRow("b"))
            #expect(try lookup.hasRow(""))
            // Reset after its step: the lookup holds no read open between calls.
            try db.execute(sql: "INSERT INTO t VALUES ('b')")
            #expect(try lookup.hasRow("b"))
        }
    }

    /// On SQLITE_FULL (disk full), IOERR, NOMEM or INTERRUPT in a single-row write SQLite may roll the
    /// whole transaction back by itself; GRDB then refuses every further statement of the `write` with
    /// SQLITE_ABORT. A `RowStatement` must too: its next row would otherwise run in autocommit mode and
    /// be committed at once, although the `write` throws (a nightly run keeps a failed report's error and
    /// goes on recording until the end of its input).
    @Test func aRowAfterSQLiteRolledTheTransactionBackIsRefusedAsGRDBRefusesIt() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (v TEXT NOT NULL)") }
        // The disk is full one page after the table's.
        let pages = try queue.read { try Int.fetchOne($0, sql: "PRAGMA page_count") } ?? 0
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = \(pages + 1)") }
        struct Abandoned: Error {}
        do {
            try queue.write { db in
                let statement = try RowStatement(db, sql: "INSERT INTO t VALUES (?)")
                try statement.execute("kept until the disk is full")
                #expect {
                    try statement.execute(String(repeating: "x", count: 64 * 1024))
                } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_FULL }
                #expect(db.isInsideTransaction == false, "SQLite rolled the transaction back")
                // GRDB's own statement: refused.
                #expect {
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["grdb"])
                } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_ABORT }
                // The same row through the RowStatement: refused too.
                #expect {
                    try statement.execute("row")
                } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_ABORT }
                throw Abandoned()
            }
            Issue.record("the write did not throw")
        } catch {}
        // The write threw: nothing of it may be in the table.
        #expect(try queue.read { try String.fetchAll($0, sql: "SELECT v FROM t") } == [])
    }

    @Test func sqlThatDoesNotPrepareThrows() throws {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            #expect(throws: DatabaseError.self) { _ = try RowStatement(db, sql: "INSERT INTO missing VALUES (?)") }
        }
    }
}
