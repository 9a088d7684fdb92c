import Synchronization

/// A session store in memory, with the semantics of `SQLiteSessionStore` (the conformance tests
/// hold both to them) and no durability: for tests, and for a server that need not survive a
/// restart.
public final class MemorySessionStore: SessionStore {
    private let state = Mutex(State())
    private let eventsKeptPerSession: Int

    private struct State {
        var sessions: [String: Session] = [:]
        /// Token id → expiry, unix seconds.
        var revocations: [String: Int64] = [:]
    }

    private struct Session {
        var record: SessionRecord
        /// Ordered by version; the newest `eventsKeptPerSession` and the retained ones.
        var events: [StoredEvent] = []
        /// Retain key → version of the newest event with it.
        var retained: [String: UInt64] = [:]
        /// The command ids of `events`, with their versions.
        var commands: [CommandKey: UInt64] = [:]
        var participants: [String: ParticipantRecord] = [:]

        /// Drops the events below `version` that the snapshot does not hold.
        mutating func trim(before version: UInt64) {
            let kept = Set(retained.values)
            let dropped = events.prefix { $0.version < version }.filter { !kept.contains($0.version) }
            guard !dropped.isEmpty else { return }
            for event in dropped {
                if let commandID = event.commandID {
                    commands[CommandKey(session: record.id, sender: event.sender, commandID: commandID)] = nil
                }
            }
            let droppedVersions = Set(dropped.map(\.version))
            events.removeAll { droppedVersions.contains($0.version) }
        }
    }

    /// `eventsKeptPerSession` is at least 1.
    public init(eventsKeptPerSession: Int = defaultEventsKeptPerSession) {
        self.eventsKeptPerSession = max(1, eventsKeptPerSession)
    }

    public func commit(_ batch: StoreBatch) throws(SessionStoreError) {
        try state.withLock { (state) throws(SessionStoreError) in
            var next = state
            try Self.apply(batch, to: &next, keeping: eventsKeptPerSession)
            state = next
        }
    }

    private static func apply(_ batch: StoreBatch, to state: inout State, keeping kept: Int) throws(SessionStoreError) {
        let sessions = state.sessions
        let versions = try batch.checked { id in
            sessions[id].map { StoredSessionState(version: $0.record.version, isEnded: $0.record.endedAt != nil) }
        }
        for record in batch.newSessions { state.sessions[record.id] = Session(record: record) }
        // `checked` found every session the batch names, so the force unwraps below hold.
        for entry in batch.events {
            let event = entry.event
            if let commandID = event.commandID {
                let key = CommandKey(session: entry.session, sender: event.sender, commandID: commandID)
                guard state.sessions[entry.session]!.commands.updateValue(event.version, forKey: key) == nil else {
                    throw .duplicateCommand(session: entry.session, sender: event.sender, commandID: commandID)
                }
            }
            state.sessions[entry.session]!.events.append(event)
            if let key = event.retainKey { state.sessions[entry.session]!.retained[key] = event.version }
        }
        for (id, version) in versions {
            state.sessions[id]!.record.version = version
            if version > UInt64(kept) { state.sessions[id]!.trim(before: version - UInt64(kept) + 1) }
        }
        for participant in batch.participants {
            state.sessions[participant.session]!.participants[participant.id] = participant
        }
        for end in batch.endedSessions where state.sessions[end.session]!.record.endedAt == nil {
            state.sessions[end.session]!.record.endedAt = end.endedAt
        }
        for revocation in batch.revokedTokens {
            state.revocations[revocation.tokenID] = max(state.revocations[revocation.tokenID] ?? .min, revocation.expiresAt)
        }
        if let now = batch.forgetsRevocationsExpiredBy {
            state.revocations = state.revocations.filter { $0.value > now }
        }
    }

    public func loadAll(logLength: Int) -> [StoredSession] {
        state.withLock { state in
            state.sessions.values
                .filter { $0.record.endedAt == nil }
                .sorted { ($0.record.createdAt, $0.record.id) < ($1.record.createdAt, $1.record.id) }
                .map { session in
                    let retained = Set(session.retained.values)
                    let length = UInt64(clamping: logLength)
                    let logStart = session.record.version > length ? session.record.version - length : 0
                    return StoredSession(
                        record: session.record,
                        snapshot: session.events.filter { retained.contains($0.version) },
                        log: session.events.filter { $0.version > logStart },
                        participants: session.participants.values.sorted { ($0.joinedAt, $0.id) < ($1.joinedAt, $1.id) }
                    )
                }
        }
    }

    public func events(session: String, after version: UInt64, limit: Int) -> [StoredEvent] {
        state.withLock { state in
            guard let events = state.sessions[session]?.events else { return [] }
            return Array(events.lazy.filter { $0.version > version }.prefix(max(0, limit)))
        }
    }

    public func commandVersion(session: String, sender: String, commandID: String) -> UInt64? {
        state.withLock { state in
            state.sessions[session]?.commands[CommandKey(session: session, sender: sender, commandID: commandID)]
        }
    }

    public func isRevoked(tokenID: String) -> Bool {
        state.withLock { $0.revocations[tokenID] != nil }
    }
}
