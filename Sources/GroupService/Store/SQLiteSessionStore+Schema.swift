extension SQLiteSessionStore {
    /// `PRAGMA application_id` of an Interlude session store: "ILGS".
    static let applicationID: Int32 = 0x494C_4753

    /// The schema as migrations: `migrations[n]` takes a database from `user_version` n to n + 1,
    /// so a new file runs them all and an old one the rest. Append, never edit.
    ///
    /// Version 1:
    /// - `session`: one row per session; `version` is the last event's version.
    /// - `event`: the log, keyed by (session, version); the partial unique index on
    ///   (session, sender, command_id) makes a command id count once and answers
    ///   `commandVersion`. Trimmed to the newest N per session, except retained events.
    /// - `retained`: the snapshot, the newest event version per (session, retain_key); its
    ///   foreign key keeps trimming from deleting an event the snapshot still holds.
    /// - `participant`: keyed by (session, id).
    /// - `revoked_token`: token id and expiry, until forgotten past the expiry.
    static let migrations: [String] = [
        """
        CREATE TABLE session (
            id TEXT PRIMARY KEY NOT NULL,
            stream TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            ended_at INTEGER,
            version INTEGER NOT NULL CHECK (version >= 0)
        ) STRICT;
        CREATE TABLE event (
            session TEXT NOT NULL REFERENCES session (id),
            version INTEGER NOT NULL CHECK (version > 0),
            sender TEXT NOT NULL,
            kind TEXT NOT NULL,
            retain_key TEXT,
            command_id TEXT,
            payload TEXT NOT NULL,
            recorded_at INTEGER NOT NULL,
            PRIMARY KEY (session, version)
        ) STRICT;
        CREATE UNIQUE INDEX event_command ON event (session, sender, command_id) WHERE command_id IS NOT NULL;
        CREATE TABLE retained (
            session TEXT NOT NULL,
            retain_key TEXT NOT NULL,
            version INTEGER NOT NULL,
            PRIMARY KEY (session, retain_key),
            FOREIGN KEY (session, version) REFERENCES event (session, version)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX retained_event ON retained (session, version);
        CREATE TABLE participant (
            session TEXT NOT NULL REFERENCES session (id),
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            secret_hash TEXT NOT NULL,
            joined_at INTEGER NOT NULL,
            last_seen_at INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (session, id)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE revoked_token (
            token_id TEXT PRIMARY KEY NOT NULL,
            expires_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX revoked_token_expiry ON revoked_token (expires_at);
        """
    ]

    /// The schema version this build writes.
    static var schemaVersion: Int32 { Int32(migrations.count) }

    /// Brings the database to `schemaVersion` in one transaction, or refuses a file that is
    /// newer or belongs to something else.
    static func migrate(_ connection: SQLiteConnection) throws(SessionStoreError) {
        try connection.transaction { () throws(SessionStoreError) in
            let found = try pragmaInteger("user_version", on: connection)
            let application = try pragmaInteger("application_id", on: connection)
            guard found <= schemaVersion else {
                throw .newerSchema(path: connection.path, found: found, supported: schemaVersion)
            }
            if found == 0 {
                let tables = try connection.rows("SELECT count(*) FROM sqlite_schema") { $0.integer(0) ?? 0 }
                guard application == 0, tables.first == 0 else {
                    throw .notASessionStore(path: connection.path, reason: "it holds other tables and no Interlude schema version")
                }
            } else if application != applicationID {
                throw .notASessionStore(path: connection.path, reason: "its application id is \(application), not \(applicationID)")
            }
            guard found < schemaVersion else { return }
            for migration in migrations[Int(found)...] { try connection.executeScript(migration) }
            // PRAGMA takes no bound parameters; both values are constants of this build.
            try connection.executeScript("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(schemaVersion);")
        }
    }

    static func pragmaInteger(_ name: String, on connection: SQLiteConnection) throws(SessionStoreError) -> Int32 {
        let values = try connection.rows("PRAGMA \(name)") { $0.integer(0) }
        guard let value = values.first ?? nil, let narrow = Int32(exactly: value) else {
            throw .notASessionStore(path: connection.path, reason: "PRAGMA \(name) gives no 32-bit integer")
        }
        return narrow
    }
}
