import MediaTime

/// Exact conversions between group-clock durations and media times at a rate.
enum GroupTimeArithmetic {
    /// A `Duration` as a media time, at nanosecond resolution.
    static func mediaTime(_ duration: Duration) -> MediaTime {
        let (seconds, attoseconds) = duration.components
        return MediaTime(value: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, timescale: 1_000_000_000)
    }

    /// A media time as a `Duration`, rounded to the nanosecond.
    static func duration(_ time: MediaTime) -> Duration {
        guard time.isNumeric, let nanoseconds = time.converted(toTimescale: 1_000_000_000)?.value else { return .zero }
        return .nanoseconds(nanoseconds)
    }

    /// A rate as a fraction with a denominator up to a million (exact for rates with up to six
    /// decimals, such as 1.05 or 0.5).
    static func fraction(_ rate: Double) -> (Int64, Int64) {
        guard rate.isFinite else { return (0, 1) }
        let denominator: Int64 = 1_000_000
        let numerator = Int64((rate * Double(denominator)).rounded())
        var (a, b) = (abs(numerator), denominator)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        return (numerator / divisor, denominator / divisor)
    }

    /// How far a timeline moving at `rate` advances in `elapsed` group time.
    static func advance(_ elapsed: Duration, rate: Double) -> MediaTime {
        let (numerator, denominator) = fraction(rate)
        return mediaTime(elapsed).multiplied(byRatio: numerator, denominator) ?? .zero
    }

    /// How much group time a timeline moving at `rate` takes to advance by `distance` (rounded up
    /// to the nanosecond, so that the distance has been covered by then).
    static func groupDuration(toAdvance distance: MediaTime, rate: Double) -> Duration {
        let (numerator, denominator) = fraction(rate)
        guard numerator != 0, let scaled = distance.multiplied(byRatio: denominator, numerator) else { return .zero }
        guard let nanoseconds = scaled.converted(toTimescale: 1_000_000_000)?.value else { return .zero }
        let rounded = MediaTime(value: nanoseconds, timescale: 1_000_000_000)
        return .nanoseconds(nanoseconds + (rounded < scaled ? 1 : 0))
    }
}
