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

    /// The target time for a source time, translating and clamping to the target span. Spans of
    /// different non-zero durations scale linearly (exactly, when representable).
    public func targetTime(forSource time: MediaTime) -> MediaTime {
        Self.map(time, from: source, to: target)
    }

    /// The source time for a target time (the inverse of ``targetTime(forSource:)``).
    public func sourceTime(forTarget time: MediaTime) -> MediaTime {
        Self.map(time, from: target, to: source)
    }

    private static func map(_ time: MediaTime, from: MediaTimeRange, to: MediaTimeRange) -> MediaTime {
        if to.duration.isZero || from.duration.isZero { return to.start }
        let offset = from.clamp(time) - from.start
        if from.duration == to.duration { return to.start + offset }
        // Scale: offset * to.duration / from.duration, in exact rational arithmetic where possible.
        let a = offset.reduced
        let b = to.duration.reduced
        let c = from.duration.reduced
        let numerator = Int128(a.value) * Int128(b.value) * Int128(c.timescale)
        let denominator = Int128(a.timescale) * Int128(b.timescale) * Int128(c.value)
        if let scaled = MediaTime.exact(numerator: numerator, denominator: denominator) {
            return to.start + scaled
        }
        let seconds = offset.seconds * to.duration.seconds / from.duration.seconds
        return to.start + (MediaTime(seconds: seconds) ?? .zero)
    }
}
