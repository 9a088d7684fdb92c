import GroupCoordination
import GroupWire

/// What the server reads and writes: the session protocol's messages as JSON text, events as
/// the store keeps them (the event's own wire form), and the store's batches.
enum ServiceWire {
    /// A participant's message.
    static func decodeClient(_ text: String) throws(WireDecodingError) -> SessionClientMessage {
        try SessionClientMessage(jsonBytes: Array(text.utf8))
    }

    /// A message for a participant, as JSON text.
    static func encode(_ message: SessionServerMessage) -> String {
        String(decoding: message.jsonBytes, as: UTF8.self)
    }

    /// An event read back from the store (its payload is the event's wire form).
    static func decodeStored(_ event: StoredEvent) throws(WireDecodingError) -> SessionEvent {
        try SessionEvent(jsonBytes: Array(event.payload.utf8), limits: .stored)
    }

    /// What the core wrote, as one store batch (one transaction).
    static func batch(
        _ writes: GroupServiceCore.Writes, revocations: [(tokenID: String, expiresAt: Int64)], origin: String? = nil, at now: Duration
    ) -> StoreBatch {
        let milliseconds = Int64(now / .milliseconds(1))
        var batch = StoreBatch()
        batch.origin = origin
        batch.newSessions = writes.newSessions.map {
            SessionRecord(id: $0.id, stream: $0.stream, createdAt: Int64($0.epoch / .milliseconds(1)))
        }
        for (session, event, commandID) in writes.events {
            batch.append(
                StoredEvent(
                    version: event.version, sender: event.senderKey, kind: event.body.kind,
                    retainKey: event.body.retainKey(sender: event.senderKey), commandID: commandID,
                    payload: String(decoding: event.jsonBytes, as: UTF8.self), recordedAt: milliseconds),
                to: session)
        }
        batch.participants = writes.participants.map { session, participant in
            ParticipantRecord(
                id: participant.id, session: session, name: participant.name, role: participant.role.rawValue,
                secretHash: participant.secretHash, joinedAt: Int64(participant.joinedAt / .milliseconds(1)),
                lastSeenAt: Int64(participant.lastSeen / .milliseconds(1)), state: participant.state.rawValue, node: participant.node)
        }
        for session in writes.endedSessions { batch.end(session, at: milliseconds / 1000) }
        for (tokenID, expiresAt) in revocations { batch.revoke(tokenID, expiresAt: expiresAt) }
        if !revocations.isEmpty { batch.forgetsRevocationsExpiredBy = milliseconds / 1000 }
        return batch
    }

    /// A participant as the store keeps it, for the core.
    static func participant(_ record: ParticipantRecord) -> GroupServiceCore.Participant {
        var participant = GroupServiceCore.Participant(
            id: record.id, name: record.name, role: GroupRole(rawValue: record.role) ?? .viewer, secretHash: record.secretHash,
            state: GroupServiceCore.Participant.State(rawValue: record.state) ?? .lost, lastSeen: .milliseconds(record.lastSeenAt),
            joinedAt: .milliseconds(record.joinedAt))
        participant.node = record.node
        return participant
    }

    /// A stored session put into `core` (its events decoded; one that cannot be read is skipped,
    /// as the store wrote it and no participant could read it either).
    static func restore(_ stored: StoredSession, into core: inout GroupServiceCore, at now: Duration, replacing: Bool = false) -> [GroupServiceCore.Output] {
        let session = GroupServiceCore.Session(id: stored.record.id, stream: stored.record.stream, epoch: .milliseconds(stored.record.createdAt))
        var seen = Set<UInt64>()
        var events: [SessionEvent] = []
        for event in stored.snapshot + stored.log where seen.insert(event.version).inserted {
            guard let decoded = try? decodeStored(event) else { continue }
            events.append(decoded)
        }
        let participants = stored.participants.map(participant)
        let commands = (stored.snapshot + stored.log).compactMap { event in
            event.commandID.map { (sender: event.sender, id: $0, version: event.version) }
        }
        var outputs: [GroupServiceCore.Output] = []
        if replacing {
            outputs = core.replace(session, events: events, commands: commands, participants: participants, at: now)
        } else {
            core.restore(session, events: events, commands: commands, participants: participants, at: now)
        }
        if stored.record.endedAt != nil, var restored = core.sessions[session.id] {
            restored.isEnded = true
            core.sessions[session.id] = restored
        }
        return outputs
    }

    /// A committed change of a session, for the core.
    static func change(_ change: SessionChange) -> GroupServiceCore.Catch {
        GroupServiceCore.Catch(
            session: change.session, events: change.events.compactMap { try? decodeStored($0) },
            commands: change.events.compactMap { event in event.commandID.map { (sender: event.sender, id: $0, version: event.version) } },
            participants: change.participants.map(participant), isEnded: change.endedAt != nil)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: WireValue.string(text).jsonBytes, as: UTF8.self)
    }

    /// The string field `key` of a JSON object body, if it is one.
    static func stringField(_ key: String, inJSON body: [UInt8]) -> String? {
        guard let value = try? WireJSONParser(limits: .standard).parse(body), let fields = try? WireFields(value) else { return nil }
        return try? fields.string(key, maximumBytes: 4_096)
    }
}

extension WireJSONLimits {
    /// For events read back from the store, which the server itself wrote.
    static let stored = WireJSONLimits(maximumBytes: 1 << 20, maximumElements: 16_384)
}

/// The participants' resume secrets, as the server keeps them: SHA-256, hex.
enum ServiceSecrets {
    static func hash(_ secret: String) -> String {
        Hex.encode(LibCrypto.sha256(Array(secret.utf8)))
    }
}
