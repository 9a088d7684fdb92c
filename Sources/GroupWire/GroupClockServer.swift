import Synchronization

/// Keeps the group clock for a session: answers every ``ClockProbe`` that arrives on its transport
/// with a ``ClockProbeReply`` stamped with the group time (RFC 5905 §8's server side). Replies go
/// unreliably, like the probes: a lost one is simply not counted by the participant's
/// ``GroupClockEstimator``.
///
///     let server = GroupClockServer(transport: network.join(as: 0), clock: clock)
///     Task { await server.run() }    // until cancelled, or the transport closes
///
/// The group clock is the server's `clock` from the moment the server was made, plus `offset`
/// (so that tests can put it hours away from every participant's host clock).
public final class GroupClockServer: Sendable {
    private let transport: any GroupTransport
    private let registry: GroupMessageRegistry
    private let clockNow: @Sendable () -> Duration
    private let offset: Duration
    private let answered = Mutex(0)

    /// A server answering on `transport` with the time of `clock` (plus `offset`).
    public init<C: Clock>(
        transport: some GroupTransport,
        clock: C,
        offset: Duration = .zero,
        registry: GroupMessageRegistry = .standard
    ) where C.Duration == Duration {
        let origin = clock.now
        self.transport = transport
        self.registry = registry
        self.offset = offset
        clockNow = { origin.duration(to: clock.now) }
    }

    /// The group time now.
    public var groupTime: Duration { clockNow() + offset }

    /// How many probes were answered.
    public var probesAnswered: Int { answered.withLock { $0 } }

    /// Answers probes until the task is cancelled or the transport's frames finish. Other
    /// messages are ignored.
    public func run() async {
        var messenger = GroupMessenger(localPeer: transport.localPeer, registry: registry)
        for await frame in transport.incomingFrames {
            let output = messenger.receive(frame.bytes, from: frame.sender, at: clockNow())
            for received in output.messages {
                guard let probe = received.message as? ClockProbe else { continue }
                let now = groupTime
                let reply = ClockProbeReply(answering: probe, receivedAt: now, sentAt: now)
                guard let outgoing = try? messenger.sendUnreliably(reply, to: frame.sender) else { continue }
                try? await transport.send(outgoing.bytes, to: outgoing.destination)
                answered.withLock { $0 += 1 }
            }
        }
    }
}
