import MediaTime

/// What a participant knows about the group clock at one moment: a line through time
/// `groupTime = localTime + offset + drift × (localTime − referenceLocalTime)`, with how wrong it
/// may be.
///
/// A value, so that the coordinator can hold the estimate it scheduled a command with.
public struct GroupClockEstimate: Sendable, Hashable {
    /// The local time at which ``offset`` was measured (the latest exchange's t3).
    public var referenceLocalTime: Duration
    /// Group time minus local time at ``referenceLocalTime``.
    public var offset: Duration
    /// How much faster the group clock runs than the local one, in parts per million.
    public var driftPartsPerMillion: Double
    /// The likely error of ``offset``: the largest of how far the second-best bound of each
    /// direction sits from the band, three times the RMS of the estimate's recent moves, and the
    /// median round-trip excess of the window divided by its size (how finely the minimum delays are
    /// found). It covered the actual error in 96% of the measurements of the simulated 50 ms ± 20 ms
    /// path. An asymmetric path adds half its asymmetry, which no exchange can see.
    public var uncertainty: Duration
    /// The largest error the exchanges allow on the fitted line whatever the delays were: half the
    /// narrowest band between the one-way bounds, about half the smallest round trip (Cristian's bound).
    public var maximumError: Duration
    /// The smallest round trip in the window.
    public var minimumRoundTripTime: Duration
    /// How many exchanges the estimate rests on.
    public var sampleCount: Int

    /// An estimate; normally made by ``GroupClockEstimator``.
    public init(
        referenceLocalTime: Duration,
        offset: Duration,
        driftPartsPerMillion: Double,
        uncertainty: Duration,
        maximumError: Duration,
        minimumRoundTripTime: Duration,
        sampleCount: Int
    ) {
        self.referenceLocalTime = referenceLocalTime
        self.offset = offset
        self.driftPartsPerMillion = driftPartsPerMillion
        self.uncertainty = uncertainty
        self.maximumError = maximumError
        self.minimumRoundTripTime = minimumRoundTripTime
        self.sampleCount = sampleCount
    }

    /// Group seconds per local second (1 + drift).
    public var rateRatio: Double { 1 + driftPartsPerMillion * 1e-6 }

    /// Group time minus local time at local time `localTime`.
    public func offset(atLocalTime localTime: Duration) -> Duration {
        offset + .seconds(driftPartsPerMillion * 1e-6 * (localTime - referenceLocalTime).timingSeconds)
    }

    /// The group time when the local clock reads `localTime`.
    public func groupTime(atLocalTime localTime: Duration) -> Duration {
        localTime + offset(atLocalTime: localTime)
    }

    /// The local time when the group clock reads `groupTime` (the inverse of ``groupTime(atLocalTime:)``).
    public func localTime(atGroupTime groupTime: Duration) -> Duration {
        let drift = driftPartsPerMillion * 1e-6
        let sinceReference = (groupTime - referenceLocalTime - offset).timingSeconds / (1 + drift)
        return groupTime - offset - .seconds(drift * sinceReference)
    }
}

extension Duration {
    /// The duration as (inexact) seconds, for statistics; never for timelines.
    var timingSeconds: Double {
        let (seconds, attoseconds) = wholeUnits(ofAttoseconds: 1_000_000_000_000_000_000)
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
