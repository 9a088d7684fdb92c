/// A half-open span `[start, start + duration)` on a media timeline, like `CMTimeRange`.
///
///     let range = MediaTimeRange(start: .zero, duration: MediaTime(seconds: 6))
///     range.contains(MediaTime(decimal: "5.999")!)   // true
///     range.contains(MediaTime(seconds: 6))          // false
public struct MediaTimeRange: Sendable, Hashable, Codable {
    /// The first instant in the range.
    public var start: MediaTime
    /// The length of the range; zero for an empty range (such as a point break on the integrated
    /// timeline), ``MediaTime/indefinite`` for an open-ended one.
    public var duration: MediaTime

    /// A range from `start` lasting `duration`.
    ///
    /// - Precondition: `duration` is not negative.
    @inlinable
    public init(start: MediaTime, duration: MediaTime) {
        precondition(!duration.isNegative, "MediaTimeRange duration must not be negative: \(duration)")
        self.start = start
        self.duration = duration
    }

    /// The range `[start, end)`.
    ///
    /// - Precondition: `end >= start`.
    @inlinable
    public init(start: MediaTime, end: MediaTime) {
        precondition(!(end < start), "MediaTimeRange end \(end) is before start \(start)")
        self.init(start: start, duration: end - start)
    }

    /// The empty range at zero.
    public static let zero = MediaTimeRange(start: .zero, duration: .zero)

    /// The first instant after the range.
    @inlinable public var end: MediaTime { start + duration }

    /// Whether the range has zero duration.
    @inlinable public var isEmpty: Bool { duration.isZero }

    /// Whether `time` is in `[start, end)`; an empty range contains nothing.
    public func contains(_ time: MediaTime) -> Bool {
        guard time.isNumeric else { return false }
        if duration.isIndefinite || duration.isPositiveInfinity { return !(time < start) }
        return !(time < start) && time < end
    }

    /// Whether `other` lies wholly inside this range.
    public func contains(_ other: MediaTimeRange) -> Bool {
        !(other.start < start) && !(end < other.end)
    }

    /// The overlap of two ranges, or `nil` when they do not overlap.
    public func intersection(_ other: MediaTimeRange) -> MediaTimeRange? {
        let lower = MediaTime.max(start, other.start)
        let upper = MediaTime.min(end, other.end)
        guard lower < upper else { return nil }
        return MediaTimeRange(start: lower, end: upper)
    }

    /// The smallest range covering both.
    public func union(_ other: MediaTimeRange) -> MediaTimeRange {
        MediaTimeRange(start: MediaTime.min(start, other.start), end: MediaTime.max(end, other.end))
    }

    /// Moves the range by `offset`.
    public func offset(by offset: MediaTime) -> MediaTimeRange {
        MediaTimeRange(start: start + offset, duration: duration)
    }

    /// `time` clamped into `[start, end]`.
    public func clamp(_ time: MediaTime) -> MediaTime {
        MediaTime.min(MediaTime.max(time, start), end)
    }
}

extension MediaTimeRange: CustomStringConvertible {
    /// `[start, end)` in decimal seconds.
    public var description: String { "[\(start), \(end))" }
}
