/// A clock that runs `speed` times as fast as `base` (`interlude play --speed`, a participant with a drifting clock in `interlude join`): its time is the
/// time `base` has run since the clock was made, times `speed`, and sleeping for a duration sleeps
/// `base` for that duration divided by `speed`.
///
///     let clock = ScaledClock(base: ContinuousClock(), speed: 10)
///     try await clock.sleep(for: .seconds(60))   // six real seconds
///
/// Loads still take real time, so a fast clock plays a slow network as a slower one.
public struct ScaledClock<Base: Clock>: Clock where Base.Duration == Duration {
    /// A point on the scaled clock: the scaled time since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Comparable {
        /// The scaled time since the clock was made.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The clock that really runs.
    public let base: Base
    /// How many times as fast as `base` this clock runs (positive, finite).
    public let speed: Double
    private let origin: Base.Instant

    /// A clock at zero now, running `speed` times as fast as `base`.
    public init(base: Base, speed: Double) {
        precondition(speed > 0 && speed.isFinite, "a clock's speed must be positive and finite")
        self.base = base
        self.speed = speed
        self.origin = base.now
    }

    /// The scaled time since the clock was made.
    public var now: Instant { Instant(offset: origin.duration(to: base.now) * speed) }

    /// The base's resolution, scaled.
    public var minimumResolution: Duration { base.minimumResolution * speed }

    /// Sleeps on `base` until this clock reaches `deadline`; checks again on waking, so rounding
    /// in the division never wakes a sleeper early.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        while true {
            let remaining = now.duration(to: deadline)
            guard remaining > .zero else { return }
            // At least the base's resolution, so that a remainder that rounds to zero still sleeps.
            try await base.sleep(for: Swift.max(remaining / speed, base.minimumResolution), tolerance: tolerance.map { $0 / speed })
        }
    }
}
