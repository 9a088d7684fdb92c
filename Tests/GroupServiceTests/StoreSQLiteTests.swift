import Foundation
import GroupService
import Testing
import TestSupport

/// What only the SQLite store promises: the file, its schema, and its errors.
@Suite("SQLite session store")
struct StoreSQLiteTests {
    @Test("sessions, events, participants and revocations survive closing and reopening the file")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.sqlite")
        let expected: [StoredSession]
        do {
            let store = try SQLiteSessionStore(path: path, eventsKeptPerSession: 4)
            var first = StoreBatch.fixture(newSession: "a", events: 1...3)
            first.newSessions.append(SessionRecord.fixture("gone"))
            first.events[0].event.retainKey = "playbackState"
            first.events[1].event.commandID = "c1"
            first.participants = [ParticipantRecord.fixture("p1", in: "a"), ParticipantRecord.fixture("p2", in: "a", joinedAt: 0)]
            first.revoke("t1", expiresAt: 99)
            try store.commit(first)
            var second = StoreBatch.fixture(events: 4...6, to: "a")
            second.end("gone", at: 7)
            try store.commit(second)
            expected = try store.loadAll()
        }
        #expect(expected.map(\.record) == [SessionRecord(id: "a", stream: "vod/a", createdAt: 0, version: 6)])
        #expect(expected.first?.snapshot.map(\.version) == [1])
        #expect(expected.first?.participants.map(\.id) == ["p2", "p1"])

        let store = try SQLiteSessionStore(path: path, eventsKeptPerSession: 4)
        #expect(try store.loadAll() == expected)
        #expect(try store.events(session: "a", after: 0, limit: 10).map(\.version) == [1, 3, 4, 5, 6])
        #expect(try store.commandVersion(session: "a", sender: "p1", commandID: "c1") == nil, "trimmed with its event")
        #expect(try store.isRevoked(tokenID: "t1"))
        #expect(throws: SessionStoreError.versionGap(session: "a", expected: 7, found: 8)) {
            try store.commit(StoreBatch.fixture(events: 8...8, to: "a"))
        }
        try store.commit(StoreBatch.fixture(events: 7...7, to: "a"))
        #expect(try store.integrityProblems() == [])
    }

    @Test("the file is created with mode 0600, in WAL mode, with the schema version and application id in its header")
    func fileAndHeader() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.sqlite")
        do {
            let store = try SQLiteSessionStore(path: path)
            try store.commit(StoreBatch.fixture(newSession: "a", events: 1...1))
            #expect(try permissions(of: path) == 0o600)
            #expect(try permissions(of: path + "-wal") == 0o600)
        }
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(100)
        #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(header[18] == 2 && header[19] == 2, "WAL")
        #expect(bigEndian(header, at: 60) == 1, "user_version")
        #expect(bigEndian(header, at: 68) == 0x494C_4753, "application_id")
    }

    @Test("a file with a newer schema is refused, naming the file and both versions")
    func newerSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.sqlite")
        _ = try SQLiteSessionStore(path: path)
        try SQLiteConnection(path: path).executeScript("PRAGMA user_version = 99")
        let error = #expect(throws: SessionStoreError.self) { try SQLiteSessionStore(path: path) }
        #expect(error == .newerSchema(path: path, found: 99, supported: 1))
        #expect(error?.description.contains("\(path): the session store has schema version 99, newer than the 1") == true)
    }

    @Test("an SQLite database of something else is refused, and left unchanged")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.sqlite")
        try SQLiteConnection(path: path).executeScript("CREATE TABLE notes (text TEXT)")
        let before = FileManager.default.contents(atPath: path)
        #expect(throws: SessionStoreError.notASessionStore(path: path, reason: "it holds other tables and no Interlude schema version")) {
            try SQLiteSessionStore(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == before)
        try SQLiteConnection(path: path).executeScript("PRAGMA user_version = 1")
        #expect(throws: SessionStoreError.notASessionStore(path: path, reason: "its application id is 0, not 1229735763")) {
            try SQLiteSessionStore(path: path)
        }
    }

    @Test("a file that is not a database, or cannot be created, gives a located error")
    func unreadableFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SessionStoreError.self) { try SQLiteSessionStore(path: path) }
        guard case let .sqlite(failure) = error else {
            Issue.record("expected an SQLite failure, got \(String(describing: error))")
            return
        }
        #expect(failure.path == path)
        #expect(failure.code & 0xFF == 26, "SQLITE_NOTADB")
        #expect(failure.description.hasPrefix("\(path): SQLite "))
        #expect(failure.description.contains("file is not a database"))

        let missing = directory.file("no/such/dir/sessions.sqlite")
        #expect(throws: SessionStoreError.cannotCreate(path: missing, errno: ENOENT, message: "No such file or directory")) {
            try SQLiteSessionStore(path: missing)
        }
    }

    @Test("a stored value out of range is reported as a corrupt row, not trusted")
    func corruptRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.sqlite")
        try SQLiteSessionStore(path: path).commit(StoreBatch.fixture(newSession: "a", events: 1...1))
        try SQLiteConnection(path: path).executeScript("PRAGMA ignore_check_constraints = ON; UPDATE session SET version = -1")
        let store = try SQLiteSessionStore(path: path)
        #expect(throws: SessionStoreError.corruptRow(path: path, table: "session", detail: "version -1")) { try store.loadAll() }
        #expect(throws: SessionStoreError.corruptRow(path: path, table: "session", detail: "version -1")) {
            try store.commit(StoreBatch.fixture(events: 2...2, to: "a"))
        }
    }

    @Test("a batch that meets another writer's lock fails as busy, keeps nothing, and the next one commits")
    func busy() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.sqlite")
        let store = try SQLiteSessionStore(path: path, busyTimeout: .milliseconds(20))
        try store.commit(StoreBatch.fixture(newSession: "a", events: 1...1))
        let other = try SQLiteConnection(path: path)
        try other.executeScript("BEGIN IMMEDIATE")
        let error = #expect(throws: SessionStoreError.self) { try store.commit(StoreBatch.fixture(events: 2...2, to: "a")) }
        guard case let .sqlite(failure) = error else {
            Issue.record("expected an SQLite failure, got \(String(describing: error))")
            return
        }
        #expect(failure.isBusy)
        try other.executeScript("ROLLBACK")
        #expect(try store.loadAll().first?.record.version == 1)
        try store.commit(StoreBatch.fixture(events: 2...2, to: "a"))
        #expect(try store.loadAll().first?.record.version == 2)
    }

    private func permissions(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    private func bigEndian(_ bytes: Data, at offset: Int) -> UInt32 {
        bytes.dropFirst(offset).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
