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
/// before it left (`offset ≤ t1 − t0` at local time t0) and the reply cannot arrive before it left
/// (`offset ≥ t2 − t3` at t3). The lowest bounds of each direction lie on a line: the minimum
/// delay above the true offset for probes, below it for replies. The estimator takes the drift
/// from the hull edge of each direction's bounds over the middle of the span (Moon, Skelly and
/// Towsley's linear program, INFOCOM 1999), averaged over the two directions, and the offset from
/// the middle of the band between the two sets of bounds at that drift. Only the exchanges with
/// the lowest delay in each direction touch the band, so this is minimum-round-trip filtering done
/// for each direction separately: the probe of one exchange and the reply of another can both be
/// fast, and the offset is then right although no single exchange was (the asymmetric-jitter
/// case).
///
/// The bounds come from the last ``Configuration/windowSampleCount`` exchanges, and from older ones
/// up to ``Configuration/historyDuration`` back, of which the tightest bound of each direction per
/// ``Configuration/historyBucketDuration`` is kept: a long baseline pins the drift at the cost of
/// a few dozen points. Drift is held at its previous value (at first zero) until the bounds span
/// ``Configuration/minimumDriftSpan``.
///
/// **Limits.** A path whose two directions have different minimum delays biases the offset by half
/// the difference; no exchange can detect it (RFC 5905 §8). Drift is assumed constant over the
/// history. A clock step (a local clock reset) is detected when three exchanges in a row
/// contradict the estimate: everything is discarded and a new burst starts.
///
/// Complexity: O(n log n) per exchange, n the window plus the hull points kept (typically under
/// 100); O(1) to map a time.
public struct GroupClockEstimator: Sendable {
    /// Tunables; the defaults follow `research/coordination.md` §4.3 (≥ 8 samples, re-probe ≤ 30 s).
    public struct Configuration: Sendable, Hashable {
        /// Exchanges needed before ``GroupClockEstimator/isSynchronized`` (8).
        public var minimumSampleCount = 8
        /// Exchanges in the sliding window (64).
        public var windowSampleCount = 64
        /// How far back (local time) the hull bounds of exchanges that left the window still count
        /// (30 minutes). Drift is assumed constant over it.
        public var historyDuration: Duration = .seconds(1800)
        /// Of the exchanges that left the window, the tightest bound of each direction is kept for
        /// every stretch this long (30 s).
        public var historyBucketDuration: Duration = .seconds(30)
        /// Probes sent at the start, and after a clock step (8).
        public var initialBurstCount = 8
        /// Between probes of a burst (100 ms).
        public var burstSpacing: Duration = .milliseconds(100)
        /// Between probes after the burst (2 s: a probe is a few dozen bytes, and the more exchanges,
        /// the closer each direction's minimum delay is found).
        public var refreshInterval: Duration = .seconds(2)
        /// A reply later than this after its probe is ignored (3 s).
        public var probeTimeout: Duration = .seconds(3)
        /// The largest drift believed, in parts per million either way (500; crystals stay within ±100).
        public var maximumDriftPartsPerMillion: Double = 500
        /// The shortest stretch of local time the window must span before drift is estimated
        /// (30 s); until then the previous drift (at first zero) is kept.
        public var minimumDriftSpan: Duration = .seconds(30)

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
    private var meanSquareChange = 0.0
    /// The drift last estimated, kept across a clock step (a step moves the offset, not the rate).
    private var drift = 0.0
    private var isDriftMeasured = false
    /// The tightest bounds of exchanges that left the window, one per direction and history bucket,
    /// by local time.
    private var upperHistory: [Bound] = []
    private var lowerHistory: [Bound] = []

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
    /// Its send time is `now` in whole nanoseconds (truncated, as the wire form writes it), so that
    /// the time a reply echoes matches the probe's even when the local clock has finer steps (a
    /// clock that runs at a rate, such as `join --clock-drift-ppm`'s).
    public mutating func makeProbe(at now: Duration) -> ClockProbe {
        outstanding.removeAll { now - $0.clientSendTime > configuration.probeTimeout }
        nextProbeID += 1
        let probe = ClockProbe(id: nextProbeID, clientSendTime: .nanoseconds(Int64(clamping: now.attoseconds / 1_000_000_000)))
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
                upperHistory.removeAll()
                lowerHistory.removeAll()
                meanSquareChange = 0
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
        if samples.count > configuration.windowSampleCount {
            let leaving = samples.removeFirst()
            Self.keep(Bound(localTime: leaving.clientSendTime, offset: leaving.serverReceiveTime - leaving.clientSendTime), in: &upperHistory, bucket: configuration.historyBucketDuration, drift: drift, isUpper: true)
            Self.keep(Bound(localTime: leaving.clientReceiveTime, offset: leaving.serverSendTime - leaving.clientReceiveTime), in: &lowerHistory, bucket: configuration.historyBucketDuration, drift: drift, isUpper: false)
        }
        let horizon = exchange.clientReceiveTime - configuration.historyDuration
        upperHistory.removeAll { $0.localTime < horizon }
        lowerHistory.removeAll { $0.localTime < horizon }
        estimate = fit()
        return true
    }

    /// Whether the exchange's hard interval (offset ± half its round trip) misses the estimate's.
    private func contradicts(_ exchange: ClockExchange, _ estimate: GroupClockEstimate) -> Bool {
        let predicted = estimate.offset(atLocalTime: exchange.localMidpoint)
        // Until drift is measured it may be anything up to the maximum; after, a few ppm.
        let driftAllowance = (isDriftMeasured ? 10 : configuration.maximumDriftPartsPerMillion) * 1e-6
        let span = samples.first.map { (estimate.referenceLocalTime - $0.clientSendTime).timingSeconds } ?? 0
        let elapsed = abs((exchange.localMidpoint - estimate.referenceLocalTime).timingSeconds) + span
        let slack = exchange.roundTripTime / 2 + estimate.maximumError + .milliseconds(1) + .seconds(driftAllowance * elapsed)
        let difference = exchange.offset - predicted
        return difference > slack || difference < .zero - slack
    }

    // MARK: The fit

    /// A bound on the offset at a local time.
    private struct Bound: Sendable {
        var localTime: Duration
        var offset: Duration
    }

    private struct Point {
        var x: Double
        var y: Double
        var index: Int
    }

    private mutating func fit() -> GroupClockEstimate {
        let latest = samples[samples.count - 1]
        let reference = latest.clientReceiveTime
        let base = latest.offset
        func point(_ bound: Bound, _ index: Int) -> Point {
            Point(x: (bound.localTime - reference).timingSeconds, y: (bound.offset - base).timingSeconds, index: index)
        }
        // The history's bounds, then the window's, as points (built in place: this runs at every
        // exchange).
        var upper: [Point] = []
        var lower: [Point] = []
        upper.reserveCapacity(upperHistory.count + samples.count)
        lower.reserveCapacity(lowerHistory.count + samples.count)
        for bound in upperHistory { upper.append(point(bound, upper.count)) }
        for bound in lowerHistory { lower.append(point(bound, lower.count)) }
        var minimumRoundTrip = latest.roundTripTime
        for sample in samples {
            upper.append(point(Bound(localTime: sample.clientSendTime, offset: sample.serverReceiveTime - sample.clientSendTime), upper.count))
            lower.append(point(Bound(localTime: sample.clientReceiveTime, offset: sample.serverSendTime - sample.clientReceiveTime), lower.count))
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

        // Drift: each direction's minimum-delay line is the hull edge over the middle of the span
        // (Moon, Skelly and Towsley's linear program: the line under all points closest to them on
        // average); both directions see the same drift, so their slopes are averaged. An edge over
        // the middle is long and far from the window's ends, where the hulls are least pinned.
        let bound = configuration.maximumDriftPartsPerMillion * 1e-6
        let first = min(upper.first!.x, lower.first!.x)
        let last = max(upper.last!.x, lower.last!.x)
        let middle = (first + last) / 2
        var slope = min(bound, max(-bound, drift))
        if last - first >= configuration.minimumDriftSpan.timingSeconds {
            let slopes = [Self.edgeSlope(ceiling, over: middle), Self.edgeSlope(floor, over: middle)].compactMap { $0 }
            if !slopes.isEmpty {
                slope = min(bound, max(-bound, slopes.reduce(0, +) / Double(slopes.count)))
                drift = slope
                isDriftMeasured = true
            }
        }
        let noise = Self.secondGap(upper, slope, top(slope), above: true) + Self.secondGap(lower, slope, bottom(slope), above: false)
        let high = top(slope)
        let low = bottom(slope)
        let halfWidth = max(0, (high - low) / 2)

        // How much the estimate of now moved with this exchange, as a running RMS: a fit that still
        // moves is not better than its moves.
        let offsetNow = (high + low) / 2
        if let previous = estimate {
            let change = (previous.offset(atLocalTime: reference) - base).timingSeconds - offsetNow
            meanSquareChange += (change * change - meanSquareChange) / 16
        }
        // The floor of each direction is found to about (typical jitter) / (exchanges): the median
        // round-trip excess of the window over its minimum, shared by the window's exchanges.
        let excesses = samples.map { ($0.roundTripTime - minimumRoundTrip).timingSeconds }.sorted()
        let resolution = excesses[excesses.count / 2] / Double(samples.count)
        let uncertainty = min(halfWidth, max(noise, 3 * meanSquareChange.squareRoot(), resolution))
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

    /// Keeps `bound` in the history if it is the tightest of its bucket (by its offset less the drift
    /// since the bucket's start): the least upper bound, or the greatest lower bound.
    private static func keep(_ bound: Bound, in history: inout [Bound], bucket: Duration, drift: Double, isUpper: Bool) {
        let index = bound.localTime / bucket
        guard let last = history.last, (last.localTime / bucket).rounded(.down) == index.rounded(.down) else {
            history.append(bound)
            return
        }
        let tightness = (bound.offset - last.offset).timingSeconds - drift * (bound.localTime - last.localTime).timingSeconds
        if isUpper ? tightness < 0 : tightness > 0 { history[history.count - 1] = bound }
    }

    /// The slope of the hull edge spanning `x`, if the hull has one.
    private static func edgeSlope(_ hull: [Point], over x: Double) -> Double? {
        guard hull.count >= 2 else { return nil }
        var index = 1
        while index < hull.count - 1, hull[index].x < x { index += 1 }
        let (a, b) = (hull[index - 1], hull[index])
        guard b.x > a.x else { return nil }
        return (b.y - a.y) / (b.x - a.x)
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
