internal import CSQLite

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case text(String)
    case integer(Int64)
    case null

    static func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    static func integer(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
    /// Versions are checked to fit `Int64` before they are written, so clamping only matters for
    /// a query bound (`after: UInt64.max` asks for nothing).
    static func version(_ value: UInt64) -> SQLiteValue { .integer(Int64(clamping: value)) }
}

/// A prepared statement during one use, lent out by `SQLiteConnection.withStatement`.
struct SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    let connection: SQLiteConnection

    /// Binds `values` to parameters 1, 2, 3 …
    func bind(_ values: [SQLiteValue]) throws(SessionStoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case let .text(text):
                code = text.withCString { interlude_sqlite3_bind_text(handle, index, $0, UInt64(text.utf8.count)) }
            case let .integer(integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .null:
                code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw connection.failure("bind", sql: sql, code: code) }
        }
    }

    /// Steps once: `true` when a row is ready, `false` at the end.
    func step() throws(SessionStoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.failure("step", sql: sql, code: code)
        }
    }

    /// Column `index` of the current row as text; `nil` when it is NULL.
    func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as an integer; `nil` when it is NULL.
    func integer(_ index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as a version of a row of `table`.
    func version(_ index: Int32, table: String) throws(SessionStoreError) -> UInt64 {
        guard let value = integer(index), let version = UInt64(exactly: value) else {
            throw .corruptRow(path: connection.path, table: table, detail: "version \(integer(index).map(String.init) ?? "NULL")")
        }
        return version
    }

    /// Column `index` of the current row as text that the schema declares NOT NULL.
    func requiredText(_ index: Int32, table: String) throws(SessionStoreError) -> String {
        guard let value = text(index) else {
            throw .corruptRow(path: connection.path, table: table, detail: "NULL in column \(index)")
        }
        return value
    }

    /// Column `index` of the current row as an integer that the schema declares NOT NULL.
    func requiredInteger(_ index: Int32, table: String) throws(SessionStoreError) -> Int64 {
        guard let value = integer(index) else {
            throw .corruptRow(path: connection.path, table: table, detail: "NULL in column \(index)")
        }
        return value
    }
}
