import Dispatch
import GRDB
import GRDBSQLite
import HIGAuditCore

/// An analyst's own `SELECT` (`query --sql`), run on a connection of its own that can read the store
/// and nothing else, for at most a time limit.
///
/// A read-only connection alone still let a query reach outside the store: `ATTACH` opened any
/// database file on the host, `fts3_tokenizer()` returned a memory address, and a runaway recursive
/// query ran until killed. So the connection also has:
/// - an authorizer (checked as each statement is compiled) that allows reading tables, calling
///   functions other than `deniedFunctions`, recursive queries and the read-only `allowedPragmas`,
///   and denies everything else: `ATTACH` and `DETACH`, transactions, every write;
/// - no room for an attached database (`SQLITE_LIMIT_ATTACHED` = 0), should an attach get past it;
/// - a progress handler that interrupts the query once `timeLimit` has passed.
enum ReadOnlySQL {
    /// Functions that reach outside the data: the FTS3 tokenizer interface (reads and sets a
    /// pointer), extension loading, and the file and editor functions of SQLite's shell.
    static let deniedFunctions: Set<String> = ["fts3_tokenizer", "load_extension", "readfile", "writefile", "edit"]

    /// Pragmas that only describe the schema or the file.
    static let allowedPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
        "collation_list", "function_list", "user_version", "application_id", "page_count", "page_size",
    ]

    /// VM instructions between two looks at the clock.
    static let instructionsPerCheck: Int32 = 10_000

    static func run(_ sql: String, storeAt path: String, timeLimit: Double) throws -> HIGAuditCore.Table {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let deadline = Deadline(after: timeLimit)
        return try queue.inDatabase { db in
            let connection = db.sqliteConnection
            _ = sqlite3_limit(connection, SQLITE_LIMIT_ATTACHED, 0)
            sqlite3_set_authorizer(connection, { _, action, first, second, _, _ in
                ReadOnlySQL.authorize(action, first.map { String(cString: $0) }, second.map { String(cString: $0) })
            }, nil)
            sqlite3_progress_handler(connection, instructionsPerCheck, { context in
                guard let context else { return 0 }
                return Unmanaged<Deadline>.fromOpaque(context).takeUnretainedValue().hasPassed ? 1 : 0
            }, Unmanaged.passUnretained(deadline).toOpaque())
            defer { sqlite3_progress_handler(connection, 0, nil, nil) }
            do {
                return try withExtendedLifetime(deadline) { try StoreQuery.sql(db, sql) }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                throw StoreError.queryTimedOut(seconds: timeLimit)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_AUTH {
                throw StoreError.invalidQuery(
                    "--sql: \(error.message ?? "not authorized"): a query may only read the store "
                        + "(ATTACH, transactions, writes, most pragmas and \(deniedFunctions.sorted().joined(separator: ", ")) are refused)")
            }
        }
    }

    /// The authorizer's verdict on one action of a statement being compiled (see the type's comment).
    static func authorize(_ action: Int32, _ first: String?, _ second: String?) -> Int32 {
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_FUNCTION:
            // `second` is the function's name.
            guard let name = second?.lowercased() else { return SQLITE_DENY }
            return deniedFunctions.contains(name) ? SQLITE_DENY : SQLITE_OK
        case SQLITE_PRAGMA:
            // `first` is the pragma's name, `second` its argument: an assignment or a call.
            guard let name = first?.lowercased(), allowedPragmas.contains(name) else { return SQLITE_DENY }
            if name == "user_version" || name == "application_id" { return second == nil ? SQLITE_OK : SQLITE_DENY }
            return SQLITE_OK
        case SQLITE_UPDATE where first == "sqlite_master":
            // SQLite asks this while compiling some reads of the schema (`pragma_table_info`). The
            // connection is read-only and `StoreQuery.sql` refuses a statement that writes, so it
            // cannot change the store.
            return SQLITE_OK
        default:
            return SQLITE_DENY
        }
    }

    /// When a query must stop, on the monotonic clock.
    final class Deadline: @unchecked Sendable {
        private let nanoseconds: UInt64

        init(after seconds: Double) {
            let span = seconds * 1e9
            let now = DispatchTime.now().uptimeNanoseconds
            nanoseconds = span >= Double(UInt64.max - now) ? .max : now + UInt64(span)
        }

        var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= nanoseconds }
    }
}

extension ResultsStore {
    /// Runs an analyst's `SELECT` on a connection of its own (`ReadOnlySQL`): it can read the store
    /// and nothing else, and is stopped with `StoreError.queryTimedOut` after `timeLimit` seconds.
    public func runReadOnlySQL(_ sql: String, timeLimit: Double) throws -> HIGAuditCore.Table {
        let result: Result<HIGAuditCore.Table, any Error>
        do {
            result = .success(try ReadOnlySQL.run(sql, storeAt: path, timeLimit: timeLimit))
        } catch {
            result = .failure(StoreError.describing(error, store: path))
        }
        // As `read`: no answer from a store its check finds damaged.
        try integrityCheck?.verdict()
        return try result.get()
    }
}

