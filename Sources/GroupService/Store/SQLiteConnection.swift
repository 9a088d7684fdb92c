internal import CSQLite
import Glibc

/// One SQLite connection and the statements prepared on it, each prepared once and reused.
///
/// Not thread-safe: its owner serialises every use (`SQLiteSessionStore` keeps it in a `Mutex`).
/// It is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does not take a lock of its own as well;
/// a transaction spans several calls, which SQLite's own mutex would not keep together anyway.
package final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path`, creating the file with mode 0600 when it does not exist
    /// (SQLite gives its `-wal` and `-shm` files the same mode).
    package init(path: String) throws(SessionStoreError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let number = errno
            throw .cannotCreate(path: path, errno: number, message: String(cString: strerror(number)))
        }
        close(descriptor)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw .sqlite(SQLiteFailure(path: path, operation: "open", sql: nil, code: code, message: message))
        }
        handle = opened
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The error for a call on this connection that returned `code`.
    func failure(_ operation: String, sql: String?, code: Int32) -> SessionStoreError {
        .sqlite(SQLiteFailure(path: path, operation: operation, sql: sql, code: code, message: String(cString: sqlite3_errmsg(handle))))
    }

    /// Waits up to `milliseconds` for another connection's lock instead of failing at once.
    func setBusyTimeout(milliseconds: Int32) throws(SessionStoreError) {
        let code = sqlite3_busy_timeout(handle, milliseconds)
        guard code == SQLITE_OK else { throw failure("busy_timeout", sql: nil, code: code) }
    }

    /// Runs a script of several statements without caching them (schema changes).
    package func executeScript(_ sql: String) throws(SessionStoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure("exec", sql: sql, code: code) }
    }

    /// Runs `body` with the statement for `sql`, prepared on first use and kept; the statement
    /// is reset and its bindings cleared afterwards, thrown or not.
    func withStatement<Result>(
        _ sql: String,
        _ body: (SQLiteStatement) throws(SessionStoreError) -> Result
    ) throws(SessionStoreError) -> Result {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        return try body(SQLiteStatement(handle: statement, sql: sql, connection: self))
    }

    /// Runs a statement that returns no rows, to its end.
    func run(_ sql: String, _ values: SQLiteValue...) throws(SessionStoreError) {
        try withStatement(sql) { (statement) throws(SessionStoreError) in
            try statement.bind(values)
            while try statement.step() {}
        }
    }

    /// The rows of a query, each made by `row`.
    func rows<Row>(
        _ sql: String,
        _ values: SQLiteValue...,
        row: (SQLiteStatement) throws(SessionStoreError) -> Row
    ) throws(SessionStoreError) -> [Row] {
        try withStatement(sql) { (statement) throws(SessionStoreError) in
            try statement.bind(values)
            var rows: [Row] = []
            while try statement.step() { rows.append(try row(statement)) }
            return rows
        }
    }

    /// Runs `body` inside `begin` … `COMMIT`, and returns only once `COMMIT` has stepped to
    /// `SQLITE_DONE`. When anything fails, the transaction is rolled back and the error thrown.
    func transaction<Result>(
        _ begin: String = "BEGIN IMMEDIATE",
        _ body: () throws(SessionStoreError) -> Result
    ) throws(SessionStoreError) -> Result {
        try run(begin)
        do throws(SessionStoreError) {
            let result = try body()
            try withStatement("COMMIT") { (statement) throws(SessionStoreError) in
                let code = sqlite3_step(statement.handle)
                guard code == SQLITE_DONE else { throw failure("commit", sql: "COMMIT", code: code) }
            }
            return result
        } catch {
            // After some errors (SQLITE_FULL, SQLITE_IOERR, …) SQLite has rolled back already.
            if sqlite3_get_autocommit(handle) == 0 { try? run("ROLLBACK") }
            throw error
        }
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    private func prepared(_ sql: String) throws(SessionStoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure("prepare", sql: sql, code: code) }
        statements[sql] = statement
        return statement
    }
}
