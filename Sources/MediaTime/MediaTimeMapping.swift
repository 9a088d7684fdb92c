/// A correspondence between a span of one timeline (`source`, for example a primary item's own
/// time) and a span of another (`target`, for example the integrated timeline), like
/// `CMTimeMapping`.
///
/// When both have the same duration the mapping is a translation. When the target is empty (a
/// point break on the integrated timeline) every source time maps to the target's start. When the
/// source is empty (nothing of the source plays there) every target time maps to the source's start.
public struct MediaTimeMapping: Sendable, Hashable, Codable {
    /// The span on the source timeline.
    public var source: MediaTimeRange
    /// The span on the target timeline.
    public var target: MediaTimeRange

    /// A mapping of `source` onto `target`.
    public init(source: MediaTimeRange, target: MediaTimeRange) {
        self.source = source
        self.target = target
    }

    /// The target time for a source time, clamped to the source span and then mapped onto the
    /// target span. Spans of different numeric durations scale linearly: exactly when the result
    /// can be represented, otherwise rounded half away from zero to the target duration's
    /// timescale. When either duration is open-ended (indefinite or infinite) the mapping is a
    /// translation, clamped to the target span. An invalid or indefinite time maps to itself.
    public func targetTime(forSource time: MediaTime) -> MediaTime {
        Self.map(time, from: source, to: target)
    }

    /// The source time for a target time (the inverse of ``targetTime(forSource:)``).
    public func sourceTime(forTarget time: MediaTime) -> MediaTime {
        Self.map(time, from: target, to: source)
    }

    private static func map(_ time: MediaTime, from: MediaTimeRange, to: MediaTimeRange) -> MediaTime {
        if time.isInvalid || time.isIndefinite { return time }
        if to.duration.isZero || from.duration.isZero { return to.start }
        let offset = from.clamp(time) - from.start
        if from.duration == to.duration { return to.start + offset }
        guard from.duration.isNumeric, to.duration.isNumeric else { return to.clamp(to.start + offset) }
        return to.start + scale(offset, by: to.duration, over: from.duration)
    }

    /// `offset × numerator / denominator` for `0 ≤ offset ≤ denominator` and positive durations.
    ///
    /// The fraction `offset / denominator` lies in `[0, 1]`, so the rounded result never exceeds
    /// `numerator` and always fits; only the exact form can fail to, and 128-bit products with a
    /// 256-bit division keep every intermediate from overflowing.
    private static func scale(_ offset: MediaTime, by numerator: MediaTime, over denominator: MediaTime) -> MediaTime {
        let a = offset.reduced
        let b = numerator.reduced
        let c = denominator.reduced
        // f = a / c, both factors below 2⁹⁴.
        var fractionTop = UInt128(a.value.magnitude) * UInt128(c.timescale)
        var fractionBottom = UInt128(a.timescale) * UInt128(c.value.magnitude)
        let common = gcd128(fractionTop, fractionBottom)
        fractionTop /= common
        fractionBottom /= common
        if fractionTop == 0 { return .zero }
        // Exact: f × b in lowest terms, cancelling across before multiplying.
        let g1 = gcd128(fractionTop, UInt128(b.timescale))
        let g2 = gcd128(UInt128(b.value.magnitude), fractionBottom)
        let (top, o1) = (fractionTop / g1).multipliedReportingOverflow(by: UInt128(b.value.magnitude) / g2)
        let (bottom, o2) = (fractionBottom / g2).multipliedReportingOverflow(by: UInt128(b.timescale) / g1)
        if !o1, !o2, bottom <= UInt128(Int32.max), let value = Int64(exactly: top) {
            return MediaTime(value: value, timescale: Int32(bottom))
        }
        // Rounded: f × b.value units of 1/b.timescale, via a full-width product.
        let product = fractionTop.multipliedFullWidth(by: UInt128(b.value.magnitude))
        var (units, remainder) = fractionBottom.dividingFullWidth(product)
        if remainder >= fractionBottom - remainder { units += 1 }
        return MediaTime(value: Int64(units), timescale: b.timescale)
    }
}
