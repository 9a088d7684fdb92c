/// A session store that several server processes share (``RedisSessionStore``): besides the
/// state of record it tells each process what the others changed (doorbells in version order),
/// loads one session on demand, and keeps the processes' heartbeats.
///
/// Like every store, used from one server thread at a time; ``notices`` is read by another task.
public protocol SharedSessionStore: SessionStore {
    /// What the other processes changed, subscriptions confirmed, and reconnections (after which
    /// anything may have been missed and each session must catch up from the log).
    var notices: AsyncStream<SharedStoreNotice> { get }

    /// One session, ended or not, with its snapshot, its newest `logLength` events and its
    /// participants; `nil` when the store has never had it.
    func session(_ id: String, logLength: Int) throws(SessionStoreError) -> StoredSession?

    /// What a session holds after `version`, read in one round trip: its record, its events
    /// after `version` (up to `limit`) and its participants; `nil` when the store has never had
    /// the session. ``SessionCatchUp/reachesBack`` says whether the log still holds the event
    /// after `version` (when not, the caller needs ``session(_:logLength:)``).
    func catchUp(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> SessionCatchUp?

    /// The sessions whose changes ``notices`` should carry (all others are unsubscribed).
    func watch(_ sessions: Set<String>)

    /// Says that `node` is alive for `lifetime` more.
    func beat(node: String, lifetime: Duration) throws(SessionStoreError)

    /// Says that `node` is alive every `period`, for `lifetime` each time, on a thread and a
    /// connection of its own until ``close()``: a process whose turns fall behind under load is
    /// still alive, and its participants are not taken for lost.
    func keepBeating(node: String, period: Duration, lifetime: Duration)

    /// Which of `nodes` have a heartbeat that has not run out.
    func liveNodes(among nodes: Set<String>) throws(SessionStoreError) -> Set<String>

    /// Stops the notices (and the connection that carries them).
    func close()
}

/// A session's changes after a version (``SharedSessionStore/catchUp(session:after:limit:)``).
public struct SessionCatchUp: Sendable, Hashable {
    /// The session's record (its version is the store's).
    public var record: SessionRecord
    /// The events after the version asked for, oldest first.
    public var events: [StoredEvent]
    /// Every participant of the session.
    public var participants: [ParticipantRecord]
    /// Whether the events start right after the version asked for (or there are none to miss).
    public var reachesBack: Bool

    /// A catch-up.
    public init(record: SessionRecord, events: [StoredEvent], participants: [ParticipantRecord], reachesBack: Bool) {
        self.record = record
        self.events = events
        self.participants = participants
        self.reachesBack = reachesBack
    }
}

/// What a ``SharedSessionStore`` tells a server process.
public enum SharedStoreNotice: Sendable, Hashable {
    /// A committed change of one session (by any process, this one included).
    case changed(SessionChange)
    /// The subscription to a session's changes is in place: what was committed before it must
    /// be read from the log.
    case watching(String)
    /// The connection that carries the notices was lost and made again, and every watched
    /// session is subscribed again: changes in between were missed.
    case reconnected
    /// A doorbell that could not be read (it is ignored; the next change shows the gap).
    case unreadable(String)
}

/// One commit's change of one session, as its doorbell carries it.
public struct SessionChange: Sendable, Hashable {
    /// The session.
    public var session: String
    /// The version before the change (its first event is `after + 1`).
    public var after: UInt64
    /// The events, in order.
    public var events: [StoredEvent]
    /// Participants added or changed.
    public var participants: [ParticipantRecord]
    /// The session as created by this change, if it was.
    public var created: SessionRecord?
    /// When the change ended the session (Unix seconds).
    public var endedAt: Int64?
    /// The process that committed it (``StoreBatch/origin``).
    public var origin: String?

    /// A change.
    public init(
        session: String, after: UInt64, events: [StoredEvent], participants: [ParticipantRecord], created: SessionRecord?, endedAt: Int64?,
        origin: String? = nil
    ) {
        self.origin = origin
        self.session = session
        self.after = after
        self.events = events
        self.participants = participants
        self.created = created
        self.endedAt = endedAt
    }

    /// The version after the change.
    public var version: UInt64 { events.last?.version ?? after }
}

extension SessionChange {
    var redisFields: [UInt8] {
        var fields = RedisFields()
        fields.append("1")
        fields.append(session)
        fields.append(after)
        fields.append(events.count)
        for event in events { fields.append(bytes: event.redisFields) }
        fields.append(participants.count)
        for participant in participants { fields.append(bytes: participant.redisFields) }
        fields.append(created?.stream)
        fields.append(created.map { String($0.createdAt) })
        fields.append(endedAt.map(String.init))
        fields.append(origin)
        return fields.bytes
    }

    /// Reads a doorbell as the commit script publishes it: the session's version after the
    /// change, a colon, then the change's fields.
    init(doorbell: [UInt8]) throws(RedisFieldsError) {
        guard let colon = doorbell.firstIndex(of: UInt8(ascii: ":")), let version = UInt64(String(decoding: doorbell[..<colon], as: UTF8.self)) else {
            throw RedisFieldsError(what: "a session doorbell", offset: 0, problem: "no version before the change")
        }
        try self.init(redisFields: Array(doorbell[(colon + 1)...]))
        if events.isEmpty { after = version }
    }

    init(redisFields bytes: [UInt8]) throws(RedisFieldsError) {
        var reader = RedisFields.Reader(bytes, what: "a session doorbell")
        guard try reader.text() == "1" else { throw RedisFieldsError(what: "a session doorbell", offset: 0, problem: "an unknown format") }
        let session = try reader.text()
        let after: UInt64 = try reader.integer()
        let eventCount: Int = try reader.integer()
        var events: [StoredEvent] = []
        for _ in 0..<min(eventCount, 100_000) {
            var inner = RedisFields.Reader(try reader.optionalBytes() ?? [], what: "an event of session \(session)'s doorbell")
            events.append(try StoredEvent(redisFields: &inner))
        }
        let participantCount: Int = try reader.integer()
        var participants: [ParticipantRecord] = []
        for _ in 0..<min(participantCount, 100_000) {
            var inner = RedisFields.Reader(try reader.optionalBytes() ?? [], what: "a participant of session \(session)'s doorbell")
            participants.append(try ParticipantRecord(redisFields: &inner))
        }
        let stream = try reader.optionalText()
        let createdAt = try reader.optionalText().flatMap { Int64($0) }
        let endedAt = try reader.optionalText().flatMap { Int64($0) }
        let origin = try reader.optionalText()
        let created = stream.map { SessionRecord(id: session, stream: $0, createdAt: createdAt ?? 0, version: after) }
        self.init(session: session, after: after, events: events, participants: participants, created: created, endedAt: endedAt, origin: origin)
    }
}
