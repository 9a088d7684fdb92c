extension MediaTime {
    /// A `Duration` (a clock's time) as a media time, to the nanosecond (finer parts are dropped).
    public init(_ duration: Duration) {
        self.init(value: duration.wholeUnits(ofAttoseconds: 1_000_000_000).units, timescale: 1_000_000_000)
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

extension Duration {
    /// How many whole `unit`s (given in attoseconds: 1_000_000_000 for nanoseconds,
    /// 1_000_000_000_000_000_000 for seconds) the duration holds, and the attoseconds left over,
    /// both truncated toward zero as ``components`` are. Two 64-bit divisions where `components`
    /// divides in 128 bits: clocks are read this way at every input.
    ///
    /// - Precondition: `unit > 0`, and the count fits in an `Int64`.
    public func wholeUnits(ofAttoseconds unit: UInt64) -> (units: Int64, remainder: Int64) {
        precondition(unit > 0, "a unit of time must be positive")
        let attoseconds = self.attoseconds
        // Within ±9.2 s one 64-bit division does (Swift's, truncating toward zero like `components`).
        if let small = Int64(exactly: attoseconds), let divisor = Int64(exactly: unit) {
            let (units, remainder) = small.quotientAndRemainder(dividingBy: divisor)
            return (units, remainder)
        }
        let magnitude = attoseconds.magnitude
        let (highQuotient, highRemainder) = UInt64(truncatingIfNeeded: magnitude >> 64).quotientAndRemainder(dividingBy: unit)
        let (lowQuotient, remainder) = unit.dividingFullWidth((high: highRemainder, low: UInt64(truncatingIfNeeded: magnitude)))
        guard highQuotient == 0, let units = Int64(exactly: lowQuotient) else {
            preconditionFailure("\(self) holds too many units of \(unit) attoseconds for an Int64")
        }
        // The remainder is below the unit, so it fits in an Int64 when the unit does.
        let left = Int64(truncatingIfNeeded: remainder)
        return attoseconds < 0 ? (-units, -left) : (units, left)
    }
}
