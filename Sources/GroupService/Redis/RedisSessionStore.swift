import Foundation
import Synchronization

/// Sessions kept in Redis and shared by every `interlude serve` process that points at the same
/// server (research/group-service.md §5): per session a hash with its record and version, a
/// stream with its events (entry id `0-VERSION`), hashes of its retained events, command ids and
/// participants, and a pub/sub channel, its doorbell, that carries each committed change. Every
/// write goes through one Lua script that checks the versions it expects (``commitScript``), so
/// the versions are a total order per session whichever process appends. Keys carry the
/// session in a hash tag (`interlude:{ID}:log`) so that Redis Cluster would keep a session on one
/// shard; the commit script names several sessions at once, so this store expects one Redis
/// server (with AOF for durability: `appendonly yes`).
///
/// Commands go over one connection (held under a lock only for the call itself, like the SQLite
/// store's); the notices come from another, read on its own thread (``RedisSubscriber``).
public final class RedisSessionStore: SharedSessionStore {
    /// Where Redis is.
    public let endpoint: RedisEndpoint
    /// The key prefix.
    public let prefix: String
    private let eventsKeptPerSession: Int
    private let connection: Mutex<RedisConnection>
    private let scriptHash: String
    private let subscriber: RedisSubscriber
    private let heartbeatStop = StopFlag()
    /// Redis's `appendonly` and `appendfsync` settings when it was opened (`nil` when `CONFIG` is
    /// not allowed): without the append-only file a Redis restart loses every session.
    public let persistence: (appendOnly: Bool, fsync: String)?

    /// A store over the Redis server at `url` (`redis://HOST:PORT`), keeping the newest
    /// `eventsKeptPerSession` events of each session (older ones while retained).
    ///
    /// - Throws: when Redis cannot be reached, is older than 6.2 (the log is trimmed by id), or
    ///   refuses the commit script.
    public init(url: String, prefix: String = "interlude", eventsKeptPerSession: Int = defaultEventsKeptPerSession) throws(SessionStoreError) {
        let endpoint: RedisEndpoint
        do { endpoint = try RedisEndpoint(url: url) } catch { throw .redis(error.description) }
        self.endpoint = endpoint
        self.prefix = prefix
        self.eventsKeptPerSession = max(1, eventsKeptPerSession)
        let connection: RedisConnection
        do throws(RedisError) {
            connection = try RedisConnection(endpoint: endpoint)
            let info = try connection.command("INFO", "server").checked("INFO server")
            if let version = info.text.flatMap(Self.serverVersion), version.lexicographicallyPrecedes([6, 2]) {
                throw RedisError.unexpectedReply(command: "INFO server", reply: "Redis \(version.map(String.init).joined(separator: ".")); 6.2 or newer is needed")
            }
            guard let hash = try connection.command("SCRIPT", "LOAD", Self.commitScript).checked("SCRIPT LOAD").text else {
                throw RedisError.unexpectedReply(command: "SCRIPT LOAD", reply: "no hash")
            }
            scriptHash = hash
            let appendOnly = try connection.command("CONFIG", "GET", "appendonly")
            let fsync = try connection.command("CONFIG", "GET", "appendfsync")
            if let on = appendOnly.elements.last?.text, let every = fsync.elements.last?.text {
                persistence = (on == "yes", every)
            } else {
                persistence = nil
            }
        } catch {
            throw .redis(error.description)
        }
        self.connection = Mutex(connection)
        subscriber = RedisSubscriber(endpoint: endpoint)
    }

    deinit { subscriber.close() }

    static func serverVersion(_ info: String) -> [Int]? {
        guard let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("redis_version:") }) else { return nil }
        return line.dropFirst("redis_version:".count).split(separator: ".").compactMap { Int($0) }
    }

    // MARK: - Keys

    private var sessionsKey: String { "\(prefix):sessions" }
    private var revokedKey: String { "\(prefix):revoked" }
    private func key(_ session: String, _ part: String) -> String { "\(prefix):{\(session)}:\(part)" }
    func channel(_ session: String) -> String { key(session, "bell") }
    private func nodeKey(_ node: String) -> String { "\(prefix):node:\(node)" }
    private static func commandKey(sender: String, id: String) -> String { "\(sender)\u{1F}\(id)" }

    private func call<Result>(_ body: (RedisConnection) throws(RedisError) -> Result) throws(SessionStoreError) -> Result {
        do {
            return try connection.withLock { (connection) throws(RedisError) -> Result in try body(connection) }
        } catch {
            throw .redis(error.description)
        }
    }

    private func corrupt(_ error: RedisFieldsError, in key: String) -> SessionStoreError {
        .corruptRow(path: endpoint.description, table: key, detail: error.description)
    }

    // MARK: - Writing

    public func commit(_ batch: StoreBatch) throws(SessionStoreError) {
        var names: [String] = []
        var seen = Set<String>()
        for id in batch.newSessions.map(\.id) + batch.events.map(\.session) + batch.participants.map(\.session) + batch.endedSessions.map(\.session)
        where seen.insert(id).inserted { names.append(id) }
        // The batch says what it expects of each session (its first event's version less one),
        // so the script checks that without a read first. Only when it finds otherwise does the
        // store read the sessions: to report what is wrong as every store does, or, when the read
        // agrees with the batch (another process committed in between and the batch is valid
        // against what is there now), to try again.
        let creates = Set(batch.newSessions.map(\.id))
        _ = try batch.checked { id throws(SessionStoreError) -> StoredSessionState? in
            if creates.contains(id) { return nil }
            let first = batch.events.first { $0.session == id }?.event.version
            return StoredSessionState(version: first.map { $0 &- 1 } ?? 0, isEnded: false)
        }
        for _ in 0..<16 {
            let arguments = scriptArguments(batch, names: names)
            let reply = try call { (connection) throws(RedisError) in try connection.command(arguments) }
            switch reply {
            case .error(let message) where message.hasPrefix("INTERLUDE CONFLICT"):
                let states = try readStates(names)
                _ = try batch.checked { id in states[id] ?? nil }
                for (id, version) in batch.expectedVersions.sorted(by: { $0.key < $1.key }) where !batch.events.contains(where: { $0.session == id }) {
                    if let stored = states[id] ?? nil, stored.version != version {
                        throw .versionGap(session: id, expected: stored.version &+ 1, found: version &+ 1)
                    }
                }
                continue
            case .error(let message) where message.hasPrefix("INTERLUDE DUPCMD"):
                let numbers = message.split(separator: " ").dropFirst(2).compactMap { Int($0) }
                guard numbers.count == 2, numbers[0] >= 1, numbers[0] <= names.count else { throw .redis("unreadable script answer: \(message)") }
                let session = names[numbers[0] - 1]
                let event = batch.events.filter { $0.session == session }[numbers[1] - 1].event
                throw .duplicateCommand(session: session, sender: event.sender, commandID: event.commandID ?? "")
            case .error(let message) where message.hasPrefix("NOSCRIPT"):
                // Redis restarted without its script cache: load it again and retry.
                _ = try call { (connection) throws(RedisError) in try connection.command("SCRIPT", "LOAD", Self.commitScript).checked("SCRIPT LOAD") }
                continue
            case .error(let message):
                throw .redis("the commit script failed: \(message)")
            default:
                return
            }
        }
        throw .redis("16 commits in a row met another process's commit to the same sessions")
    }

    /// Each named session's version and end, `nil` for one the store does not have.
    private func readStates(_ names: [String]) throws(SessionStoreError) -> [String: StoredSessionState?] {
        guard !names.isEmpty else { return [:] }
        let replies = try call { (connection) throws(RedisError) in
            try connection.pipeline(names.map { ["HMGET", key($0, "session"), "version", "endedAt"].map { Array($0.utf8) } })
        }
        var states: [String: StoredSessionState?] = [:]
        for (name, reply) in zip(names, replies) {
            let fields = reply.elements
            guard fields.count == 2, let version = fields[0].integer else {
                states[name] = .some(nil)
                continue
            }
            states[name] = StoredSessionState(version: UInt64(clamping: version), isEnded: fields[1] != .null)
        }
        return states
    }

    private func scriptArguments(_ batch: StoreBatch, names: [String]) -> [[UInt8]] {
        var keys: [String] = [sessionsKey, revokedKey]
        var arguments: [[UInt8]] = []
        func add(_ text: String) { arguments.append(Array(text.utf8)) }
        add(String(eventsKeptPerSession))
        add(String(names.count))
        let created = Dictionary(batch.newSessions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ends = Dictionary(batch.endedSessions.map { ($0.session, $0.endedAt) }, uniquingKeysWith: { first, _ in first })
        for name in names {
            keys += ["session", "log", "retained", "commands", "participants"].map { key(name, $0) }
            let record = created[name]
            let events = batch.events.filter { $0.session == name }.map(\.event)
            let participants = batch.participants.filter { $0.session == name }
            // A session with no events in the batch is only checked to exist.
            let expected = record?.version ?? events.first.map { $0.version &- 1 } ?? batch.expectedVersions[name]
            add(name)
            add(record == nil ? "0" : "1")
            add(record?.stream ?? "")
            add(record.map { String($0.createdAt) } ?? "")
            add(expected.map(String.init) ?? "")
            add(record?.endedAt.map(String.init) ?? "")
            add(ends[name].map(String.init) ?? "")
            add(String(events.count))
            add(String(participants.count))
            let change = SessionChange(session: name, after: expected ?? 0, events: events, participants: participants, created: record, endedAt: ends[name], origin: batch.origin)
            arguments.append(change.redisFields)
            add(channel(name))
            for event in events {
                add(String(event.version))
                add(event.retainKey.map { "k" + $0 } ?? "")
                add(event.commandID.map { "c" + Self.commandKey(sender: event.sender, id: $0) } ?? "")
                arguments.append(event.redisFields)
            }
            for participant in participants {
                add(participant.id)
                arguments.append(participant.redisFields)
            }
        }
        add(String(batch.revokedTokens.count))
        for revocation in batch.revokedTokens {
            add(revocation.tokenID)
            add(String(revocation.expiresAt))
        }
        add(batch.forgetsRevocationsExpiredBy.map(String.init) ?? "")
        return ["EVALSHA", scriptHash, String(keys.count)].map { Array($0.utf8) } + keys.map { Array($0.utf8) } + arguments
    }

    // MARK: - Reading

    public func loadAll(logLength: Int) throws(SessionStoreError) -> [StoredSession] {
        let ids = try call { (connection) throws(RedisError) in try connection.command("ZRANGE", sessionsKey, "0", "-1").checked("ZRANGE") }
            .elements.compactMap(\.text)
        var sessions: [StoredSession] = []
        for id in ids {
            if let session = try session(id, logLength: logLength), session.record.endedAt == nil { sessions.append(session) }
        }
        return sessions
    }

    public func session(_ id: String, logLength: Int) throws(SessionStoreError) -> StoredSession? {
        // One transaction, so that the record, the participants and the log are of one version:
        // a join committed between two reads would leave its participant out, and the next
        // joiner here would be given its id.
        let newest = String(max(1, min(logLength, 1_000_000)))
        let replies = try call { (connection) throws(RedisError) in
            try connection.transaction([
                ["HGETALL", key(id, "session")], ["HGETALL", key(id, "retained")], ["HGETALL", key(id, "participants")],
                ["XREVRANGE", key(id, "log"), "+", "-", "COUNT", newest], ["XRANGE", key(id, "log"), "-", "+", "COUNT", "1"],
            ].map { $0.map { Array($0.utf8) } })
        }
        guard let record = record(id, from: replies[0]) else { return nil }
        let snapshot = try retained(replies[1], session: id)
        let participants = try participants(replies[2], session: id)
        let length = UInt64(clamping: max(0, logLength))
        let logStart = record.version > length ? record.version - length : 0
        var log: [StoredEvent] = []
        if logLength > 0 {
            let newestLogged = try logged(replies[3], session: id).reversed().filter { $0.version > logStart }
            let firstLogged = try logged(replies[4], session: id).first?.version ?? UInt64.max
            log = snapshot.filter { $0.version > logStart && $0.version < firstLogged } + newestLogged
        }
        return StoredSession(record: record, snapshot: snapshot, log: log, participants: participants)
    }

    private static func pairs(_ reply: RedisReply) -> [String: [UInt8]] {
        let elements = reply.elements
        var pairs: [String: [UInt8]] = [:]
        var index = 0
        while index + 1 < elements.count {
            if let key = elements[index].text, let value = elements[index + 1].bytes { pairs[key] = value }
            index += 2
        }
        return pairs
    }

    /// The retained events of a `HGETALL` of the retained hash, in version order.
    private func retained(_ reply: RedisReply, session: String) throws(SessionStoreError) -> [StoredEvent] {
        var events: [StoredEvent] = []
        for (_, value) in Self.pairs(reply) {
            // VERSION:LENGTH:COMMANDKEY then the event's fields.
            var offset = 0
            var colons = 0
            var length = 0
            var digits: [UInt8] = []
            while offset < value.count, colons < 2 {
                if value[offset] == UInt8(ascii: ":") {
                    colons += 1
                    if colons == 2 { length = Int(String(decoding: digits, as: UTF8.self)) ?? -1 }
                    digits = []
                } else {
                    digits.append(value[offset])
                }
                offset += 1
            }
            guard colons == 2, length >= 0, offset + length <= value.count else {
                throw .corruptRow(path: endpoint.description, table: key(session, "retained"), detail: "an entry without its version and command")
            }
            var reader = RedisFields.Reader(Array(value[(offset + length)...]), what: "a retained event")
            do { events.append(try StoredEvent(redisFields: &reader)) } catch { throw corrupt(error, in: key(session, "retained")) }
        }
        return events.sorted { $0.version < $1.version }
    }

    public func events(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> [StoredEvent] {
        guard limit > 0, version < UInt64(Int64.max) else { return [] }
        let reply = try call { (connection) throws(RedisError) in try connection.command("HGETALL", key(session, "retained")).checked("HGETALL") }
        return try events(session: session, after: version, limit: limit, retained: try retained(reply, session: session))
    }

    /// The log's events after `version`, with the retained events older than the log's first.
    private func events(session: String, after version: UInt64, limit: Int, retained: [StoredEvent]) throws(SessionStoreError) -> [StoredEvent] {
        guard limit > 0, version < UInt64(Int64.max) else { return [] }
        let count = String(min(limit, 1_000_000))
        let reply = try call { (connection) throws(RedisError) in
            try connection.command("XRANGE", key(session, "log"), "0-\(version + 1)", "+", "COUNT", count).checked("XRANGE")
        }
        let logged = try logged(reply, session: session)
        // The retained events the log no longer holds come first.
        let firstLogged = try firstLoggedVersion(session: session) ?? UInt64.max
        let older = retained.filter { $0.version > version && $0.version < firstLogged }
        return Array((older + logged).prefix(limit))
    }

    private func firstLoggedVersion(session: String) throws(SessionStoreError) -> UInt64? {
        let reply = try call { (connection) throws(RedisError) in try connection.command("XRANGE", key(session, "log"), "-", "+", "COUNT", "1").checked("XRANGE") }
        guard let id = reply.elements.first?.elements.first?.text, let dash = id.firstIndex(of: "-") else { return nil }
        return UInt64(id[id.index(after: dash)...])
    }

    public func commandVersion(session: String, sender: String, commandID: String) throws(SessionStoreError) -> UInt64? {
        let reply = try call { (connection) throws(RedisError) in
            try connection.command(["HGET", key(session, "commands"), Self.commandKey(sender: sender, id: commandID)].map { Array($0.utf8) }).checked("HGET")
        }
        return reply.integer.map { UInt64(clamping: $0) }
    }

    public func isRevoked(tokenID: String) throws(SessionStoreError) -> Bool {
        let reply = try call { (connection) throws(RedisError) in try connection.command("HEXISTS", revokedKey, tokenID).checked("HEXISTS") }
        return reply.integer == 1
    }

    // MARK: - Sharing

    public func catchUp(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> SessionCatchUp? {
        guard version < UInt64(Int64.max) else { return nil }
        // One transaction: the record, the events and the participants of one version.
        let replies = try call { (connection) throws(RedisError) in
            try connection.transaction([
                ["HGETALL", key(session, "session")],
                ["XRANGE", key(session, "log"), "0-\(version + 1)", "+", "COUNT", String(max(1, min(limit, 1_000_000)))],
                ["HGETALL", key(session, "participants")],
            ].map { $0.map { Array($0.utf8) } })
        }
        guard let record = record(session, from: replies[0]) else { return nil }
        let events = try logged(replies[1], session: session)
        let participants = try participants(replies[2], session: session)
        let reachesBack = record.version <= version || events.first?.version == version + 1
        return SessionCatchUp(record: record, events: events, participants: participants, reachesBack: reachesBack)
    }

    /// The participants of a `HGETALL` of a session's participants hash, by joining time.
    private func participants(_ reply: RedisReply, session: String) throws(SessionStoreError) -> [ParticipantRecord] {
        var participants: [ParticipantRecord] = []
        for (_, bytes) in Self.pairs(reply) {
            var reader = RedisFields.Reader(bytes, what: "a participant")
            do { participants.append(try ParticipantRecord(redisFields: &reader)) } catch { throw corrupt(error, in: key(session, "participants")) }
        }
        return participants.sorted { ($0.joinedAt, $0.id) < ($1.joinedAt, $1.id) }
    }

    private func record(_ id: String, from reply: RedisReply) -> SessionRecord? {
        let fields = Self.pairs(reply)
        guard let stream = fields["stream"].map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        func number(_ name: String) -> Int64? { fields[name].flatMap { Int64(String(decoding: $0, as: UTF8.self)) } }
        return SessionRecord(id: id, stream: stream, createdAt: number("createdAt") ?? 0, endedAt: number("endedAt"), version: UInt64(clamping: number("version") ?? 0))
    }

    /// The events of an `XRANGE` of a session's log.
    private func logged(_ reply: RedisReply, session: String) throws(SessionStoreError) -> [StoredEvent] {
        var logged: [StoredEvent] = []
        for entry in reply.elements {
            let parts = entry.elements
            guard parts.count == 2 else { continue }
            let fields = parts[1].elements
            var index = 0
            while index + 1 < fields.count {
                if fields[index].text == "f", let bytes = fields[index + 1].bytes {
                    var reader = RedisFields.Reader(bytes, what: "a logged event")
                    do { logged.append(try StoredEvent(redisFields: &reader)) } catch { throw corrupt(error, in: key(session, "log")) }
                }
                index += 2
            }
        }
        return logged
    }

    public var notices: AsyncStream<SharedStoreNotice> { subscriber.notices }

    public func watch(_ sessions: Set<String>) {
        subscriber.subscribe(Dictionary(uniqueKeysWithValues: sessions.map { (channel($0), $0) }))
    }

    public func beat(node: String, lifetime: Duration) throws(SessionStoreError) {
        let milliseconds = String(max(1, Int64(lifetime / .milliseconds(1))))
        _ = try call { (connection) throws(RedisError) in try connection.command("SET", nodeKey(node), "1", "PX", milliseconds).checked("SET") }
    }

    public func keepBeating(node: String, period: Duration, lifetime: Duration) {
        let endpoint = endpoint
        let key = nodeKey(node)
        let milliseconds = String(max(1, Int64(lifetime / .milliseconds(1))))
        let stop = heartbeatStop
        let thread = Thread {
            var connection: RedisConnection?
            while !stop.isSet {
                do {
                    if connection == nil { connection = try RedisConnection(endpoint: endpoint, timeout: .seconds(1)) }
                    _ = try connection?.command("SET", key, "1", "PX", milliseconds)
                } catch {
                    connection = nil
                }
                let (seconds, attoseconds) = period.components
                usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
        }
        thread.name = "interlude-redis-heartbeat"
        thread.start()
    }

    public func liveNodes(among nodes: Set<String>) throws(SessionStoreError) -> Set<String> {
        guard !nodes.isEmpty else { return [] }
        let ordered = nodes.sorted()
        let replies = try call { (connection) throws(RedisError) in
            try connection.pipeline(ordered.map { ["EXISTS", nodeKey($0)].map { Array($0.utf8) } })
        }
        return Set(zip(ordered, replies).filter { $0.1.integer == 1 }.map(\.0))
    }

    public func close() {
        subscriber.close()
        heartbeatStop.set()
    }
}

/// A flag one thread sets and another reads.
final class StopFlag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
