extension GroupClockEstimate: GroupTimeMapping {}

extension GroupClockEstimate {
    /// The estimate of a participant whose own clock is the group clock (it keeps the group clock,
    /// or runs alone): no offset, no drift, no error.
    public static let exact = GroupClockEstimate(
        referenceLocalTime: .zero, offset: .zero, driftPartsPerMillion: 0,
        uncertainty: .zero, maximumError: .zero, minimumRoundTripTime: .zero, sampleCount: 0)
}
