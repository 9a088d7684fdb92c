/// One sequenced event of a session. The store keeps its payload as opaque JSON text.
public struct StoredEvent: Sendable, Hashable {
    /// 1, 2, 3 … per session, without gaps.
    public var version: UInt64
    /// The participant id, or `""` for the server.
    public var sender: String
    /// For example `playbackState`, `participantState`, `adSchedule`, `custom`, `presence`.
    public var kind: String
    /// Events with the same key replace each other in the snapshot (`participantState/p2`);
    /// `nil` when the event is not part of the snapshot.
    public var retainKey: String?
    /// The client's command id, unique per session and sender, so that a retry is recognised.
    public var commandID: String?
    /// JSON text.
    public var payload: String
    /// Unix time, milliseconds.
    public var recordedAt: Int64

    public init(
        version: UInt64,
        sender: String,
        kind: String,
        retainKey: String? = nil,
        commandID: String? = nil,
        payload: String,
        recordedAt: Int64
    ) {
        self.version = version
        self.sender = sender
        self.kind = kind
        self.retainKey = retainKey
        self.commandID = commandID
        self.payload = payload
        self.recordedAt = recordedAt
    }
}
