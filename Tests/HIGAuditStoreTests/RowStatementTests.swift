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
            try db.execute(sql: "CREATE TABLE t (source TEXT NOT NULL, text TEXT NOT NULL, number INTEGER NOT NULL, flag INTEGER NOT NULL)")
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
                    SELECT text, typeof(text), number, flag FROM t WHERE source = 'row'
                    EXCEPT SELECT text, typeof(text), number, flag FROM t WHERE source = 'grdb')
                """)
            #expect(mismatched == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE source = 'row'") == texts.count * numbers.count)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE typeof(text) != 'text'") == 0)
            #expect(try String.fetchOne(db, sql: "SELECT text FROM t WHERE source = 'row' AND text LIKE '😀%'") == texts[4])
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

    @Test func sqlThatDoesNotPrepareThrows() throws {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            #expect(throws: DatabaseError.self) { _ = try RowStatement(db, sql: "INSERT INTO missing VALUES (?)") }
        }
    }
}
