import MediaTime

/// Conversions between group-clock durations and media times at a rate.
enum GroupTimeArithmetic {
    /// How far a timeline moving at `rate` advances in `elapsed` group time.
    static func advance(_ elapsed: Duration, rate: Double) -> MediaTime {
        MediaTime(advancing: elapsed, atRate: rate)
    }

    /// How much group time a timeline moving at `rate` takes to advance by `distance` (rounded up
    /// to the nanosecond, so that the distance has been covered by then).
    static func groupDuration(toAdvance distance: MediaTime, rate: Double) -> Duration {
        let (numerator, denominator) = MediaTime.ratio(approximating: rate)
        guard numerator != 0, let scaled = distance.multiplied(byRatio: denominator, numerator) else { return .zero }
        guard let nanoseconds = scaled.converted(toTimescale: 1_000_000_000)?.value else { return .zero }
        let rounded = MediaTime(value: nanoseconds, timescale: 1_000_000_000)
        return .nanoseconds(nanoseconds + (rounded < scaled ? 1 : 0))
    }
}
