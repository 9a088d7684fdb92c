/// How frames of bytes travel between the members of a group session: best effort, in any order,
/// possibly lost (a ``GroupMessenger`` makes messages reliable and ordered on top). The WebSocket
/// implementation comes with the group-session server; in one process, ``InMemoryGroupNetwork``
/// gives each member an ``InMemoryGroupTransport`` with latency, jitter, loss, reordering and
/// partitions on an injected clock (the shell tests), and `interlude simulate` drives the
/// ``SimulatedNetwork`` directly on virtual time.
public protocol GroupTransport: Sendable {
    /// This end's identity in the session.
    var localPeer: PeerID { get }

    /// Frames from other members, in arrival order; finishes when the transport closes.
    var incomingFrames: AsyncStream<GroupTransportFrame> { get }

    /// Hands `bytes` to the network for `peer`. Returning does not mean it arrived.
    ///
    /// - Throws: when the transport is closed or `peer` is unknown to it.
    func send(_ bytes: [UInt8], to peer: PeerID) async throws
}

/// A frame of bytes from another member of the session.
public struct GroupTransportFrame: Sendable, Hashable {
    /// Who sent it.
    public var sender: PeerID
    /// The frame, as the sender's messenger made it.
    public var bytes: [UInt8]

    /// A frame `bytes` from `sender`.
    public init(sender: PeerID, bytes: [UInt8]) {
        self.sender = sender
        self.bytes = bytes
    }
}
