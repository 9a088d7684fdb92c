import MediaTime

/// The playhead's position as a function of host time: an anchor (item time at a host time) and a
/// rate, re-anchored on every rate change and seek so that time never drifts (pure value).
///
/// Host times are offsets on the player's injected clock (a `Duration` since its zero); item times
/// are exact. A rate is exact too: ``rate`` is stored as a fraction (``rateNumerator`` /
/// ``rateDenominator``), so 1.05× moves exactly 21 seconds of media per 20 seconds of host time.
///
///     var clock = MediaClock()
///     clock.setRate(1, atHost: .seconds(10))
///     clock.itemTime(atHost: .seconds(12.5))   // 2.5
public struct MediaClock: Sendable, Hashable {
    /// The item time at ``anchorHost``.
    public private(set) var anchorItem: MediaTime
    /// The host time of the anchor.
    public private(set) var anchorHost: Duration
    /// The rate's numerator (0 when paused).
    public private(set) var rateNumerator: Int64
    /// The rate's denominator (positive).
    public private(set) var rateDenominator: Int64

    /// A clock paused at `item`.
    public init(item: MediaTime = .zero, host: Duration = .zero) {
        anchorItem = item
        anchorHost = host
        rateNumerator = 0
        rateDenominator = 1
    }

    /// The rate as a number (0 paused, 1 normal speed).
    public var rate: Double { Double(rateNumerator) / Double(rateDenominator) }

    /// The item time at a host time (never before the anchor when playing forward).
    public func itemTime(atHost host: Duration) -> MediaTime {
        guard rateNumerator != 0 else { return anchorItem }
        let elapsed = MediaTime(host - anchorHost)
        guard rateNumerator != rateDenominator else { return Self.sum(anchorItem, elapsed) }
        // A rate such as 1.00005 makes an exact product with a large timescale: keep nanoseconds.
        if let advanced = elapsed.multiplied(byRatio: rateNumerator, rateDenominator, toTimescale: 1_000_000_000) {
            return Self.sum(anchorItem, advanced)
        }
        var advanced = elapsed.multiplied(byRatio: rateNumerator, rateDenominator) ?? .zero
        if let nanoseconds = advanced.converted(toTimescale: 1_000_000_000) { advanced = nanoseconds }
        return Self.sum(anchorItem, advanced)
    }

    /// `a + b`, exact when the common timescale fits, else to the nanosecond.
    static func sum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        if let exact = a.addingReportingOverflow(b) { return exact }
        let x = a.converted(toTimescale: 1_000_000_000) ?? a
        let y = b.converted(toTimescale: 1_000_000_000) ?? b
        return x.addingReportingOverflow(y) ?? x
    }

    /// Changes the rate at `host`, keeping the position continuous.
    public mutating func setRate(_ rate: Double, atHost host: Duration) {
        let (numerator, denominator) = MediaTime.ratio(approximating: rate)
        setRate(numerator: numerator, denominator: denominator, atHost: host)
    }

    /// Changes the rate to the exact fraction `numerator / denominator` at `host`.
    public mutating func setRate(numerator: Int64, denominator: Int64, atHost host: Duration) {
        precondition(denominator > 0, "a rate's denominator must be positive")
        anchorItem = itemTime(atHost: host)
        anchorHost = host
        rateNumerator = numerator
        rateDenominator = denominator
    }

    /// Moves the playhead to `item` at `host`, keeping the rate.
    public mutating func seek(to item: MediaTime, atHost host: Duration) {
        anchorItem = item
        anchorHost = host
    }

    /// The host time at which the playhead reaches `item`, or `nil` if it never will (paused, or
    /// moving away from it). Used to schedule boundary observers and the moment the buffer runs dry.
    public func hostTime(whenItemReaches item: MediaTime) -> Duration? {
        guard rateNumerator != 0 else { return nil }
        let distance = item - anchorItem
        if distance.isZero { return anchorHost }
        guard (distance.isNegative) == (rateNumerator < 0), distance.isNumeric else { return nil }
        // The host nanoseconds, rounded up in one exact division: rounding the host distance to
        // the distance's own timescale first (as a product that is not exact would) can round it
        // to zero when it is less than half a unit (a few nanoseconds of media at 10×, with a
        // drift-corrected rate), and a deadline at the anchor is then due again forever.
        let top = Int128(distance.value).magnitude * Int128(rateDenominator).magnitude * 1_000_000_000
        let bottom = Int128(distance.timescale).magnitude * Int128(rateNumerator).magnitude
        guard let nanoseconds = Int64(exactly: (top + bottom - 1) / bottom) else { return nil }
        var host = anchorHost + .nanoseconds(nanoseconds)
        // The item time at a host time is rounded to the nanosecond of media, which can land just
        // short of `item` at rates other than 1: move on until it is reached.
        if rateNumerator != rateDenominator {
            var steps = 0
            func isShort(_ reached: MediaTime) -> Bool { rateNumerator > 0 ? reached < item : item < reached }
            while steps < 4, isShort(itemTime(atHost: host)) {
                host += .nanoseconds(1)
                steps += 1
            }
        }
        return host
    }
}
