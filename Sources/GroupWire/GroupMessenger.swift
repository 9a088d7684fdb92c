/// Typed messages between the members of a group session (pure state machine): reliable and in
/// order per sender over a ``ReliableChannel`` for each peer, or unreliable for what must not be
/// retried (``ClockProbe``). Its frames travel over any best-effort path: a ``GroupTransport`` or
/// the ``SimulatedNetwork``.
///
///     var messenger = GroupMessenger(localPeer: 1, registry: registry)
///     transmit(try messenger.send(command, to: server, at: now))
///     let output = messenger.receive(frame.bytes, from: frame.sender, at: now)
///     handle(output.messages); transmit(output.frames)
///     wake at messenger.nextDeadline, then transmit(messenger.tick(at: now))
///
/// A frame is one kind byte (0: a reliable-channel frame whose payload is a message envelope;
/// 1: an unreliable envelope) and the rest (see ``ReliableFrame/encoded()`` and
/// ``GroupMessageRegistry``).
public struct GroupMessenger: Sendable {
    /// Bytes to put on the wire to a peer.
    public struct Outgoing: Sendable, Hashable {
        /// The peer to send to.
        public var destination: PeerID
        /// The frame.
        public var bytes: [UInt8]

        /// A frame `bytes` for `destination`.
        public init(destination: PeerID, bytes: [UInt8]) {
            self.destination = destination
            self.bytes = bytes
        }
    }

    /// A message that arrived.
    public struct Received: Sendable {
        /// Who sent it.
        public var sender: PeerID
        /// The message; cast it to the registered type (`as? ClockProbe`).
        public var message: any GroupMessage
        /// Whether it came over the reliable, ordered channel.
        public var isReliable: Bool
    }

    /// What an input asks of the caller.
    public struct Output: Sendable {
        /// Frames to transmit.
        public var frames: [Outgoing] = []
        /// Messages that arrived, in order per sender.
        public var messages: [Received] = []
        /// Frames or messages that could not be understood, with their sender; reliable ones are
        /// acknowledged all the same (they arrived; this build cannot read them).
        public var errors: [(sender: PeerID, error: GroupMessengerError)] = []

        /// Nothing to do.
        public init() {}
    }

    private enum FrameKind: UInt8 {
        case reliable = 0
        case unreliable = 1
    }

    /// This member.
    public let localPeer: PeerID
    /// The message types understood.
    public let registry: GroupMessageRegistry
    /// The configuration of each peer's channel.
    public let channelConfiguration: ReliableChannel<[UInt8]>.Configuration

    // Channels in the order their peers first appeared, so that iteration is deterministic.
    private var peers: [PeerID] = []
    private var channels: [ReliableChannel<[UInt8]>] = []
    private var indexByPeer: [PeerID: Int] = [:]

    /// A messenger for `localPeer` understanding the types in `registry`.
    public init(
        localPeer: PeerID,
        registry: GroupMessageRegistry = .standard,
        channelConfiguration: ReliableChannel<[UInt8]>.Configuration = .init()
    ) {
        self.localPeer = localPeer
        self.registry = registry
        self.channelConfiguration = channelConfiguration
    }

    /// The peers this messenger has exchanged reliable messages with, in order of first contact.
    public var knownPeers: [PeerID] { peers }

    /// The earliest time ``tick(at:)`` is needed, over every peer's channel.
    /// Complexity: O(peers × frames in flight).
    public var nextDeadline: Duration? {
        var earliest: Duration?
        for channel in channels {
            if let deadline = channel.nextDeadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// The channel counters for `peer`, if any message went either way.
    public func statistics(for peer: PeerID) -> ReliableChannel<[UInt8]>.Statistics? {
        indexByPeer[peer].map { channels[$0].statistics }
    }

    /// The channel to `peer`, for its round trip and backlog.
    public func channel(to peer: PeerID) -> ReliableChannel<[UInt8]>? {
        indexByPeer[peer].map { channels[$0] }
    }

    /// Sends `message` to `peer`, reliably and after everything sent to it before.
    ///
    /// - Throws: nothing today (every wire form encodes); the signature keeps callers ready for an
    ///   encoding that can fail.
    public mutating func send(_ message: some GroupMessage, to peer: PeerID, at now: Duration) throws(GroupMessengerError) -> [Outgoing] {
        let envelope = registry.encode(message)
        return sendEnvelope(envelope, to: peer, at: now)
    }

    /// Sends `message` reliably to each of `peers`, encoding it once.
    ///
    /// - Throws: nothing today (every wire form encodes); the signature keeps callers ready for an
    ///   encoding that can fail.
    public mutating func send(_ message: some GroupMessage, to peers: [PeerID], at now: Duration) throws(GroupMessengerError) -> [Outgoing] {
        let envelope = registry.encode(message)
        var frames: [Outgoing] = []
        for peer in peers { frames += sendEnvelope(envelope, to: peer, at: now) }
        return frames
    }

    /// Sends `message` to `peer` once, unordered and possibly lost.
    ///
    /// - Throws: nothing today (every wire form encodes); the signature keeps callers ready for an
    ///   encoding that can fail.
    public func sendUnreliably(_ message: some GroupMessage, to peer: PeerID) throws(GroupMessengerError) -> Outgoing {
        var bytes: [UInt8] = [FrameKind.unreliable.rawValue]
        bytes += registry.encode(message)
        return Outgoing(destination: peer, bytes: bytes)
    }

    /// Takes a frame from `peer` that arrived at `now`.
    public mutating func receive(_ bytes: [UInt8], from peer: PeerID, at now: Duration) -> Output {
        var output = Output()
        guard let first = bytes.first else {
            output.errors.append((peer, .malformedFrame(.truncated)))
            return output
        }
        switch FrameKind(rawValue: first) {
        case .unreliable:
            do {
                let message = try registry.decode(Array(bytes.dropFirst()))
                output.messages.append(Received(sender: peer, message: message, isReliable: false))
            } catch {
                output.errors.append((peer, error))
            }
        case .reliable:
            let frame: ReliableFrame<[UInt8]>
            do { frame = try ReliableFrame(decoding: Array(bytes.dropFirst())) } catch {
                output.errors.append((peer, .malformedFrame(error)))
                return output
            }
            let index = channelIndex(for: peer)
            let channelOutput = channels[index].receive(frame, at: now)
            append(channelOutput.frames, to: peer, into: &output.frames)
            for envelope in channelOutput.delivered {
                do {
                    output.messages.append(Received(sender: peer, message: try registry.decode(envelope), isReliable: true))
                } catch {
                    output.errors.append((peer, error))
                }
            }
        case nil:
            output.errors.append((peer, .unknownFrameKind(first)))
        }
        return output
    }

    /// Does what is due at `now` on every channel: retransmissions and delayed acknowledgements.
    public mutating func tick(at now: Duration) -> [Outgoing] {
        var frames: [Outgoing] = []
        for index in channels.indices {
            guard let deadline = channels[index].nextDeadline, deadline <= now else { continue }
            append(channels[index].tick(at: now).frames, to: peers[index], into: &frames)
        }
        return frames
    }

    private mutating func sendEnvelope(_ envelope: [UInt8], to peer: PeerID, at now: Duration) -> [Outgoing] {
        let index = channelIndex(for: peer)
        var frames: [Outgoing] = []
        append(channels[index].send(envelope, at: now).frames, to: peer, into: &frames)
        return frames
    }

    private mutating func channelIndex(for peer: PeerID) -> Int {
        if let index = indexByPeer[peer] { return index }
        peers.append(peer)
        channels.append(ReliableChannel(configuration: channelConfiguration))
        indexByPeer[peer] = channels.count - 1
        return channels.count - 1
    }

    private func append(_ frames: [ReliableFrame<[UInt8]>], to peer: PeerID, into outgoing: inout [Outgoing]) {
        for frame in frames {
            var bytes: [UInt8] = [FrameKind.reliable.rawValue]
            bytes += frame.encoded()
            outgoing.append(Outgoing(destination: peer, bytes: bytes))
        }
    }
}
