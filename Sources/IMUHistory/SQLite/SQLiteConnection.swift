import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A failed SQLite call: its result code (extended), the errno behind it and SQLite's message.
struct SQLiteFailure: Error, Sendable {
    var code: Int32
    var systemErrno: Int32
    var message: String

    /// The primary result code (the low byte of an extended one).
    var primary: Int32 { code & 0xff }
    /// The disk (or the file-size limit) is full: SQLITE_FULL, or an I/O error caused by ENOSPC/EDQUOT.
    var isDiskFull: Bool {
        primary == SQLITE_FULL || (primary == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT))
    }
}

/// One SQLite connection. Not thread-safe: owned by one thread at a time (SQLite's default
/// serialized mode would allow more; the history never needs it).
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens `path` with `flags` (SQLITE_OPEN_*). Throws the failure with SQLite's message.
    init(path: String, flags: Int32) throws(SQLiteFailure) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let failure = SQLiteFailure(code: rc, systemErrno: db.map { sqlite3_system_errno($0) } ?? 0,
                                        message: db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc)))
            sqlite3_close_v2(db)
            throw failure
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    func failure(_ rc: Int32) -> SQLiteFailure {
        SQLiteFailure(code: rc, systemErrno: sqlite3_system_errno(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteFailure) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// The first column of the first row of `sql` as an integer (nil when there is no row).
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The first column of every row of `sql` as text.
    func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
        let statement = try prepare(sql)
        var out: [String] = []
        while try statement.step() { out.append(statement.text(0) ?? "") }
        return out
    }

    /// True while a transaction is open (SQLite rolls some failed ones back by itself).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// A prepared statement, reset before each use.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer

    fileprivate init(connection: SQLiteConnection, sql: String) throws(SQLiteFailure) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw connection.failure(rc) }
        self.connection = connection
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1, 2, …
    @discardableResult
    func bind(_ values: SQLiteValue...) -> SQLiteStatement { bind(values) }

    /// Resets the statement and binds `values` to parameters 1, 2, …
    @discardableResult
    func bind(_ values: [SQLiteValue]) -> SQLiteStatement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let v): sqlite3_bind_int64(handle, index, v)
            case .real(let v): sqlite3_bind_double(handle, index, v)
            case .text(let v): sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
            }
        }
        return self
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = connection.failure(rc)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// The first column of the first row as an integer, then resets the statement (a statement
    /// left on a row would keep its read transaction open and stop checkpoints).
    func scalar() throws(SQLiteFailure) -> Int64? {
        defer { sqlite3_reset(handle) }
        return try step() ? int64(0) : nil
    }

    /// Steps to the end (a statement that returns no rows).
    func run() throws(SQLiteFailure) {
        while try step() {}
        sqlite3_reset(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }
}

enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
}
