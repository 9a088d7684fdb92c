/// One NTP-style exchange between a participant (the client) and the keeper of the group clock
/// (the server): four time stamps, two on each clock (RFC 5905 §8, "on-wire protocol").
///
/// `clientSendTime` (t0) and `clientReceiveTime` (t3) are read on the participant's local clock;
/// `serverReceiveTime` (t1) and `serverSendTime` (t2) on the group clock.
public struct ClockExchange: Sendable, Hashable {
    /// t0: the local time the probe left.
    public var clientSendTime: Duration
    /// t1: the group time the probe arrived.
    public var serverReceiveTime: Duration
    /// t2: the group time the reply left.
    public var serverSendTime: Duration
    /// t3: the local time the reply arrived.
    public var clientReceiveTime: Duration

    /// An exchange from its four time stamps.
    public init(clientSendTime: Duration, serverReceiveTime: Duration, serverSendTime: Duration, clientReceiveTime: Duration) {
        self.clientSendTime = clientSendTime
        self.serverReceiveTime = serverReceiveTime
        self.serverSendTime = serverSendTime
        self.clientReceiveTime = clientReceiveTime
    }

    /// The time on the wire, both ways: `(t3 − t0) − (t2 − t1)`.
    public var roundTripTime: Duration { (clientReceiveTime - clientSendTime) - (serverSendTime - serverReceiveTime) }

    /// Group time minus local time, assuming the two directions took equally long:
    /// `((t1 − t0) + (t2 − t3)) / 2`. Wrong by at most half the round trip (Cristian's bound).
    public var offset: Duration { ((serverReceiveTime - clientSendTime) + (serverSendTime - clientReceiveTime)).scaled(1, 2) }

    /// The local time half-way through the exchange, where ``offset`` applies.
    public var localMidpoint: Duration { clientSendTime + (clientReceiveTime - clientSendTime).scaled(1, 2) }
}

/// A participant's question to the group clock: "what time is it?". Sent unreliably (a lost probe
/// is simply not answered; a retransmitted one would measure the retransmission).
public struct ClockProbe: GroupMessage, Hashable {
    /// The type name on the wire.
    public static let messageType = "clock.probe"
    /// Chosen by the estimator, so that a reply can be matched to its probe.
    public var id: UInt64
    /// t0 on the participant's local clock.
    public var clientSendTime: Duration

    /// A probe `id` sent at local time `clientSendTime`.
    public init(id: UInt64, clientSendTime: Duration) {
        self.id = id
        self.clientSendTime = clientSendTime
    }
}

/// The group clock's answer to a ``ClockProbe``.
public struct ClockProbeReply: GroupMessage, Hashable {
    /// The type name on the wire.
    public static let messageType = "clock.probe-reply"
    /// The probe's id.
    public var id: UInt64
    /// t0, echoed from the probe.
    public var clientSendTime: Duration
    /// t1 on the group clock.
    public var serverReceiveTime: Duration
    /// t2 on the group clock.
    public var serverSendTime: Duration

    /// The reply to `probe`, which arrived at group time `receivedAt` and is answered at `sentAt`.
    public init(answering probe: ClockProbe, receivedAt: Duration, sentAt: Duration) {
        id = probe.id
        clientSendTime = probe.clientSendTime
        serverReceiveTime = receivedAt
        serverSendTime = sentAt
    }

    /// The completed exchange, with the reply arriving at local time `clientReceiveTime`.
    public func exchange(receivedAt clientReceiveTime: Duration) -> ClockExchange {
        ClockExchange(
            clientSendTime: clientSendTime,
            serverReceiveTime: serverReceiveTime,
            serverSendTime: serverSendTime,
            clientReceiveTime: clientReceiveTime
        )
    }
}
