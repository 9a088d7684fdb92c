/// A group session as the store keeps it.
public struct SessionRecord: Sendable, Hashable {
    public var id: String
    /// The stream the group watches (opaque to the store).
    public var stream: String
    /// Unix time, milliseconds: the server's wall clock, which the session's group clock counts
    /// from.
    public var createdAt: Int64
    /// Unix time, milliseconds; `nil` while the session runs.
    public var endedAt: Int64?
    /// The version of the last sequenced event; 0 before the first.
    public var version: UInt64

    public init(id: String, stream: String, createdAt: Int64, endedAt: Int64? = nil, version: UInt64 = 0) {
        self.id = id
        self.stream = stream
        self.createdAt = createdAt
        self.endedAt = endedAt
        self.version = version
    }
}
