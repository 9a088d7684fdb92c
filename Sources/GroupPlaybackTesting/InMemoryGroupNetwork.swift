import GroupWire
import Synchronization

/// A group session's network in one process, on an injected clock: each member joins with a
/// ``PeerID`` and gets an ``InMemoryGroupTransport``; a frame sent from one to another arrives after
/// the link's latency and jitter, or is lost, held back (reordered) or cut off by a partition, as
/// the link's ``LinkConditions`` and the seed decide. Reliability and order are the
/// ``GroupMessenger``'s business above it, as on a real network.
///
///     let network = InMemoryGroupNetwork(clock: clock, seed: 7, defaultConditions: .wideAreaNetwork, executor: executor)
///     let alice = network.join(as: 1), bob = network.join(as: 2)
///     try await alice.send(bytes, to: 2)          // arrives in bob.incomingFrames 30–70 ms later
///     network.addPartition(Partition(isolating: [2], from: .seconds(10), until: .seconds(20)))
///
/// The fate of every frame is decided when it is sent, by ``SimulatedNetwork`` (every direction of
/// every pair has its own random stream, so one seed gives the same run every time); its delivery
/// is a task sleeping on the clock until the arrival time, preferring `executor` (a
/// ``ManualTaskExecutor`` on a ``ManualClock`` makes it all virtual and deterministic). A partition
/// added while a frame is in flight still cuts it off when it would arrive.
///
/// Times given to the network (partitions) are on its clock, from the moment it was made.
public final class InMemoryGroupNetwork: Sendable {
    /// What happened to the frames handed to the network.
    public struct Statistics: Sendable, Hashable {
        /// Frames handed to the network.
        public var framesSent = 0
        /// Frames that reached their destination's transport.
        public var framesDelivered = 0
        /// Frames lost at random.
        public var framesDropped = 0
        /// Frames a partition cut off, when sent or on arrival.
        public var framesPartitioned = 0
        /// Frames whose destination had left when they arrived.
        public var framesUndeliverable = 0
        /// Frames still on their way.
        public var framesInFlight = 0

        /// No frames yet.
        public init() {}
    }

    private struct Inbox {
        var generation: UInt64
        var continuation: AsyncStream<GroupTransportFrame>.Continuation
    }

    private struct State {
        var routes: SimulatedNetwork
        var inboxes: [PeerID: Inbox] = [:]
        var nextGeneration: UInt64 = 0
        var deliveries: [UInt64: Task<Void, Never>] = [:]
        var nextDelivery: UInt64 = 0
        var statistics = Statistics()
    }

    private let state: Mutex<State>
    private let executor: (any TaskExecutor)?
    private let elapsedNow: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A network on `clock` whose randomness is fixed by `seed`, every link behaving as
    /// `defaultConditions` unless told otherwise. Deliveries run as tasks preferring `executor`.
    public init<C: Clock>(
        clock: C,
        seed: UInt64 = 1,
        defaultConditions: LinkConditions = .perfect,
        executor: (any TaskExecutor)? = nil
    ) where C.Duration == Duration {
        let origin = clock.now
        elapsedNow = { origin.duration(to: clock.now) }
        sleepUntil = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
        self.executor = executor
        state = Mutex(State(routes: SimulatedNetwork(seed: seed, defaultConditions: defaultConditions)))
    }

    deinit {
        state.withLock { state in
            for task in state.deliveries.values { task.cancel() }
            for inbox in state.inboxes.values { inbox.continuation.finish() }
        }
    }

    /// The time on the network's clock since it was made (the time partitions are given in).
    public var elapsed: Duration { elapsedNow() }

    /// The peers joined now, in order.
    public var peers: [PeerID] { state.withLock { $0.inboxes.keys.sorted() } }

    /// Counters since the network was made.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Joins the network as `peer` (again, after leaving: a fresh transport; a transport still open
    /// for `peer` is closed first).
    public func join(as peer: PeerID) -> InMemoryGroupTransport {
        let (stream, continuation) = AsyncStream<GroupTransportFrame>.makeStream(bufferingPolicy: .unbounded)
        let (generation, previous) = state.withLock { state in
            state.nextGeneration += 1
            defer { state.inboxes[peer] = Inbox(generation: state.nextGeneration, continuation: continuation) }
            return (state.nextGeneration, state.inboxes[peer])
        }
        previous?.continuation.finish()
        return InMemoryGroupTransport(localPeer: peer, generation: generation, incomingFrames: stream, network: self)
    }

    /// Makes frames from `from` to `to` behave as `conditions` (frames already sent keep their fate).
    public func setConditions(_ conditions: LinkConditions, from: PeerID, to: PeerID) {
        state.withLock { $0.routes.setConditions(conditions, from: from, to: to) }
    }

    /// Makes both directions between `a` and `b` behave as `conditions`.
    public func setConditions(_ conditions: LinkConditions, between a: PeerID, and b: PeerID) {
        state.withLock { $0.routes.setConditions(conditions, between: a, and: b) }
    }

    /// How frames from `from` to `to` behave.
    public func conditions(from: PeerID, to: PeerID) -> LinkConditions {
        state.withLock { $0.routes.conditions(from: from, to: to) }
    }

    /// Cuts `partition.isolated` off from everyone else between its start and end (on the
    /// network's clock, see ``elapsed``): frames sent across the cut then, or arriving then, are lost.
    public func addPartition(_ partition: Partition) {
        state.withLock { $0.routes.addPartition(partition) }
    }

    /// Whether a partition separates `a` and `b` now.
    public func isPartitioned(_ a: PeerID, _ b: PeerID) -> Bool {
        let now = elapsedNow()
        return state.withLock { $0.routes.isPartitioned(a, b, at: now) }
    }

    // MARK: Frames

    /// Routes a frame and starts its delivery (``InMemoryGroupTransport/send(_:to:)``).
    func transmit(_ bytes: [UInt8], from sender: PeerID, generation: UInt64, to destination: PeerID) throws(InMemoryGroupTransportError) {
        let now = elapsedNow()
        try state.withLock { state throws(InMemoryGroupTransportError) in
            guard state.inboxes[sender]?.generation == generation else { throw .closed }
            guard state.inboxes[destination] != nil else { throw .unknownPeer(destination) }
            state.statistics.framesSent += 1
            switch state.routes.route(from: sender, to: destination, sentAt: now) {
            case .lost(.dropped):
                state.statistics.framesDropped += 1
            case .lost(.partitioned):
                state.statistics.framesPartitioned += 1
            case .arrives(let arrival):
                state.nextDelivery += 1
                let id = state.nextDelivery
                let frame = GroupTransportFrame(sender: sender, bytes: bytes)
                let sleepUntil = self.sleepUntil
                state.statistics.framesInFlight += 1
                state.deliveries[id] = Task(executorPreference: executor) { [weak self] in
                    let arrived: Bool
                    do {
                        try await sleepUntil(arrival)
                        arrived = true
                    } catch {
                        arrived = false
                    }
                    self?.deliver(id, frame, to: destination, arrived: arrived)
                }
            }
        }
    }

    private func deliver(_ id: UInt64, _ frame: GroupTransportFrame, to destination: PeerID, arrived: Bool) {
        let now = elapsedNow()
        state.withLock { state in
            guard state.deliveries.removeValue(forKey: id) != nil else { return }
            state.statistics.framesInFlight -= 1
            guard arrived, let inbox = state.inboxes[destination] else {
                state.statistics.framesUndeliverable += 1
                return
            }
            // A partition that began while the frame was on its way cuts it off too.
            if state.routes.isPartitioned(frame.sender, destination, at: now) {
                state.statistics.framesPartitioned += 1
                return
            }
            state.statistics.framesDelivered += 1
            inbox.continuation.yield(frame)
        }
    }

    /// Removes `peer`'s transport of `generation` (not a newer one that joined as the same peer):
    /// its stream finishes and frames on their way to it are lost.
    func leave(_ peer: PeerID, generation: UInt64) {
        let inbox = state.withLock { state -> Inbox? in
            guard state.inboxes[peer]?.generation == generation else { return nil }
            return state.inboxes.removeValue(forKey: peer)
        }
        inbox?.continuation.finish()
    }
}
