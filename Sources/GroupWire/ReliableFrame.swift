/// What a ``ReliableChannel`` puts on the wire: at most one numbered payload, and always the
/// acknowledgement of what this side has received (piggybacked, as in TCP).
public struct ReliableFrame<Payload> {
    /// A numbered payload.
    public struct Segment {
        /// The payload's place in the sender's stream, from 0.
        public var sequenceNumber: UInt64
        /// What the application sent.
        public var payload: Payload

        /// Payload `payload` numbered `sequenceNumber`.
        public init(sequenceNumber: UInt64, payload: Payload) {
            self.sequenceNumber = sequenceNumber
            self.payload = payload
        }
    }

    /// The payload this frame carries; `nil` for a pure acknowledgement.
    public var segment: Segment?
    /// What the sender of this frame has received so far.
    public var acknowledgement: ReliableAcknowledgement

    /// A frame carrying `segment` (or none) and `acknowledgement`.
    public init(segment: Segment?, acknowledgement: ReliableAcknowledgement) {
        self.segment = segment
        self.acknowledgement = acknowledgement
    }

    /// Whether this frame only acknowledges.
    public var isPureAcknowledgement: Bool { segment == nil }
}

extension ReliableFrame.Segment: Sendable where Payload: Sendable {}
extension ReliableFrame.Segment: Equatable where Payload: Equatable {}
extension ReliableFrame.Segment: Hashable where Payload: Hashable {}
extension ReliableFrame: Sendable where Payload: Sendable {}
extension ReliableFrame: Equatable where Payload: Equatable {}
extension ReliableFrame: Hashable where Payload: Hashable {}

/// A receiver's account of what arrived: everything below ``cumulative``, and the blocks in
/// ``selective`` above it (TCP SACK, RFC 2018), so that the sender resends only the holes.
public struct ReliableAcknowledgement: Sendable, Hashable, Codable {
    /// The next sequence number expected: every one below it has arrived.
    public var cumulative: UInt64
    /// Blocks received above ``cumulative``: ascending, disjoint, not adjacent, lowest first.
    public var selective: [Range<UInt64>]

    /// An acknowledgement of everything below `cumulative` and of the blocks in `selective`.
    public init(cumulative: UInt64, selective: [Range<UInt64>] = []) {
        self.cumulative = cumulative
        self.selective = selective
    }
}
