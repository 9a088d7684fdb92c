/// What a store holds of a session before a batch is applied.
struct StoredSessionState: Sendable, Hashable {
    var version: UInt64
    var isEnded: Bool
}

extension StoreBatch {
    /// The checks both stores share, so that they refuse the same batches with the same errors:
    /// sessions exist (in the store or earlier in the batch) and are created once, events continue
    /// their session's version without a gap and go to sessions that had not ended, and no
    /// command id repeats within the batch. A command id the store already holds is the store's
    /// to find.
    ///
    /// `stored` is asked once per session the batch names and does not create. Returns each
    /// session's version after the batch, for the sessions that get events.
    func checked(
        against stored: (String) throws(SessionStoreError) -> StoredSessionState?
    ) throws(SessionStoreError) -> [String: UInt64] {
        var known: [String: StoredSessionState?] = [:]
        for record in newSessions {
            guard known[record.id] == nil, try stored(record.id) == nil else { throw .duplicateSession(record.id) }
            guard record.version <= UInt64(Int64.max) else {
                throw .versionOutOfRange(session: record.id, version: record.version)
            }
            known[record.id] = StoredSessionState(version: record.version, isEnded: record.endedAt != nil)
        }
        func state(of session: String) throws(SessionStoreError) -> StoredSessionState {
            if let entry = known[session] {
                guard let entry else { throw .unknownSession(session) }
                return entry
            }
            let found = try stored(session)
            known[session] = .some(found)
            guard let found else { throw .unknownSession(session) }
            return found
        }

        var versions: [String: UInt64] = [:]
        var commands: Set<CommandKey> = []
        for entry in events {
            let session = entry.session
            let current: UInt64
            if let version = versions[session] {
                current = version
            } else {
                let before = try state(of: session)
                guard !before.isEnded else { throw .sessionEnded(session) }
                current = before.version
            }
            let expected = current &+ 1
            guard entry.event.version == expected else {
                throw .versionGap(session: session, expected: expected, found: entry.event.version)
            }
            guard expected <= UInt64(Int64.max) else { throw .versionOutOfRange(session: session, version: expected) }
            versions[session] = expected
            if let commandID = entry.event.commandID {
                let key = CommandKey(session: session, sender: entry.event.sender, commandID: commandID)
                guard commands.insert(key).inserted else {
                    throw .duplicateCommand(session: session, sender: key.sender, commandID: commandID)
                }
            }
        }
        for participant in participants { _ = try state(of: participant.session) }
        for end in endedSessions { _ = try state(of: end.session) }
        return versions
    }
}

/// A command id in the scope where it must be unique.
struct CommandKey: Sendable, Hashable {
    var session: String
    var sender: String
    var commandID: String
}
