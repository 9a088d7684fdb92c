import MediaTime

/// How a participant converts between its own host clock and the group clock (the clock
/// estimator's current estimate, or an exact mapping in tests).
public protocol GroupTimeMapping: Sendable {
    /// The group time when the local clock reads `localTime`.
    func groupTime(atLocalTime localTime: Duration) -> Duration
    /// The local time when the group clock reads `groupTime`.
    func localTime(atGroupTime groupTime: Duration) -> Duration
    /// Group seconds per local second (1 + the local clock's estimated drift): a player on the
    /// local clock plays at the group's rate times this to keep pace with the group clock.
    var rateRatio: Double { get }
}

/// Local time is group time (one machine, or a test).
public struct SharedClock: GroupTimeMapping {
    /// The identity mapping.
    public init() {}
    public func groupTime(atLocalTime localTime: Duration) -> Duration { localTime }
    public func localTime(atGroupTime groupTime: Duration) -> Duration { groupTime }
    public var rateRatio: Double { 1 }
}
extension GroupClockEstimate: GroupTimeMapping {}

extension GroupClockEstimate {
    /// The estimate of a participant whose own clock is the group clock (it keeps the group clock,
    /// or runs alone): no offset, no drift, no error.
    public static let exact = GroupClockEstimate(
        referenceLocalTime: .zero, offset: .zero, driftPartsPerMillion: 0,
        uncertainty: .zero, maximumError: .zero, minimumRoundTripTime: .zero, sampleCount: 0)
}
