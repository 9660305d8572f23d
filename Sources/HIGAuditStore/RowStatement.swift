import Foundation
import GRDB
import GRDBSQLite

/// An INSERT, UPDATE or lookup that a nightly run executes once per closed session, violation, new
/// session or input file, with its values bound straight to SQLite.
///
/// GRDB's `execute(arguments:)` builds an array of `DatabaseValueConvertible` existentials for every
/// row and converts each value to a `DatabaseValue` before binding it. A run writes thousands of rows
/// on its own thread, most of them at its end when the last sessions close and nothing else runs
/// beside it; here a row's values go from their Swift types to `sqlite3_bind_*` directly.
///
/// The statement is prepared on the connection of the transaction that uses it and is used only on
/// that transaction's thread, between GRDB's own statements, never alongside them, and only inside the
/// transaction: once SQLite has rolled it back, the statement refuses to run, as GRDB's statements do.
/// It is reset after every step, so it holds no read or write open when GRDB commits, and finalized
/// when dropped, which the run does before its transaction's closure returns.
final class RowStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let parameterCount: Int32
    let sql: String

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store's connection is closed", sql: sql)
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.connection = connection
        statement = prepared
        parameterCount = sqlite3_bind_parameter_count(prepared)
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds `value`, in the order of the statement's parameters, and runs the statement to its end.
    func execute<each Value: RowValue>(_ value: repeat each Value) throws {
        _ = try hasRow(repeat each value)
    }

    /// Binds `value` and takes one step: whether the statement (a query) has a row.
    func hasRow<each Value: RowValue>(_ value: repeat each Value) throws -> Bool {
        // A statement that fails with SQLITE_FULL, IOERR, NOMEM or INTERRUPT may make SQLite roll the
        // whole transaction back; a row stepped after that would run and commit on its own. GRDB refuses
        // its own statements then (`checkForAbortedTransaction`), and so does this.
        guard sqlite3_get_autocommit(connection) == 0 else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql)
        }
        var row = RowValues(statement: statement)
        repeat (each value).bind(to: &row)
        precondition(row.bound == parameterCount, "\(row.bound) values bound to \(parameterCount) parameters of \(sql)")
        let code = sqlite3_step(statement)
        // SQLite's message belongs to the failed step: read it before `sqlite3_reset` can replace it.
        let message = code == SQLITE_DONE || code == SQLITE_ROW ? nil : String(cString: sqlite3_errmsg(connection))
        sqlite3_reset(statement)
        if let message {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
        return code == SQLITE_ROW
    }
}

/// The values of one execution of a `RowStatement`, bound in parameter order.
struct RowValues {
    fileprivate let statement: OpaquePointer
    fileprivate private(set) var bound: Int32 = 0

    fileprivate init(statement: OpaquePointer) {
        self.statement = statement
    }

    mutating func bind(_ value: Int64) {
        bound += 1
        sqlite3_bind_int64(statement, bound, value)
    }

    /// A blob (an empty one included, never NULL); SQLite copies it before this returns.
    mutating func bind(_ value: Data) {
        bound += 1
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = value.withUnsafeBytes { bytes in
            // A non-null pointer for an empty blob: SQLite stores NULL for a null one.
            sqlite3_bind_blob64(statement, bound, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count), transient)
        }
    }

    mutating func bindNull() {
        bound += 1
        sqlite3_bind_null(statement, bound)
    }

    /// A text, never NULL, as GRDB binds it: up to its first U+0000, where SQLite stops reading a text
    /// of length -1, so that a row is the same whichever wrote it (stores written before keep such texts
    /// cut there). SQLite copies it before this returns (`SQLITE_TRANSIENT`).
    mutating func bind(_ value: String) {
        bound += 1
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = value.withCString { sqlite3_bind_text(statement, bound, $0, -1, transient) }
    }
}

/// A value a `RowStatement` binds, stored as GRDB stores it.
protocol RowValue {
    func bind(to row: inout RowValues)
}

extension Int64: RowValue {
    func bind(to row: inout RowValues) { row.bind(self) }
}

extension Int: RowValue {
    func bind(to row: inout RowValues) { row.bind(Int64(self)) }
}

/// As GRDB stores a `Bool`: the integer 0 or 1.
extension Bool: RowValue {
    func bind(to row: inout RowValues) { row.bind(Int64(self ? 1 : 0)) }
}

extension String: RowValue {
    func bind(to row: inout RowValues) { row.bind(self) }
}

extension Data: RowValue {
    func bind(to row: inout RowValues) { row.bind(self) }
}

/// NULL for nil, as GRDB stores an absent value.
extension Optional: RowValue where Wrapped: RowValue {
    func bind(to row: inout RowValues) {
        if let value = self { value.bind(to: &row) } else { row.bindNull() }
    }
}
