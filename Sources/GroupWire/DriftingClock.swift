/// A participant's local clock as the simulator sees it: it reads `offset` at true time zero and
/// runs `driftPartsPerBillion` parts per billion fast (negative: slow) relative to true time.
///
/// Crystal oscillators drift by up to about ±100 ppm, so two clocks 200 ppm apart part by 0.72 s in
/// an hour (`research/coordination.md` §4.2): group playback must estimate drift, not only offset.
/// Arithmetic is exact on `Duration`'s attoseconds (no floating point), so a simulation is
/// repeatable to the attosecond.
///
///     let clock = DriftingClock(offset: .milliseconds(250), driftPartsPerBillion: 100_000)   // +100 ppm
///     clock.localTime(atTrueTime: .seconds(3600))   // 3600.610 s: 250 ms + 360 ms gained in an hour
public struct DriftingClock: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the clock reads at true time zero.
    public var offset: Duration
    /// How much faster than true time the clock runs, in parts per billion (100 ppm = 100 000).
    public var driftPartsPerBillion: Int64

    /// A clock reading `offset` at true time zero and running `driftPartsPerBillion` ppb fast.
    ///
    /// - Precondition: `driftPartsPerBillion > -1_000_000_000` (the clock moves forward).
    public init(offset: Duration = .zero, driftPartsPerBillion: Int64 = 0) {
        precondition(driftPartsPerBillion > -1_000_000_000, "a clock must move forward")
        self.offset = offset
        self.driftPartsPerBillion = driftPartsPerBillion
    }

    /// A perfect clock: it reads true time.
    public static let perfect = DriftingClock()

    /// The drift in parts per million, for display.
    public var driftPartsPerMillion: Double { Double(driftPartsPerBillion) / 1000 }

    /// What the clock reads at true time `trueTime`.
    public func localTime(atTrueTime trueTime: Duration) -> Duration {
        let gained = trueTime.attoseconds * Int128(driftPartsPerBillion) / 1_000_000_000
        return offset + trueTime + Duration(attoseconds: gained)
    }

    /// The true time at which the clock reads `localTime`, rounded up to the attosecond so that a
    /// wake-up scheduled there never finds its local deadline still ahead.
    public func trueTime(atLocalTime localTime: Duration) -> Duration {
        let elapsed = (localTime - offset).attoseconds
        var trueTime = Duration(attoseconds: elapsed * 1_000_000_000 / (1_000_000_000 + Int128(driftPartsPerBillion)))
        while self.localTime(atTrueTime: trueTime) < localTime { trueTime += Duration(attoseconds: 1) }
        return trueTime
    }

    /// How long the clock measures for a true span of `trueDuration`.
    public func localDuration(of trueDuration: Duration) -> Duration {
        trueDuration + Duration(attoseconds: trueDuration.attoseconds * Int128(driftPartsPerBillion) / 1_000_000_000)
    }

    /// For example `offset 250 ms, drift +100.0 ppm`.
    public var description: String {
        let sign = driftPartsPerBillion >= 0 ? "+" : ""
        return "offset \(offset), drift \(sign)\(driftPartsPerMillion) ppm"
    }
}
