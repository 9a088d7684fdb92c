/// Decides how to correct the local player's offset from the group's expected position: nothing
/// inside a tolerance, a small rate change (at most ±5 %) below a seek threshold, a seek above it,
/// with hysteresis so that corrections stay rare.
///
/// Hysteresis has two parts. A rate correction starts only beyond ``Configuration/tolerance`` and
/// runs until the offset is back within ``Configuration/settleTolerance`` (or overshoots). And
/// every correction learns the drift since the previous one (a player whose clock runs 100 ppm
/// fast drifts 6 ms a minute) into a small permanent trim, so that a steady drift stops causing
/// corrections at all.
public struct DriftCorrector: Sendable, Hashable {
    /// Thresholds.
    public struct Configuration: Sendable, Hashable {
        /// Offsets below this are left alone.
        public var tolerance: Duration = .milliseconds(20)
        /// Offsets at or above this are corrected by a seek.
        public var seekThreshold: Duration = .milliseconds(250)
        /// A rate correction ends once the offset is within this.
        public var settleTolerance: Duration = .milliseconds(5)
        /// The largest rate change, as a fraction (0.05 = ±5 %).
        public var maximumRateAdjustment: Double = 0.05
        /// A rate correction aims to remove the offset over this long.
        public var correctionPeriod: Duration = .seconds(5)
        /// The largest permanent trim learned from drift, as a fraction (0.001 = 1000 ppm).
        public var maximumTrim: Double = 0.001

        /// The defaults: tolerate < 20 ms, rate-correct 20–250 ms over 5 s, seek above.
        public init() {}
    }

    /// What to do about an offset.
    public enum Decision: Sendable, Hashable {
        /// Nothing.
        case none
        /// Play at the group's rate times this multiplier.
        case adjustRate(multiplier: Double)
        /// Jump to the expected position (and play at the multiplier ``DriftCorrector/trim`` gives).
        case seek
    }

    /// The thresholds.
    public var configuration: Configuration
    /// The multiplier in force (1 + trim when no correction runs).
    public private(set) var multiplier: Double = 1
    /// The learned permanent rate trim (negative when the player runs fast).
    public private(set) var trim: Double = 0
    /// How many corrections (rate changes and seeks) were started.
    public private(set) var correctionCount = 0
    private var settledGroupTime: Duration?
    private var settledOffset: Duration = .zero

    /// A corrector.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Whether a rate correction is running.
    public var isCorrecting: Bool { multiplier != 1 + trim }

    /// The decision for an offset measured at a group time.
    ///
    /// - Parameter offset: the player's position minus the expected one, in group time at the
    ///   group's rate (positive when the player is ahead).
    public mutating func decide(offset: Duration, at groupTime: Duration) -> Decision {
        let magnitude = offset < .zero ? .zero - offset : offset
        if magnitude >= configuration.seekThreshold {
            correctionCount += 1
            multiplier = 1 + trim
            settle(at: groupTime, offset: .zero)
            return .seek
        }
        if isCorrecting {
            let correctingAhead = multiplier < 1 + trim
            let overshot = correctingAhead ? offset < .zero : offset > .zero
            guard magnitude <= configuration.settleTolerance || overshot else { return .none }
            multiplier = 1 + trim
            settle(at: groupTime, offset: offset)
            return .adjustRate(multiplier: multiplier)
        }
        guard magnitude >= configuration.tolerance else { return .none }
        correctionCount += 1
        learnTrim(offset: offset, at: groupTime)
        let fraction = offset / configuration.correctionPeriod
        let adjustment = min(max(fraction, -configuration.maximumRateAdjustment), configuration.maximumRateAdjustment)
        multiplier = 1 + trim - adjustment
        return .adjustRate(multiplier: multiplier)
    }

    /// Forgets the running correction (after the player was re-anchored by a command); keeps the trim.
    public mutating func reset(at groupTime: Duration) {
        multiplier = 1 + trim
        settle(at: groupTime, offset: .zero)
    }

    private mutating func settle(at groupTime: Duration, offset: Duration) {
        settledGroupTime = groupTime
        settledOffset = offset
    }

    private mutating func learnTrim(offset: Duration, at groupTime: Duration) {
        guard let settledGroupTime, groupTime > settledGroupTime else { return }
        let drift = (offset - settledOffset) / (groupTime - settledGroupTime)
        trim = min(max(trim - drift, -configuration.maximumTrim), configuration.maximumTrim)
    }
}
