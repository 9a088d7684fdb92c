import Synchronization

/// The session store of record: one SQLite file in WAL mode with `synchronous=FULL`, so that a
/// commit that returned survives `kill -9` and a power cut (research/group-service.md 2.1).
///
/// Every call takes the store's lock for its whole length; the connection is opened with
/// `SQLITE_OPEN_NOMUTEX` and that lock is the only one. A batch is one `BEGIN IMMEDIATE …
/// COMMIT`, and `commit` returns only once `COMMIT` stepped to `SQLITE_DONE`. Statements are
/// prepared once and reused.
public final class SQLiteSessionStore: SessionStore {
    private let connection: Mutex<SQLiteConnection>
    private let eventsKeptPerSession: Int
    /// The file, as given.
    public let path: String

    /// Opens the store at `path`, creating the file (mode 0600) and its schema when missing,
    /// migrating an older schema, and refusing a newer one. `eventsKeptPerSession` is at least 1;
    /// `busyTimeout` is how long a call waits for another connection's lock before it fails
    /// with `SQLiteFailure.isBusy`.
    public init(
        path: String,
        eventsKeptPerSession: Int = defaultEventsKeptPerSession,
        busyTimeout: Duration = .seconds(5)
    ) throws(SessionStoreError) {
        let connection = try SQLiteConnection(path: path)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = min(seconds, Int64(Int32.max)) * 1_000 + attoseconds / 1_000_000_000_000_000
        try connection.setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
        try connection.executeScript("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        // Before WAL mode, which rewrites the header: a file that is refused is left as it was.
        try Self.migrate(connection)
        let mode = try connection.rows("PRAGMA journal_mode = WAL") { $0.text(0) }
        guard mode.first == "wal" else {
            throw .sqlite(
                SQLiteFailure(
                    path: path,
                    operation: "journal_mode",
                    sql: "PRAGMA journal_mode = WAL",
                    code: 1,
                    message: "the journal mode stayed \(mode.first.flatMap { $0 } ?? "unknown")"
                )
            )
        }
        self.path = path
        self.eventsKeptPerSession = max(1, eventsKeptPerSession)
        self.connection = Mutex(connection)
    }

    public func commit(_ batch: StoreBatch) throws(SessionStoreError) {
        guard !batch.isEmpty else { return }
        let kept = Int64(eventsKeptPerSession)
        try connection.withLock { (connection) throws(SessionStoreError) in
            try connection.transaction { () throws(SessionStoreError) in
                let versions = try batch.checked { (id) throws(SessionStoreError) in
                    try connection.rows("SELECT version, ended_at FROM session WHERE id = ?", .text(id)) {
                        (row) throws(SessionStoreError) in
                        StoredSessionState(version: try row.version(0, table: "session"), isEnded: row.integer(1) != nil)
                    }.first
                }
                for record in batch.newSessions {
                    try connection.run(
                        "INSERT INTO session (id, stream, created_at, ended_at, version) VALUES (?, ?, ?, ?, ?)",
                        .text(record.id), .text(record.stream), .integer(record.createdAt), .integer(record.endedAt),
                        .version(record.version)
                    )
                }
                for entry in batch.events { try Self.insert(entry, on: connection) }
                for (session, version) in versions.sorted(by: { $0.key < $1.key }) {
                    try connection.run("UPDATE session SET version = ? WHERE id = ?", .version(version), .text(session))
                    let cutoff = Int64(version) - kept
                    guard cutoff > 0 else { continue }
                    try connection.run(
                        """
                        DELETE FROM event WHERE session = ?1 AND version <= ?2
                            AND version NOT IN (SELECT version FROM retained WHERE session = ?1)
                        """,
                        .text(session), .integer(cutoff)
                    )
                }
                for participant in batch.participants {
                    try connection.run(
                        """
                        INSERT OR REPLACE INTO participant
                            (session, id, name, role, secret_hash, joined_at, last_seen_at, state)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        .text(participant.session), .text(participant.id), .text(participant.name), .text(participant.role),
                        .text(participant.secretHash), .integer(participant.joinedAt), .integer(participant.lastSeenAt),
                        .text(participant.state)
                    )
                }
                for end in batch.endedSessions {
                    try connection.run(
                        "UPDATE session SET ended_at = coalesce(ended_at, ?) WHERE id = ?", .integer(end.endedAt), .text(end.session)
                    )
                }
                for revocation in batch.revokedTokens {
                    try connection.run(
                        """
                        INSERT INTO revoked_token (token_id, expires_at) VALUES (?1, ?2)
                        ON CONFLICT (token_id) DO UPDATE SET expires_at = max(expires_at, ?2)
                        """,
                        .text(revocation.tokenID), .integer(revocation.expiresAt)
                    )
                }
                if let now = batch.forgetsRevocationsExpiredBy {
                    try connection.run("DELETE FROM revoked_token WHERE expires_at <= ?", .integer(now))
                }
            }
        }
    }

    private static func insert(_ entry: StoreBatch.Event, on connection: SQLiteConnection) throws(SessionStoreError) {
        let event = entry.event
        do {
            try connection.run(
                """
                INSERT INTO event (session, version, sender, kind, retain_key, command_id, payload, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .text(entry.session), .version(event.version), .text(event.sender), .text(event.kind), .text(event.retainKey),
                .text(event.commandID), .text(event.payload), .integer(event.recordedAt)
            )
        } catch let .sqlite(failure) where failure.code == uniqueConstraint {
            // The version was checked to be new, so the unique index on command ids is what refused.
            throw .duplicateCommand(session: entry.session, sender: event.sender, commandID: event.commandID ?? "")
        }
        if let key = event.retainKey {
            try connection.run(
                """
                INSERT INTO retained (session, retain_key, version) VALUES (?1, ?2, ?3)
                ON CONFLICT (session, retain_key) DO UPDATE SET version = ?3
                """,
                .text(entry.session), .text(key), .version(event.version)
            )
        }
    }

    /// `SQLITE_CONSTRAINT_UNIQUE`.
    private static let uniqueConstraint: Int32 = 2067

    public func loadAll(logLength: Int) throws(SessionStoreError) -> [StoredSession] {
        try connection.withLock { (connection) throws(SessionStoreError) in
            // One read transaction, so that the three queries see the same commit.
            try connection.transaction("BEGIN") { () throws(SessionStoreError) in
                let records = try connection.rows(
                    "SELECT id, stream, created_at, ended_at, version FROM session WHERE ended_at IS NULL ORDER BY created_at, id"
                ) { (row) throws(SessionStoreError) in
                    SessionRecord(
                        id: try row.requiredText(0, table: "session"),
                        stream: try row.requiredText(1, table: "session"),
                        createdAt: try row.requiredInteger(2, table: "session"),
                        endedAt: row.integer(3),
                        version: try row.version(4, table: "session")
                    )
                }
                let snapshots = try connection.rows(
                    """
                    SELECT e.session, \(Self.eventColumns) FROM retained r
                    JOIN event e ON e.session = r.session AND e.version = r.version
                    JOIN session s ON s.id = r.session
                    WHERE s.ended_at IS NULL ORDER BY e.session, e.version
                    """
                ) { (row) throws(SessionStoreError) in (try row.requiredText(0, table: "event"), try Self.event(row, from: 1)) }
                let participants = try connection.rows(
                    """
                    SELECT p.session, p.id, p.name, p.role, p.secret_hash, p.joined_at, p.last_seen_at, p.state
                    FROM participant p JOIN session s ON s.id = p.session
                    WHERE s.ended_at IS NULL ORDER BY p.session, p.joined_at, p.id
                    """
                ) { (row) throws(SessionStoreError) in
                    ParticipantRecord(
                        id: try row.requiredText(1, table: "participant"),
                        session: try row.requiredText(0, table: "participant"),
                        name: try row.requiredText(2, table: "participant"),
                        role: try row.requiredText(3, table: "participant"),
                        secretHash: try row.requiredText(4, table: "participant"),
                        joinedAt: try row.requiredInteger(5, table: "participant"),
                        lastSeenAt: try row.requiredInteger(6, table: "participant"),
                        state: try row.requiredText(7, table: "participant")
                    )
                }
                let snapshotBySession = Dictionary(grouping: snapshots, by: \.0).mapValues { $0.map(\.1) }
                let participantsBySession = Dictionary(grouping: participants, by: \.session)
                let length = UInt64(clamping: logLength)
                return try records.map { (record) throws(SessionStoreError) in
                    StoredSession(
                        record: record,
                        snapshot: snapshotBySession[record.id] ?? [],
                        log: try Self.events(
                            session: record.id, after: record.version > length ? record.version - length : 0, limit: Int(length),
                            on: connection
                        ),
                        participants: participantsBySession[record.id] ?? []
                    )
                }
            }
        }
    }

    public func events(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> [StoredEvent] {
        try connection.withLock { (connection) throws(SessionStoreError) in
            try Self.events(session: session, after: version, limit: limit, on: connection)
        }
    }

    private static func events(
        session: String,
        after version: UInt64,
        limit: Int,
        on connection: SQLiteConnection
    ) throws(SessionStoreError) -> [StoredEvent] {
        try connection.rows(
            "SELECT \(eventColumns) FROM event e WHERE session = ? AND version > ? ORDER BY version LIMIT ?",
            .text(session), .version(version), .integer(Int64(max(0, limit)))
        ) { (row) throws(SessionStoreError) in try event(row, from: 0) }
    }

    public func commandVersion(session: String, sender: String, commandID: String) throws(SessionStoreError) -> UInt64? {
        try connection.withLock { (connection) throws(SessionStoreError) in
            try connection.rows(
                "SELECT version FROM event WHERE session = ? AND sender = ? AND command_id = ?",
                .text(session), .text(sender), .text(commandID)
            ) { (row) throws(SessionStoreError) in try row.version(0, table: "event") }.first
        }
    }

    public func isRevoked(tokenID: String) throws(SessionStoreError) -> Bool {
        try connection.withLock { (connection) throws(SessionStoreError) in
            try !connection.rows("SELECT 1 FROM revoked_token WHERE token_id = ?", .text(tokenID)) { _ in () }.isEmpty
        }
    }

    /// What `PRAGMA integrity_check` and `PRAGMA foreign_key_check` find; empty when the file is
    /// sound. O(size of the database).
    public func integrityProblems() throws(SessionStoreError) -> [String] {
        try connection.withLock { (connection) throws(SessionStoreError) in
            let integrity = try connection.rows("PRAGMA integrity_check") { $0.text(0) ?? "" }.filter { $0 != "ok" }
            let foreignKeys = try connection.rows("PRAGMA foreign_key_check") { row in
                "foreign key: row \(row.integer(1).map(String.init) ?? "?") of \(row.text(0) ?? "?") names a missing \(row.text(2) ?? "?")"
            }
            return integrity + foreignKeys
        }
    }

    private static let eventColumns = "e.version, e.sender, e.kind, e.retain_key, e.command_id, e.payload, e.recorded_at"

    /// The event in `eventColumns` order from column `first` on.
    private static func event(_ row: SQLiteStatement, from first: Int32) throws(SessionStoreError) -> StoredEvent {
        StoredEvent(
            version: try row.version(first, table: "event"),
            sender: try row.requiredText(first + 1, table: "event"),
            kind: try row.requiredText(first + 2, table: "event"),
            retainKey: row.text(first + 3),
            commandID: row.text(first + 4),
            payload: try row.requiredText(first + 5, table: "event"),
            recordedAt: try row.requiredInteger(first + 6, table: "event")
        )
    }
}
