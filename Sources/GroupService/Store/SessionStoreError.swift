/// Why a store refused a batch or could not be read. A refused batch left nothing behind.
public enum SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An event does not continue its session's version: a sequencer bug.
    case versionGap(session: String, expected: UInt64, found: UInt64)
    /// A version above `Int64.max`, which SQLite cannot hold.
    case versionOutOfRange(session: String, version: UInt64)
    /// An event, participant or end names a session that neither the store nor the batch has.
    case unknownSession(String)
    /// A new session's id is already taken, in the store or earlier in the batch.
    case duplicateSession(String)
    /// An event for a session that had already ended before the batch.
    case sessionEnded(String)
    /// The `(session, sender, commandID)` triple is already taken, in the store or earlier in the
    /// batch; `commandVersion(session:sender:commandID:)` gives the version it got.
    case duplicateCommand(session: String, sender: String, commandID: String)
    /// The database was written by a newer Interlude with a schema this build does not know.
    case newerSchema(path: String, found: Int32, supported: Int32)
    /// The file is an SQLite database of something else.
    case notASessionStore(path: String, reason: String)
    /// The database file could not be created.
    case cannotCreate(path: String, errno: Int32, message: String)
    /// A stored value this build cannot read (a negative version, say).
    case corruptRow(path: String, table: String, detail: String)
    /// SQLite failed.
    case sqlite(SQLiteFailure)
    /// Redis could not be reached or refused a call (``RedisSessionStore``).
    case redis(String)

    public var description: String {
        switch self {
        case let .versionGap(session, expected, found):
            "session \(session): event version \(found) does not follow the stored version (expected \(expected))"
        case let .versionOutOfRange(session, version):
            "session \(session): version \(version) is larger than the store can hold (\(Int64.max))"
        case let .unknownSession(session):
            "no session \(session)"
        case let .duplicateSession(session):
            "session \(session) already exists"
        case let .sessionEnded(session):
            "session \(session) has ended and takes no more events"
        case let .duplicateCommand(session, sender, commandID):
            "session \(session): sender \"\(sender)\" already sent command \(commandID)"
        case let .newerSchema(path, found, supported):
            "\(path): the session store has schema version \(found), newer than the \(supported) this build reads; "
                + "run a newer Interlude or point it at another file"
        case let .notASessionStore(path, reason):
            "\(path): not an Interlude session store: \(reason)"
        case let .cannotCreate(path, errno, message):
            "\(path): cannot create the session store: \(message) (errno \(errno))"
        case let .corruptRow(path, table, detail):
            "\(path): unreadable row in table \(table): \(detail)"
        case let .sqlite(failure):
            failure.description
        case let .redis(message):
            message
        }
    }
}

/// A failed SQLite call, located: the file, what was being done, and SQLite's own words.
extension SessionStoreError {
    /// Whether the batch met what another process committed first (a shared store): the
    /// versions, sessions or command ids it expected are not the store's any more.
    public var isConflict: Bool {
        switch self {
        case .versionGap, .duplicateSession, .duplicateCommand, .sessionEnded, .unknownSession: true
        default: false
        }
    }

    /// The session a conflict (``isConflict``) is about: the one the store found changed first.
    public var conflictingSession: String? {
        switch self {
        case .versionGap(let session, _, _), .duplicateCommand(let session, _, _): session
        case .duplicateSession(let session), .sessionEnded(let session), .unknownSession(let session): session
        default: nil
        }
    }
}

public struct SQLiteFailure: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// `open`, `prepare`, `step`, `commit` …
    public var operation: String
    /// The statement, when there is one.
    public var sql: String?
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT` is 517, say); `code & 0xff` is the
    /// primary one.
    public var code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    public var message: String

    public init(path: String, operation: String, sql: String?, code: Int32, message: String) {
        self.path = path
        self.operation = operation
        self.sql = sql
        self.code = code
        self.message = message
    }

    /// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds the database.
    public var isBusy: Bool { code & 0xFF == 5 || code & 0xFF == 6 }

    public var description: String {
        var text = "\(path): SQLite \(operation) failed: \(message) (code \(code))"
        if let sql { text += " in: \(sql)" }
        return text
    }
}
