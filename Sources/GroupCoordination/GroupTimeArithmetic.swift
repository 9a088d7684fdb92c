import MediaTime

/// Conversions between group-clock durations and media times at a rate, and the sums and
/// differences of times that may have come from the network: none of them traps.
///
/// Times on the wire are whole nanoseconds within ±2⁵³ ns (docs/group-protocol.md, "Bounds"), so
/// these results fit; the checked forms keep a hostile or unforeseen value from trapping a peer
/// even so.
enum GroupTimeArithmetic {
    /// How far a timeline moving at `rate` advances in `elapsed` group time, to the nanosecond
    /// (rounded half away from zero): an exact product such as `elapsed × ½` could have a timescale
    /// that no sum with a nanosecond time can hold. Zero when it cannot be represented.
    static func advance(_ elapsed: Duration, rate: Double) -> MediaTime {
        let (numerator, denominator) = MediaTime.ratio(approximating: rate)
        return MediaTime(elapsed).multiplied(byRatio: numerator, denominator, toTimescale: nanosecondTimescale) ?? .zero
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

    private static let nanosecondTimescale: Int32 = 1_000_000_000

    /// `a + b`: exact when it can be represented, otherwise the sum of both rounded to the
    /// nanosecond, clamped to ±`Int64.max` nanoseconds (so that its magnitude exists too).
    static func sum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        if let exact = a.addingReportingOverflow(b) { return exact }
        return clampedNanoseconds(nanoseconds(a) + nanoseconds(b))
    }

    /// `a − b`, as ``sum(_:_:)``.
    static func difference(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        if let exact = a.subtractingReportingOverflow(b) { return exact }
        return clampedNanoseconds(nanoseconds(a) - nanoseconds(b))
    }

    /// A numeric time in nanoseconds, rounded half away from zero (`Int64` units times 10⁹ fit 128
    /// bits). Only numeric times reach it: the exact operations handle special values.
    private static func nanoseconds(_ time: MediaTime) -> Int128 {
        let scaled = Int128(time.value) * 1_000_000_000
        let timescale = Int128(time.timescale)
        let half = timescale / 2
        return scaled >= 0 ? (scaled + half) / timescale : (scaled - half) / timescale
    }

    private static func clampedNanoseconds(_ nanoseconds: Int128) -> MediaTime {
        MediaTime(value: Int64(clamping: max(nanoseconds, -Int128(Int64.max))), timescale: nanosecondTimescale)
    }
}
