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
    static func batch(_ writes: GroupServiceCore.Writes, revocations: [(tokenID: String, expiresAt: Int64)], at now: Duration) -> StoreBatch {
        let milliseconds = Int64(now / .milliseconds(1))
        var batch = StoreBatch()
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
                lastSeenAt: Int64(participant.lastSeen / .milliseconds(1)), state: participant.state.rawValue)
        }
        for session in writes.endedSessions { batch.end(session, at: milliseconds / 1000) }
        for (tokenID, expiresAt) in revocations { batch.revoke(tokenID, expiresAt: expiresAt) }
        if !revocations.isEmpty { batch.forgetsRevocationsExpiredBy = milliseconds / 1000 }
        return batch
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
