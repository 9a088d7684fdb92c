import GroupWire
/// How one direction of a path between two peers behaves in the ``SimulatedNetwork``.
///
/// The one-way delay of a frame is uniform in `latency ± jitter` (never negative), drawn
/// independently for every frame and each direction, so the two legs of an exchange differ
/// (asymmetric jitter) while their minimum is the same. A frame is lost with `lossProbability`;
/// with `reorderProbability` it is held back a further `reorderDelay`, so later frames overtake it.
/// An ordered path (TCP, a WebSocket) never lets a frame overtake an earlier one: a frame arrives no
/// sooner than the one before it.
public struct LinkConditions: Sendable, Hashable, Codable {
    /// The mean one-way delay.
    public var latency: Duration
    /// The largest deviation from ``latency`` either way.
    public var jitter: Duration
    /// The chance that a frame is lost, `0 ... 1`.
    public var lossProbability: Double
    /// The chance that a frame is held back by ``reorderDelay``, `0 ... 1`.
    public var reorderProbability: Double
    /// How long a held-back frame waits on top of its delay.
    public var reorderDelay: Duration
    /// Whether frames arrive in the order they were sent.
    public var isOrdered: Bool

    /// A path with the given behaviour; by default instant and perfect.
    public init(
        latency: Duration = .zero,
        jitter: Duration = .zero,
        lossProbability: Double = 0,
        reorderProbability: Double = 0,
        reorderDelay: Duration = .zero,
        isOrdered: Bool = false
    ) {
        precondition(jitter >= .zero && latency >= .zero && reorderDelay >= .zero, "delays cannot be negative")
        precondition((0...1).contains(lossProbability) && (0...1).contains(reorderProbability), "probabilities lie in 0 ... 1")
        self.latency = latency
        self.jitter = jitter
        self.lossProbability = lossProbability
        self.reorderProbability = reorderProbability
        self.reorderDelay = reorderDelay
        self.isOrdered = isOrdered
    }

    /// No delay, no loss.
    public static let perfect = LinkConditions()

    /// A home network: 2 ms ± 1 ms.
    public static let localAreaNetwork = LinkConditions(latency: .milliseconds(2), jitter: .milliseconds(1))

    /// The issue 6 benchmark's path: 50 ms ± 20 ms, 1% loss.
    public static let wideAreaNetwork = LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20), lossProbability: 0.01)
}

/// Peers cut off from everyone else between two true times, as when a participant's Wi-Fi drops.
public struct Partition: Sendable, Hashable, Codable {
    /// When the cut starts (true time).
    public var start: Duration
    /// When it heals (true time, exclusive).
    public var end: Duration
    /// The peers on one side; everyone else is on the other.
    public var isolated: Set<PeerID>

    /// `isolated` cut off from the rest during `start ..< end`.
    public init(isolating isolated: Set<PeerID>, from start: Duration, until end: Duration) {
        precondition(start <= end, "a partition heals after it starts")
        self.start = start
        self.end = end
        self.isolated = isolated
    }

    /// Whether the cut separates `a` and `b` at true time `time`.
    public func separates(_ a: PeerID, _ b: PeerID, at time: Duration) -> Bool {
        time >= start && time < end && isolated.contains(a) != isolated.contains(b)
    }
}
