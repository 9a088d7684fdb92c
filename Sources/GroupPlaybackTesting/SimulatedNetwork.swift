import GroupWire
/// The network of a simulated group session on virtual time (pure value): it decides the fate of
/// every frame — when it arrives, or that it is lost — from per-direction ``LinkConditions``,
/// ``Partition``s, and a seed, and it holds each peer's ``DriftingClock``.
///
///     var network = SimulatedNetwork(seed: 42, defaultConditions: .wideAreaNetwork)
///     network.setClock(DriftingClock(offset: .seconds(3), driftPartsPerBillion: 80_000), for: 2)
///     network.addPartition(Partition(isolating: [2], from: .seconds(60), until: .seconds(90)))
///     network.send(.deliver(bytes, from: 1, to: 2), from: 1, to: 2, on: &scheduler)
///
/// Every direction of every pair draws from its own random stream derived from the seed, so the same
/// seed gives the same run, and changing one link does not change the draws of another.
/// Times here are true (simulation) times; a peer reads its own clock with ``localTime(of:at:)``.
public struct SimulatedNetwork: Sendable {
    /// What happened to a frame.
    public enum Route: Sendable, Hashable {
        /// It arrives at this true time.
        case arrives(at: Duration)
        /// It never arrives.
        case lost(LossCause)

        /// The arrival time, if it arrives.
        public var arrivalTime: Duration? {
            if case .arrives(let time) = self { return time }
            return nil
        }
    }

    /// Why a frame did not arrive.
    public enum LossCause: Sendable, Hashable {
        /// The link's random loss.
        case dropped
        /// A partition separated the peers when it was sent or when it would have arrived.
        case partitioned
    }

    /// Counters over every link.
    public struct Statistics: Sendable, Hashable {
        /// Frames handed to the network.
        public var framesSent = 0
        /// Frames that arrive.
        public var framesDelivered = 0
        /// Frames lost at random.
        public var framesDropped = 0
        /// Frames lost to partitions.
        public var framesPartitioned = 0
    }

    fileprivate struct Link: Sendable {
        var conditions: LinkConditions?
        var random: SimulationRandom
        var lastArrival: Duration = .zero
    }

    /// The seed everything random derives from.
    public let seed: UInt64
    /// How directions without their own conditions behave.
    public var defaultConditions: LinkConditions
    /// Counters since the network was made.
    public private(set) var statistics = Statistics()
    /// The partitions, in the order added.
    public private(set) var partitions: [Partition] = []

    private var links: [UInt64: Link] = [:]
    private var clocks: [PeerID: DriftingClock] = [:]

    /// A network whose randomness is fixed by `seed`, every direction behaving as `defaultConditions`.
    public init(seed: UInt64, defaultConditions: LinkConditions = .perfect) {
        self.seed = seed
        self.defaultConditions = defaultConditions
    }

    private static func key(_ from: PeerID, _ to: PeerID) -> UInt64 { UInt64(from.rawValue) << 32 | UInt64(to.rawValue) }

    private func makeLink(_ from: PeerID, _ to: PeerID) -> Link {
        Link(conditions: nil, random: SimulationRandom(seed: seed, stream: UInt64(from.rawValue), UInt64(to.rawValue)))
    }

    /// Makes frames from `from` to `to` behave as `conditions`.
    public mutating func setConditions(_ conditions: LinkConditions, from: PeerID, to: PeerID) {
        let fresh = makeLink(from, to)
        links[Self.key(from, to), default: fresh].conditions = conditions
    }

    /// Makes both directions between `a` and `b` behave as `conditions` (with independent draws).
    public mutating func setConditions(_ conditions: LinkConditions, between a: PeerID, and b: PeerID) {
        setConditions(conditions, from: a, to: b)
        setConditions(conditions, from: b, to: a)
    }

    /// How frames from `from` to `to` behave.
    public func conditions(from: PeerID, to: PeerID) -> LinkConditions {
        links[Self.key(from, to)]?.conditions ?? defaultConditions
    }

    /// Adds a partition.
    public mutating func addPartition(_ partition: Partition) {
        partitions.append(partition)
    }

    /// Whether a partition separates `a` and `b` at true time `time`.
    public func isPartitioned(_ a: PeerID, _ b: PeerID, at time: Duration) -> Bool {
        partitions.contains { $0.separates(a, b, at: time) }
    }

    /// Gives `peer` a local clock (a perfect one by default).
    public mutating func setClock(_ clock: DriftingClock, for peer: PeerID) {
        clocks[peer] = clock
    }

    /// The local clock of `peer`.
    public func clock(of peer: PeerID) -> DriftingClock { clocks[peer] ?? .perfect }

    /// What `peer`'s local clock reads at true time `time`.
    public func localTime(of peer: PeerID, at time: Duration) -> Duration {
        clock(of: peer).localTime(atTrueTime: time)
    }

    /// Decides the fate of a frame `from` → `to` sent at true time `time`. Draws three random
    /// numbers from the link's stream whatever the outcome.
    public mutating func route(from: PeerID, to: PeerID, sentAt time: Duration) -> Route {
        let key = Self.key(from, to)
        if links[key] == nil { links[key] = makeLink(from, to) }
        let route = links[key]!.route(sentAt: time, defaultConditions: defaultConditions)
        statistics.framesSent += 1
        guard case .arrives(let arrival) = route else {
            statistics.framesDropped += 1
            return route
        }
        if isPartitioned(from, to, at: time) || isPartitioned(from, to, at: arrival) {
            statistics.framesPartitioned += 1
            return .lost(.partitioned)
        }
        statistics.framesDelivered += 1
        return route
    }

    /// Routes a frame sent now (the scheduler's time) and, if it arrives, schedules `event` for its
    /// arrival. Returns the route.
    @discardableResult
    public mutating func send<Event>(_ event: Event, from: PeerID, to: PeerID, on scheduler: inout SimulationScheduler<Event>) -> Route {
        let route = route(from: from, to: to, sentAt: scheduler.now)
        if case .arrives(let arrival) = route { scheduler.schedule(event, at: arrival) }
        return route
    }
}

extension SimulatedNetwork.Link {
    mutating func route(sentAt time: Duration, defaultConditions: LinkConditions) -> SimulatedNetwork.Route {
        let conditions = self.conditions ?? defaultConditions
        let isLost = random.chance(conditions.lossProbability)
        var delay = conditions.latency + random.nanoseconds(within: conditions.jitter)
        if random.chance(conditions.reorderProbability) { delay += conditions.reorderDelay }
        if isLost { return .lost(.dropped) }
        var arrival = time + max(.zero, delay)
        if conditions.isOrdered {
            arrival = max(arrival, lastArrival)
            lastArrival = arrival
        }
        return .arrives(at: arrival)
    }
}
