/// Agrees a participant's local clock with the group clock from NTP-style exchanges (pure state
/// machine): it says when to probe, takes the replies, and keeps a ``GroupClockEstimate`` of the
/// offset **and** the drift between the two clocks.
///
///     var estimator = GroupClockEstimator(startingAt: clock.now)
///     if let probe = estimator.makeProbeIfDue(at: clock.now) { send(probe) }   // at nextProbeTime
///     estimator.receive(reply, at: clock.now)                                  // when a reply comes
///     estimator.estimate?.groupTime(atLocalTime: clock.now)
///
/// **Schedule.** A burst of ``Configuration/initialBurstCount`` probes (8) a short interval apart,
/// then one every ``Configuration/refreshInterval``. A lost probe is not answered and not retried.
///
/// **Filter and fit.** Each exchange bounds the offset from both sides: the probe cannot arrive
/// before it left (`offset ≤ t1 − t0` at t0) and the reply cannot arrive before it left
/// (`offset ≥ t2 − t3` at t3). Over a sliding window of ``Configuration/windowSampleCount``
/// exchanges the estimator fits the line (offset and drift) that lies furthest from both sets of
/// bounds, and takes the middle of the band. Only the exchanges with the lowest delay in each
/// direction touch the band, so this is minimum-round-trip filtering done for each direction
/// separately: the probe of one exchange and the reply of another can both be fast, and the
/// offset is then right although no single exchange was (the asymmetric-jitter case). Drift moves
/// away from its previous value only when the window rules that value out by more than the
/// measurement noise, so a short window does not invent drift. The same idea underlies
/// the convex-hull clock-skew estimators of Moon, Skelly and Towsley (INFOCOM 1999).
///
/// **Limits.** A path whose two directions have different minimum delays biases the offset by half
/// the difference; no exchange can detect it (RFC 5905 §8). Clock steps (a local clock reset)
/// are detected when three exchanges in a row contradict the estimate: the window is discarded and
/// a new burst starts.
///
/// Complexity: O(w log w) per exchange, w the window size; O(1) to map a time.
public struct GroupClockEstimator: Sendable {
    /// Tunables; the defaults follow `research/coordination.md` §4.3 (≥ 8 samples, re-probe ≤ 30 s).
    public struct Configuration: Sendable, Hashable {
        /// Exchanges needed before ``GroupClockEstimator/isSynchronized`` (8).
        public var minimumSampleCount = 8
        /// Exchanges in the sliding window (64; about 11 minutes at the default refresh).
        public var windowSampleCount = 64
        /// Probes sent at the start, and after a clock step (8).
        public var initialBurstCount = 8
        /// Between probes of a burst (100 ms).
        public var burstSpacing: Duration = .milliseconds(100)
        /// Between probes after the burst (10 s).
        public var refreshInterval: Duration = .seconds(10)
        /// A reply later than this after its probe is ignored (3 s).
        public var probeTimeout: Duration = .seconds(3)
        /// The largest drift believed, in parts per million either way (500; crystals stay within ±100).
        public var maximumDriftPartsPerMillion: Double = 500
        /// The least change of the fit's band, in seconds, that moves the drift off its previous value
        /// (50 µs; the noise of the window is used when larger).
        public var minimumDriftEvidenceSeconds: Double = 50e-6

        /// The defaults.
        public init() {}
    }

    /// The tunables this estimator uses.
    public let configuration: Configuration
    /// The latest estimate; `nil` before the first exchange.
    public private(set) var estimate: GroupClockEstimate?
    /// The local time at which the next probe is due.
    public private(set) var nextProbeTime: Duration
    /// The exchanges in the window, oldest first.
    public private(set) var samples: [ClockExchange] = []
    /// How many times the window was discarded because the clocks stepped.
    public private(set) var stepCount = 0

    private var burstRemaining: Int
    private var nextProbeID: UInt64 = 0
    private var outstanding: [ClockProbe] = []
    private var contradictionsInARow = 0

    /// An estimator whose first probe is due at local time `now`.
    public init(configuration: Configuration = Configuration(), startingAt now: Duration) {
        precondition(configuration.windowSampleCount >= configuration.minimumSampleCount, "the window must hold the minimum sample count")
        self.configuration = configuration
        nextProbeTime = now
        burstRemaining = configuration.initialBurstCount
    }

    /// Whether the estimate rests on at least ``Configuration/minimumSampleCount`` exchanges.
    public var isSynchronized: Bool { samples.count >= configuration.minimumSampleCount && estimate != nil }

    /// A probe to send now if one is due at local time `now`, else `nil`.
    public mutating func makeProbeIfDue(at now: Duration) -> ClockProbe? {
        now >= nextProbeTime ? makeProbe(at: now) : nil
    }

    /// A probe to send now, at local time `now`, whether due or not; the schedule continues from it.
    public mutating func makeProbe(at now: Duration) -> ClockProbe {
        outstanding.removeAll { now - $0.clientSendTime > configuration.probeTimeout }
        nextProbeID += 1
        let probe = ClockProbe(id: nextProbeID, clientSendTime: now)
        outstanding.append(probe)
        if burstRemaining > 0 { burstRemaining -= 1 }
        nextProbeTime = now + (burstRemaining > 0 ? configuration.burstSpacing : configuration.refreshInterval)
        return probe
    }

    /// Takes the reply to one of this estimator's probes, arriving at local time `now`. Returns
    /// whether it was used: replies to unknown, already answered or timed-out probes are ignored.
    @discardableResult
    public mutating func receive(_ reply: ClockProbeReply, at now: Duration) -> Bool {
        guard let index = outstanding.firstIndex(where: { $0.id == reply.id && $0.clientSendTime == reply.clientSendTime }) else {
            return false
        }
        outstanding.remove(at: index)
        guard now - reply.clientSendTime <= configuration.probeTimeout else { return false }
        return record(reply.exchange(receivedAt: now))
    }

    /// Adds a completed exchange (for callers that run their own probes). Returns whether it was
    /// used: an exchange whose time stamps run backwards is ignored.
    @discardableResult
    public mutating func record(_ exchange: ClockExchange) -> Bool {
        guard exchange.clientReceiveTime >= exchange.clientSendTime,
            exchange.serverSendTime >= exchange.serverReceiveTime,
            exchange.roundTripTime >= .zero
        else { return false }
        if let estimate, isSynchronized, contradicts(exchange, estimate) {
            contradictionsInARow += 1
            if contradictionsInARow >= 3 {
                // The clocks stepped (or the path changed beyond what delays explain): start over
                // from the exchanges that saw the new state.
                samples.removeFirst(samples.count - min(samples.count, contradictionsInARow - 1))
                self.estimate = nil
                stepCount += 1
                contradictionsInARow = 0
                burstRemaining = configuration.initialBurstCount
                nextProbeTime = exchange.clientReceiveTime
            }
        } else {
            contradictionsInARow = 0
        }
        samples.append(exchange)
        if samples.count > configuration.windowSampleCount { samples.removeFirst(samples.count - configuration.windowSampleCount) }
        estimate = fit()
        return true
    }

    /// Whether the exchange's hard interval (offset ± half its round trip) misses the estimate's.
    private func contradicts(_ exchange: ClockExchange, _ estimate: GroupClockEstimate) -> Bool {
        let predicted = estimate.offset(atLocalTime: exchange.localMidpoint)
        let slack = exchange.roundTripTime / 2 + estimate.maximumError + .milliseconds(1)
        let difference = exchange.offset - predicted
        return difference > slack || difference < .zero - slack
    }

    // MARK: The fit

    private struct Point {
        var x: Double
        var y: Double
    }

    private func fit() -> GroupClockEstimate {
        let latest = samples[samples.count - 1]
        let reference = latest.clientReceiveTime
        let base = latest.offset
        var upper: [Point] = []
        var lower: [Point] = []
        upper.reserveCapacity(samples.count)
        lower.reserveCapacity(samples.count)
        var minimumRoundTrip = latest.roundTripTime
        for sample in samples {
            upper.append(Point(x: (sample.clientSendTime - reference).timingSeconds, y: (sample.serverReceiveTime - sample.clientSendTime - base).timingSeconds))
            lower.append(Point(x: (sample.clientReceiveTime - reference).timingSeconds, y: (sample.serverSendTime - sample.clientReceiveTime - base).timingSeconds))
            minimumRoundTrip = min(minimumRoundTrip, sample.roundTripTime)
        }
        upper.sort { $0.x < $1.x }
        lower.sort { $0.x < $1.x }
        // The offset line stays below every probe's bound and above every reply's: only the hull
        // vertices facing the line matter.
        let ceiling = Self.lowerHull(upper)
        let floor = Self.upperHull(lower)
        func top(_ b: Double) -> Double { ceiling.reduce(Double.infinity) { min($0, $1.y - b * $1.x) } }
        func bottom(_ b: Double) -> Double { floor.reduce(-Double.infinity) { max($0, $1.y - b * $1.x) } }
        func band(_ b: Double) -> Double { top(b) - bottom(b) }

        let bound = configuration.maximumDriftPartsPerMillion * 1e-6
        // The band is concave and piecewise linear in the slope: its maximum is at a hull edge's slope.
        var candidates = [-bound, bound]
        for hull in [ceiling, floor] where hull.count > 1 {
            for index in 1..<hull.count {
                let slope = (hull[index].y - hull[index - 1].y) / (hull[index].x - hull[index - 1].x)
                if slope.isFinite, slope > -bound, slope < bound { candidates.append(slope) }
            }
        }
        var best = 0.0
        var widest = -Double.infinity
        for candidate in candidates {
            let width = band(candidate)
            if width > widest { (best, widest) = (candidate, width) }
        }
        // Noise: how far the second-lowest delay of each direction sits above the lowest.
        let noise = Self.secondGap(upper, best, top(best), above: true) + Self.secondGap(lower, best, bottom(best), above: false)
        // Keep the previous drift unless the data rule it out by more than the noise.
        let prior = min(bound, max(-bound, (estimate?.driftPartsPerMillion ?? 0) * 1e-6))
        let tolerance = max(configuration.minimumDriftEvidenceSeconds, noise)
        var slope = prior
        if band(prior) < widest - tolerance {
            var (ruledOut, allowed) = (prior, best)
            for _ in 0..<60 {
                let middle = (ruledOut + allowed) / 2
                if band(middle) >= widest - tolerance { allowed = middle } else { ruledOut = middle }
            }
            slope = allowed
        }
        let high = top(slope)
        let low = bottom(slope)
        let halfWidth = max(0, (high - low) / 2)
        let uncertainty = min(halfWidth, noise)
        return GroupClockEstimate(
            referenceLocalTime: reference,
            offset: base + .seconds((high + low) / 2),
            driftPartsPerMillion: slope * 1e6,
            uncertainty: .seconds(samples.count > 1 ? uncertainty : halfWidth),
            maximumError: .seconds(halfWidth),
            minimumRoundTripTime: minimumRoundTrip,
            sampleCount: samples.count
        )
    }

    /// The second-smallest distance of the points from the line of slope `slope` through `edge`
    /// (the smallest is zero: that point defines the edge).
    private static func secondGap(_ points: [Point], _ slope: Double, _ edge: Double, above: Bool) -> Double {
        var smallest = Double.infinity
        var second = Double.infinity
        for point in points {
            let gap = above ? point.y - slope * point.x - edge : edge - (point.y - slope * point.x)
            if gap < smallest { (smallest, second) = (gap, smallest) } else if gap < second { second = gap }
        }
        return second.isFinite ? max(0, second) : 0
    }

    private static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// Andrew's monotone chain, lower half (points sorted by x).
    private static func lowerHull(_ points: [Point]) -> [Point] {
        var hull: [Point] = []
        for point in points {
            while hull.count >= 2, cross(hull[hull.count - 2], hull[hull.count - 1], point) <= 0 { hull.removeLast() }
            hull.append(point)
        }
        return hull
    }

    /// Andrew's monotone chain, upper half (points sorted by x).
    private static func upperHull(_ points: [Point]) -> [Point] {
        var hull: [Point] = []
        for point in points {
            while hull.count >= 2, cross(hull[hull.count - 2], hull[hull.count - 1], point) >= 0 { hull.removeLast() }
            hull.append(point)
        }
        return hull
    }
}
