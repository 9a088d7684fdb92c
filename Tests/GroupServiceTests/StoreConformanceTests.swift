import Foundation
import GroupService
import Testing
import TestSupport

/// The semantics every `SessionStore` shares, run against SQLite, Redis and memory alike.
@Suite("Session store conformance")
struct StoreConformanceTests {
    @Test("a committed batch comes back from loadAll with its snapshot and participants", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try kind.withStore { store in
            var batch = StoreBatch()
            batch.newSessions = [SessionRecord.fixture("a", createdAt: 10), SessionRecord.fixture("b", createdAt: 5)]
            batch.append(StoredEvent.fixture(1, key: "playbackState", payload: #"{"rate":1}"#), to: "a")
            batch.append(StoredEvent.fixture(2, sender: "p1", key: nil, command: "c1", payload: "{\"text\":\"hé \u{0} ✓\"}"), to: "a")
            batch.append(StoredEvent.fixture(1, sender: "", key: "adSchedule"), to: "b")
            batch.participants = [ParticipantRecord.fixture("p1", in: "a"), ParticipantRecord.fixture("p0", in: "a", joinedAt: 1)]
            try store.commit(batch)

            let loaded = try store.loadAll()
            #expect(loaded.map(\.record.id) == ["b", "a"])
            #expect(loaded[1].record.version == 2)
            #expect(loaded[1].snapshot == [StoredEvent.fixture(1, key: "playbackState", payload: #"{"rate":1}"#)])
            #expect(loaded[1].participants.map(\.id) == ["p0", "p1"])
            #expect(loaded[0].snapshot == [StoredEvent.fixture(1, sender: "", key: "adSchedule")])
            #expect(try store.events(session: "a", after: 0, limit: 10).map(\.payload)[1] == "{\"text\":\"hé \u{0} ✓\"}")
        }
    }

    @Test("a batch whose events skip or repeat a version is refused, and nothing of it is kept", arguments: StoreKind.allCases)
    func versionGap(kind: StoreKind) throws {
        try kind.withStore { store in
            try store.commit(StoreBatch.fixture(newSession: "a", events: 1...3))
            let before = try store.loadAll()

            var gap = StoreBatch()
            gap.newSessions = [SessionRecord.fixture("b")]
            gap.append(StoredEvent.fixture(1), to: "b")
            gap.append(StoredEvent.fixture(5), to: "a")
            gap.participants = [ParticipantRecord.fixture("p9", in: "a")]
            gap.revoke("t1", expiresAt: 100)
            #expect(throws: SessionStoreError.versionGap(session: "a", expected: 4, found: 5)) { try store.commit(gap) }

            var repeated = StoreBatch()
            repeated.append(StoredEvent.fixture(4), to: "a")
            repeated.append(StoredEvent.fixture(4), to: "a")
            #expect(throws: SessionStoreError.versionGap(session: "a", expected: 5, found: 4)) { try store.commit(repeated) }

            #expect(try store.loadAll() == before)
            #expect(try store.events(session: "a", after: 0, limit: 10).map(\.version) == [1, 2, 3])
            #expect(try !store.isRevoked(tokenID: "t1"))
            try store.commit(StoreBatch.fixture(events: 4...4, to: "a"))
            #expect(try store.loadAll().first?.record.version == 4)
        }
    }

    @Test("a command id counts once per session and sender, and commandVersion finds the version it got", arguments: StoreKind.allCases)
    func commandIDs(kind: StoreKind) throws {
        try kind.withStore { store in
            var first = StoreBatch()
            first.newSessions = [SessionRecord.fixture("a"), SessionRecord.fixture("b")]
            first.append(StoredEvent.fixture(1, sender: "p1", command: "c1"), to: "a")
            first.append(StoredEvent.fixture(2, sender: "p2", command: "c1"), to: "a")
            first.append(StoredEvent.fixture(1, sender: "p1", command: "c1"), to: "b")
            try store.commit(first)
            #expect(try store.commandVersion(session: "a", sender: "p1", commandID: "c1") == 1)
            #expect(try store.commandVersion(session: "a", sender: "p2", commandID: "c1") == 2)
            #expect(try store.commandVersion(session: "a", sender: "p3", commandID: "c1") == nil)

            var retry = StoreBatch()
            retry.append(StoredEvent.fixture(3, sender: "p3", command: "c2"), to: "a")
            retry.append(StoredEvent.fixture(4, sender: "p1", command: "c1"), to: "a")
            let duplicate = SessionStoreError.duplicateCommand(session: "a", sender: "p1", commandID: "c1")
            #expect(throws: duplicate) { try store.commit(retry) }
            #expect(try store.commandVersion(session: "a", sender: "p3", commandID: "c2") == nil)

            var twice = StoreBatch()
            twice.append(StoredEvent.fixture(3, sender: "p3", command: "c2"), to: "a")
            twice.append(StoredEvent.fixture(4, sender: "p3", command: "c2"), to: "a")
            #expect(throws: SessionStoreError.duplicateCommand(session: "a", sender: "p3", commandID: "c2")) {
                try store.commit(twice)
            }
            #expect(try store.loadAll().map(\.record.version) == [2, 1])
        }
    }

    @Test("the snapshot holds the newest event of each retain key and nothing else", arguments: StoreKind.allCases)
    func snapshot(kind: StoreKind) throws {
        try kind.withStore { store in
            var batch = StoreBatch()
            batch.newSessions = [SessionRecord.fixture("a")]
            for (version, key) in zip(1..., ["playbackState", "participantState/p1", nil, "playbackState", nil]) {
                batch.append(StoredEvent.fixture(UInt64(version), key: key), to: "a")
            }
            try store.commit(batch)
            var later = StoreBatch()
            later.append(StoredEvent.fixture(6, key: "participantState/p1"), to: "a")
            later.append(StoredEvent.fixture(7, key: "participantState/p2"), to: "a")
            try store.commit(later)
            #expect(try store.loadAll()[0].snapshot.map(\.version) == [4, 6, 7])
            #expect(try store.loadAll()[0].snapshot.map(\.retainKey) == ["playbackState", "participantState/p1", "participantState/p2"])
        }
    }

    @Test("the log keeps the newest events of each session, and older ones only while the snapshot holds them", arguments: StoreKind.allCases)
    func trimming(kind: StoreKind) throws {
        try kind.withStore(eventsKept: 5) { store in
            var batch = StoreBatch()
            batch.newSessions = [SessionRecord.fixture("a"), SessionRecord.fixture("b")]
            batch.append(StoredEvent.fixture(1, key: "playbackState"), to: "a")
            batch.append(StoredEvent.fixture(2, key: "participantState/p1", command: "old"), to: "a")
            for version in 3...12 { batch.append(StoredEvent.fixture(UInt64(version)), to: "a") }
            batch.append(StoredEvent.fixture(1), to: "b")
            try store.commit(batch)
            #expect(try store.events(session: "a", after: 0, limit: 100).map(\.version) == [1, 2, 8, 9, 10, 11, 12])
            #expect(try store.commandVersion(session: "a", sender: "p1", commandID: "old") == 2)

            // A newer playbackState frees event 1; trimming happens as the session's log grows.
            try store.commit(StoreBatch.fixture(events: 13...13, to: "a", key: "playbackState"))
            #expect(try store.events(session: "a", after: 0, limit: 100).map(\.version) == [2, 9, 10, 11, 12, 13])
            #expect(try store.loadAll()[0].snapshot.map(\.version) == [2, 13])
            #expect(try store.events(session: "b", after: 0, limit: 100).map(\.version) == [1])
        }
    }

    @Test("loadAll brings the newest versions of each log, as many as asked for and the log holds", arguments: StoreKind.allCases)
    func restoredLog(kind: StoreKind) throws {
        try kind.withStore(eventsKept: 6) { store in
            var batch = StoreBatch.fixture(newSession: "a", events: 1...10)
            batch.events[1].event.retainKey = "playbackState"
            batch.newSessions.append(SessionRecord.fixture("b", createdAt: 1))
            try store.commit(batch)
            #expect(try store.loadAll(logLength: 3).map { $0.log.map(\.version) } == [[8, 9, 10], []])
            #expect(try store.loadAll(logLength: 7).first?.log.map(\.version) == [5, 6, 7, 8, 9, 10])
            #expect(try store.loadAll().first?.log.map(\.version) == [2, 5, 6, 7, 8, 9, 10])
            #expect(try store.loadAll().first?.snapshot.map(\.version) == [2])
            #expect(try store.loadAll(logLength: 0).first?.log == [])
        }
    }

    @Test("events after a version come oldest first, up to the limit", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) throws {
        try kind.withStore { store in
            try store.commit(StoreBatch.fixture(newSession: "a", events: 1...9))
            #expect(try store.events(session: "a", after: 3, limit: 4).map(\.version) == [4, 5, 6, 7])
            #expect(try store.events(session: "a", after: 8, limit: 4).map(\.version) == [9])
            #expect(try store.events(session: "a", after: 9, limit: 4).isEmpty)
            #expect(try store.events(session: "a", after: .max, limit: 4).isEmpty)
            #expect(try store.events(session: "a", after: 0, limit: -1).isEmpty)
            #expect(try store.events(session: "nobody", after: 0, limit: 4).isEmpty)
        }
    }

    @Test("a revoked token stays revoked until a batch forgets revocations past its expiry", arguments: StoreKind.allCases)
    func revocation(kind: StoreKind) throws {
        try kind.withStore { store in
            var batch = StoreBatch()
            batch.revoke("t1", expiresAt: 1_000)
            batch.revoke("t2", expiresAt: 2_000)
            batch.revoke("t1", expiresAt: 500)
            try store.commit(batch)
            #expect(try store.isRevoked(tokenID: "t1"))
            #expect(try !store.isRevoked(tokenID: "t3"))

            var forget = StoreBatch()
            forget.forgetsRevocationsExpiredBy = 999
            try store.commit(forget)
            #expect(try store.isRevoked(tokenID: "t1"))
            forget.forgetsRevocationsExpiredBy = 1_000
            try store.commit(forget)
            #expect(try !store.isRevoked(tokenID: "t1"))
            #expect(try store.isRevoked(tokenID: "t2"))
        }
    }

    @Test("an ended session is not loaded, takes no more events, and keeps its first end", arguments: StoreKind.allCases)
    func endedSessions(kind: StoreKind) throws {
        try kind.withStore { store in
            var batch = StoreBatch.fixture(newSession: "a", events: 1...2)
            batch.newSessions.append(SessionRecord.fixture("b"))
            batch.end("a", at: 50)
            try store.commit(batch)
            #expect(try store.loadAll().map(\.record.id) == ["b"])
            #expect(throws: SessionStoreError.sessionEnded("a")) { try store.commit(StoreBatch.fixture(events: 3...3, to: "a")) }
            var again = StoreBatch()
            again.end("a", at: 60)
            again.participants = [ParticipantRecord.fixture("p1", in: "a", state: "left")]
            try store.commit(again)
            #expect(try store.events(session: "a", after: 0, limit: 10).map(\.version) == [1, 2])
        }
    }

    @Test("events, participants and ends for a missing session are refused, and a session is created once", arguments: StoreKind.allCases)
    func unknownSessions(kind: StoreKind) throws {
        try kind.withStore { store in
            try store.commit(StoreBatch.fixture(newSession: "a", events: 1...1))
            #expect(throws: SessionStoreError.unknownSession("x")) { try store.commit(StoreBatch.fixture(events: 1...1, to: "x")) }
            var participants = StoreBatch()
            participants.participants = [ParticipantRecord.fixture("p1", in: "x")]
            #expect(throws: SessionStoreError.unknownSession("x")) { try store.commit(participants) }
            var end = StoreBatch()
            end.end("x", at: 1)
            #expect(throws: SessionStoreError.unknownSession("x")) { try store.commit(end) }
            #expect(throws: SessionStoreError.duplicateSession("a")) { try store.commit(StoreBatch.fixture(newSession: "a")) }
            var twice = StoreBatch()
            twice.newSessions = [SessionRecord.fixture("b"), SessionRecord.fixture("b")]
            #expect(throws: SessionStoreError.duplicateSession("b")) { try store.commit(twice) }
            var huge = StoreBatch()
            huge.newSessions = [SessionRecord(id: "c", stream: "s", createdAt: 0, version: .max)]
            #expect(throws: SessionStoreError.versionOutOfRange(session: "c", version: .max)) { try store.commit(huge) }
            #expect(try store.loadAll().map(\.record.id) == ["a"])
        }
    }

    @Test("a participant is replaced by the next record with its session and id", arguments: StoreKind.allCases)
    func participantUpsert(kind: StoreKind) throws {
        try kind.withStore { store in
            var batch = StoreBatch.fixture(newSession: "a")
            batch.newSessions.append(SessionRecord.fixture("b"))
            batch.participants = [ParticipantRecord.fixture("p1", in: "a"), ParticipantRecord.fixture("p1", in: "b")]
            try store.commit(batch)
            var update = StoreBatch()
            update.participants = [ParticipantRecord.fixture("p1", in: "a", state: "lost")]
            try store.commit(update)
            #expect(try store.loadAll().map { $0.participants.map(\.state) } == [["lost"], ["present"]])
        }
    }

    @Test("random batches, valid or not, leave the SQLite (and Redis) store like the memory one", arguments: [StoreKind.sqlite, .redis])
    func differential(kind: StoreKind) throws {
        let seed: UInt64 = 0x5EED
        var random = SeededGenerator(seed: seed)
        try kind.withStore(eventsKept: 8) { sqlite in
            let memory: any SessionStore = MemorySessionStore(eventsKeptPerSession: 8)
            var versions: [String: UInt64] = [:]
            var ids: Set<String> = []
            for turn in 0..<300 {
                let batch = randomBatch(versions: versions, turn: turn, using: &random)
                let sqliteResult = Result { () throws(SessionStoreError) in try sqlite.commit(batch) }
                let memoryResult = Result { () throws(SessionStoreError) in try memory.commit(batch) }
                // The first divergence ends the run: the ones after it follow from it.
                try #require(String(describing: sqliteResult) == String(describing: memoryResult), "seed \(seed), turn \(turn)")
                let loaded = try memory.loadAll()
                try #require(try sqlite.loadAll() == loaded, "seed \(seed), turn \(turn)")
                versions = Dictionary(uniqueKeysWithValues: loaded.map { ($0.record.id, $0.record.version) })
                ids.formUnion(versions.keys)
            }
            for id in ids.sorted() {
                #expect(try sqlite.events(session: id, after: 0, limit: 100) == memory.events(session: id, after: 0, limit: 100))
                #expect(
                    try sqlite.commandVersion(session: id, sender: "p1", commandID: "c3")
                        == memory.commandVersion(session: id, sender: "p1", commandID: "c3")
                )
            }
            #expect(try (0..<5).map { try sqlite.isRevoked(tokenID: "t\($0)") } == (0..<5).map { try memory.isRevoked(tokenID: "t\($0)") })
        }
    }

    /// A batch that is mostly valid: now and then a gap, a repeated command, a missing session.
    private func randomBatch(versions: [String: UInt64], turn: Int, using random: inout SeededGenerator) -> StoreBatch {
        var batch = StoreBatch()
        var next = versions
        if versions.count < 3 || random.chance(0.05) {
            let id = random.chance(0.9) ? "s\(turn)" : "s0"
            batch.newSessions = [SessionRecord.fixture(id, createdAt: Int64(turn))]
            next[id] = next[id] ?? 0
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let id = random.chance(0.97) ? random.pick(next.keys.sorted()) : "missing"
            var version = (next[id] ?? 0) + 1
            if random.chance(0.03) { version += 1 }
            next[id] = version
            let key = random.chance(0.4) ? random.pick(["playbackState", "participantState/p1", "adSchedule"]) : nil
            let command = random.chance(0.3) ? "c\(Int.random(in: 0..<6, using: &random))" : nil
            batch.append(StoredEvent.fixture(version, sender: random.pick(["p1", "p2"]), key: key, command: command), to: id)
        }
        if random.chance(0.3), let id = next.keys.sorted().first {
            batch.participants = [ParticipantRecord.fixture(random.pick(["p1", "p2"]), in: id, state: random.pick(["present", "lost"]))]
        }
        if random.chance(0.02), let id = next.keys.sorted().last { batch.end(id, at: Int64(turn)) }
        if random.chance(0.2) { batch.revoke("t\(Int.random(in: 0..<5, using: &random))", expiresAt: Int64(turn + 20)) }
        if random.chance(0.1) { batch.forgetsRevocationsExpiredBy = Int64(turn) }
        return batch
    }
}

// MARK: - Fixtures shared by the store tests

/// The stores under test.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case memory
    /// A private redis-server for each test, stopped after it.
    case redis

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh store; the SQLite one lives in a directory removed afterwards.
    func withStore(
        eventsKept: Int = defaultEventsKeptPerSession,
        _ body: (any SessionStore) throws -> Void
    ) throws {
        switch self {
        case .memory:
            try body(MemorySessionStore(eventsKeptPerSession: eventsKept))
        case .sqlite:
            let directory = try TemporaryDirectory()
            try body(SQLiteSessionStore(path: directory.file("sessions.sqlite"), eventsKeptPerSession: eventsKept))
        case .redis:
            let server = try RedisServer()
            let store = try RedisSessionStore(url: server.url, eventsKeptPerSession: eventsKept)
            defer { store.close() }
            try body(store)
        }
    }
}

extension SessionRecord {
    /// A session on stream `vod/ID`.
    static func fixture(_ id: String, createdAt: Int64 = 0) -> SessionRecord {
        SessionRecord(id: id, stream: "vod/\(id)", createdAt: createdAt)
    }
}

extension StoredEvent {
    /// An event whose kind is its retain key's first component, or `custom`.
    static func fixture(
        _ version: UInt64,
        sender: String = "p1",
        key: String? = nil,
        command: String? = nil,
        payload: String = "{}"
    ) -> StoredEvent {
        StoredEvent(
            version: version, sender: sender, kind: key.map { String($0.prefix { $0 != "/" }) } ?? "custom", retainKey: key,
            commandID: command, payload: payload, recordedAt: Int64(version) * 1_000
        )
    }
}

extension ParticipantRecord {
    static func fixture(_ id: String, in session: String, joinedAt: Int64 = 2, state: String = "present") -> ParticipantRecord {
        ParticipantRecord(
            id: id, session: session, name: "name of \(id)", role: "viewer", secretHash: String(repeating: "0f", count: 32),
            joinedAt: joinedAt, lastSeenAt: joinedAt + 1, state: state
        )
    }
}

extension StoreBatch {
    /// A batch of plain events with the versions in `versions`, to a new session or an existing one.
    static func fixture(
        newSession: String? = nil,
        events versions: ClosedRange<UInt64>? = nil,
        to id: String? = nil,
        key: String? = nil
    ) -> StoreBatch {
        var batch = StoreBatch()
        if let newSession { batch.newSessions = [.fixture(newSession)] }
        for version in versions.map(Array.init) ?? [] { batch.append(.fixture(version, key: key), to: id ?? newSession ?? "") }
        return batch
    }
}
