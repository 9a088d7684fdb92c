import GroupWire
/// One member's end of an ``InMemoryGroupNetwork``: frames sent through it suffer the network's
/// latency, jitter, loss, reordering and partitions; frames for it arrive in ``incomingFrames``.
public final class InMemoryGroupTransport: GroupTransport {
    /// This end's identity on the network.
    public let localPeer: PeerID
    /// Frames from other members, in arrival order; finishes when the transport is closed.
    public let incomingFrames: AsyncStream<GroupTransportFrame>
    private let network: InMemoryGroupNetwork
    private let generation: UInt64

    init(localPeer: PeerID, generation: UInt64, incomingFrames: AsyncStream<GroupTransportFrame>, network: InMemoryGroupNetwork) {
        self.localPeer = localPeer
        self.generation = generation
        self.incomingFrames = incomingFrames
        self.network = network
    }

    /// Hands `bytes` to the network for `peer`; returning does not mean it arrived.
    ///
    /// - Throws: ``InMemoryGroupTransportError/closed`` once this transport is closed (or replaced
    ///   by a new join as the same peer), ``InMemoryGroupTransportError/unknownPeer(_:)`` when `peer`
    ///   has not joined or has left.
    public func send(_ bytes: [UInt8], to peer: PeerID) async throws {
        try network.transmit(bytes, from: localPeer, generation: generation, to: peer)
    }

    /// Leaves the network: ``incomingFrames`` finishes, frames on their way here are lost, and
    /// sending throws.
    public func close() {
        network.leave(localPeer, generation: generation)
    }
}

/// Why an ``InMemoryGroupTransport`` refused a frame.
public enum InMemoryGroupTransportError: Error, Sendable, Hashable {
    /// The transport was closed.
    case closed
    /// No member with this identity is on the network.
    case unknownPeer(PeerID)
}
