extension MediaTime {
    /// A `Duration` (a clock's time) as a media time, to the nanosecond (finer parts are dropped).
    public init(_ duration: Duration) {
        // Whole nanoseconds, truncated toward zero, by two 64-bit divisions of the 128-bit
        // attosecond count (`components` divides in 128 bits, and this runs at every input).
        let attoseconds = duration.attoseconds
        let magnitude = attoseconds.magnitude
        let (highQuotient, highRemainder) = UInt64(truncatingIfNeeded: magnitude >> 64).quotientAndRemainder(dividingBy: 1_000_000_000)
        let (lowQuotient, _) = UInt64(1_000_000_000).dividingFullWidth((high: highRemainder, low: UInt64(truncatingIfNeeded: magnitude)))
        let nanoseconds = Int128((UInt128(highQuotient) << 64) | UInt128(lowQuotient))
        guard let value = Int64(exactly: attoseconds < 0 ? -nanoseconds : nanoseconds) else {
            preconditionFailure("\(duration) does not fit in nanoseconds of a media time")
        }
        self.init(value: value, timescale: 1_000_000_000)
    }

    /// A playback rate as an exact fraction with a denominator up to a million (exact for rates
    /// written with up to six decimals, such as 1.05 or 0.5); 0/1 for a rate that is not finite.
    public static func ratio(approximating rate: Double) -> (numerator: Int64, denominator: Int64) {
        guard rate.isFinite else { return (0, 1) }
        let denominator: Int64 = 1_000_000
        let numerator = Int64((rate * Double(denominator)).rounded())
        var (a, b) = (abs(numerator), denominator)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = Swift.max(a, 1)
        return (numerator / divisor, denominator / divisor)
    }

    /// How far a timeline moving at `rate` advances in `elapsed` of clock time (exact, from the
    /// elapsed time to the nanosecond); zero when the product cannot be represented.
    public init(advancing elapsed: Duration, atRate rate: Double) {
        let (numerator, denominator) = MediaTime.ratio(approximating: rate)
        self = MediaTime(elapsed).multiplied(byRatio: numerator, denominator) ?? .zero
    }
}

extension Duration {
    /// A media time as a `Duration`, rounded to the nanosecond; zero when it is not a number.
    public init(rounding time: MediaTime) {
        guard time.isNumeric, let nanoseconds = time.converted(toTimescale: 1_000_000_000)?.value else {
            self = .zero
            return
        }
        self = .nanoseconds(nanoseconds)
    }
}
