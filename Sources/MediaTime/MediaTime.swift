/// An exact point or span on a media timeline, as a rational number of seconds.
///
/// `MediaTime` is `value / timescale` seconds, like Core Media's `CMTime`, so that durations such as
/// `9.009` (an NTSC-rate segment) add up along a two-hour timeline without drifting:
///
///     let a = MediaTime(decimal: "9.009")!      // 9009/1000
///     let b = a + a + a                          // 27027/1000, exactly 27.027
///     b == MediaTime(value: 27027, timescale: 1000)   // true
///
/// Besides numeric times there are four special values with `CMTime`'s meaning: ``invalid``,
/// ``indefinite`` (for example the duration of a live stream), ``positiveInfinity`` and
/// ``negativeInfinity``.
///
/// Arithmetic never loses precision: when two timescales differ, the result uses their least common
/// multiple, reduced when it would not fit. An operation whose exact result cannot be represented
/// traps with a message; the `…ReportingOverflow` and `checked…` variants return `nil` instead.
public struct MediaTime: Sendable {
    /// The numerator: a count of `1/timescale` second units. Meaningless unless ``isNumeric``.
    public let value: Int64
    /// The denominator: units per second. Positive for numeric times; zero for the special values.
    public let timescale: Int32
    @usableFromInline let kind: Kind

    @usableFromInline enum Kind: UInt8, Sendable {
        case numeric, negativeInfinity, positiveInfinity, indefinite, invalid
    }

    /// The largest timescale this type produces when it has a choice (nanoseconds).
    public static let maximumDecimalTimescale: Int32 = 1_000_000_000

    /// Creates `value / timescale` seconds.
    ///
    /// - Precondition: `timescale > 0`.
    @inlinable
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive, got \(timescale)")
        self.value = value
        self.timescale = timescale
        self.kind = .numeric
    }

    /// A whole number of seconds.
    public init(seconds: Int64) {
        self.init(value: seconds, timescale: 1)
    }

    private init(special kind: Kind) {
        self.value = 0
        self.timescale = 0
        self.kind = kind
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)
    /// Not a time: the result of an undefined operation, or "no value" where `CMTime` would use it.
    public static let invalid = MediaTime(special: .invalid)
    /// A time that is not known yet but exists, such as the duration of a live stream.
    public static let indefinite = MediaTime(special: .indefinite)
    /// Later than every numeric time.
    public static let positiveInfinity = MediaTime(special: .positiveInfinity)
    /// Earlier than every numeric time.
    public static let negativeInfinity = MediaTime(special: .negativeInfinity)

    /// Whether this is an ordinary finite time.
    @inlinable public var isNumeric: Bool { kind == .numeric }
    /// Whether this is ``invalid``.
    public var isInvalid: Bool { kind == .invalid }
    /// Whether this is ``indefinite``.
    public var isIndefinite: Bool { kind == .indefinite }
    /// Whether this is ``positiveInfinity``.
    public var isPositiveInfinity: Bool { kind == .positiveInfinity }
    /// Whether this is ``negativeInfinity``.
    public var isNegativeInfinity: Bool { kind == .negativeInfinity }
    /// Whether this is valid, numeric or not (everything but ``invalid``).
    public var isValid: Bool { kind != .invalid }

    /// The time in seconds as a `Double`, for display and for APIs that need one.
    ///
    /// Never accumulate these along a timeline; add `MediaTime`s instead. Special values map to
    /// `nan` (invalid, indefinite) and `±infinity`.
    public var seconds: Double {
        switch kind {
        case .numeric: return Double(value) / Double(timescale)
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .indefinite, .invalid: return .nan
        }
    }

    /// Creates the numeric time nearest to `seconds` at `preferredTimescale`, rounding half away
    /// from zero; `nil` for a non-finite value or one out of range.
    public init?(seconds: Double, preferredTimescale: Int32 = maximumDecimalTimescale) {
        guard seconds.isFinite, preferredTimescale > 0 else { return nil }
        let scaled = seconds * Double(preferredTimescale)
        guard scaled >= -0x1p63, scaled < 0x1p63 else { return nil }
        // Truncate, then step away from zero, rather than call `rounded`: on Linux that lowers to
        // libm's `round`, which an executable linking MediaTime without Foundation fails to find.
        // The remainder is exact: below 2⁵² the subtraction is exact, above it `scaled` is whole.
        var units = Int64(scaled)
        let remainder = scaled - Double(units)
        if remainder >= 0.5 {
            units += 1
        } else if remainder <= -0.5 {
            units -= 1
        }
        self.init(value: units, timescale: preferredTimescale)
    }

    /// The same time reduced to lowest terms (numeric times only; special values unchanged).
    public var reduced: MediaTime {
        guard isNumeric else { return self }
        if value == 0 { return .zero }
        let divisor = gcd(value.magnitude, UInt64(timescale))
        return MediaTime(value: value / Int64(divisor), timescale: Int32(UInt64(timescale) / divisor))
    }

    /// Whether this time is numeric and exactly zero.
    @inlinable public var isZero: Bool { isNumeric && value == 0 }

    /// Whether this time is numeric and below zero.
    @inlinable public var isNegative: Bool { kind == .negativeInfinity || (isNumeric && value < 0) }

    /// The absolute value, trapping only for `Int64.min` units.
    public var magnitude: MediaTime {
        switch kind {
        case .numeric: return MediaTime(value: value < 0 ? -value : value, timescale: timescale)
        case .negativeInfinity: return .positiveInfinity
        default: return self
        }
    }
}

// MARK: - Exact rational arithmetic

extension MediaTime {
    /// Builds a numeric time from an exact rational given in 128-bit arithmetic, reducing it when the
    /// numerator or the denominator would not fit. Returns `nil` when even the reduced form does not.
    static func exact(numerator: Int128, denominator: Int128) -> MediaTime? {
        precondition(denominator > 0)
        var numerator = numerator
        var denominator = denominator
        if denominator > Int128(Int32.max) || numerator > Int128(Int64.max) || numerator < Int128(Int64.min) {
            let divisor = gcd128(numerator.magnitude, denominator.magnitude)
            numerator /= Int128(divisor)
            denominator /= Int128(divisor)
        }
        guard denominator <= Int128(Int32.max), let value = Int64(exactly: numerator) else { return nil }
        return MediaTime(value: value, timescale: Int32(denominator))
    }

    /// Adds two times exactly; `nil` when the exact sum cannot be represented.
    ///
    /// Special values follow `CMTimeAdd`: invalid wins; `+∞ + −∞` is invalid; otherwise an infinity
    /// wins over everything else; otherwise indefinite wins over numeric times.
    public func addingReportingOverflow(_ other: MediaTime) -> MediaTime? {
        if let special = Self.combineSpecial(self, other, negateOther: false) { return special }
        if let (a, b, scale) = Self.sameScale(self, other) {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return MediaTime(value: sum, timescale: scale) }
        }
        let (numerator, denominator) = Self.commonTerms(self, other)
        return Self.exact(numerator: numerator.0 + numerator.1, denominator: denominator)
    }

    /// Subtracts `other` exactly; `nil` when the exact difference cannot be represented.
    public func subtractingReportingOverflow(_ other: MediaTime) -> MediaTime? {
        if let special = Self.combineSpecial(self, other, negateOther: true) { return special }
        if let (a, b, scale) = Self.sameScale(self, other) {
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            if !overflow { return MediaTime(value: difference, timescale: scale) }
        }
        let (numerator, denominator) = Self.commonTerms(self, other)
        return Self.exact(numerator: numerator.0 - numerator.1, denominator: denominator)
    }

    /// Multiplies by an integer exactly; `nil` on overflow.
    ///
    /// An infinity keeps its magnitude and takes the product of the signs, except that `±∞ × 0` is
    /// ``invalid``; indefinite and invalid times are unchanged.
    public func multipliedReportingOverflow(by factor: Int64) -> MediaTime? {
        switch kind {
        case .numeric:
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            if !overflow { return MediaTime(value: product, timescale: timescale) }
            return Self.exact(numerator: Int128(value) * Int128(factor), denominator: Int128(timescale))
        case .positiveInfinity, .negativeInfinity:
            if factor == 0 { return .invalid }
            return (factor < 0) == (kind == .positiveInfinity) ? .negativeInfinity : .positiveInfinity
        case .indefinite, .invalid:
            return self
        }
    }

    /// Multiplies by the rational `numerator / denominator` (for example a playback rate of 21/20):
    /// exact when the product can be represented, otherwise rounded half away from zero to this
    /// time's timescale; `nil` on overflow or a zero denominator.
    public func multiplied(byRatio numerator: Int64, _ denominator: Int64) -> MediaTime? {
        guard denominator != 0 else { return nil }
        guard isNumeric else { return multipliedReportingOverflow(by: numerator.signum() * denominator.signum()) }
        var top = Int128(value) * Int128(numerator)
        var bottom = Int128(denominator) * Int128(timescale)
        if bottom < 0 { (top, bottom) = (-top, -bottom) }
        if let exact = Self.exact(numerator: top, denominator: bottom) { return exact }
        let units = Self.divideRounded(Int128(value) * Int128(numerator), Int128(denominator))
        guard let value = Int64(exactly: units) else { return nil }
        return MediaTime(value: value, timescale: timescale)
    }

    /// `self × numerator / denominator` expressed with `newTimescale`, rounded once, half away from
    /// zero: for a time already in `newTimescale`, the same as ``multiplied(byRatio:_:)`` followed
    /// by ``converted(toTimescale:exactOnly:)``, in one division (a playhead advancing at a
    /// drift-corrected rate, at every input). `nil` on overflow, a zero denominator or a time that
    /// is not numeric.
    public func multiplied(byRatio numerator: Int64, _ denominator: Int64, toTimescale newTimescale: Int32) -> MediaTime? {
        precondition(newTimescale > 0, "MediaTime timescale must be positive, got \(newTimescale)")
        guard denominator != 0, isNumeric else { return nil }
        let (scaled, overflow) = (Int128(value) * Int128(numerator)).multipliedReportingOverflow(by: Int128(newTimescale))
        guard !overflow else { return nil }
        let units = Self.divideRounded(scaled, Int128(denominator) * Int128(timescale))
        guard let value = Int64(exactly: units) else { return nil }
        return MediaTime(value: value, timescale: newTimescale)
    }

    /// The same time expressed with `newTimescale`, rounding half away from zero when it is not a
    /// multiple; `nil` if the result does not fit.
    ///
    /// - Parameter exactOnly: when `true`, returns `nil` instead of rounding.
    public func converted(toTimescale newTimescale: Int32, exactOnly: Bool = false) -> MediaTime? {
        precondition(newTimescale > 0, "MediaTime timescale must be positive, got \(newTimescale)")
        guard isNumeric else { return self }
        if newTimescale == timescale { return self }
        let numerator = Int128(value) * Int128(newTimescale)
        let denominator = Int128(timescale)
        if exactOnly, numerator % denominator != 0 { return nil }
        guard let units = Int64(exactly: Self.divideRounded(numerator, denominator)) else { return nil }
        return MediaTime(value: units, timescale: newTimescale)
    }

    /// Whole `1/timescale` units, truncated toward negative infinity: used to index frames and
    /// samples. `nil` for a special value, a timescale that is not positive, or a result that does
    /// not fit.
    public func floorUnits(timescale target: Int32) -> Int64? {
        guard isNumeric, target > 0 else { return nil }
        let numerator = Int128(value) * Int128(target)
        let denominator = Int128(timescale)
        var quotient = numerator / denominator
        if numerator % denominator != 0, numerator < 0 { quotient -= 1 }
        return Int64(exactly: quotient)
    }

    private static func divideRounded(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let negative = (numerator < 0) != (denominator < 0)
        let n = numerator.magnitude
        let d = denominator.magnitude
        let rounded = (n + d / 2) / d
        return negative ? -Int128(rounded) : Int128(rounded)
    }

    /// Both values in the larger timescale when it is a multiple of the other (the common case:
    /// nanoseconds against seconds or milliseconds), as the general path would give them, without
    /// its 128-bit arithmetic; `nil` otherwise or when a value does not fit.
    private static func sameScale(_ a: MediaTime, _ b: MediaTime) -> (Int64, Int64, Int32)? {
        if a.timescale == b.timescale { return (a.value, b.value, a.timescale) }
        if a.timescale > b.timescale {
            guard a.timescale % b.timescale == 0 else { return nil }
            let (scaled, overflow) = b.value.multipliedReportingOverflow(by: Int64(a.timescale / b.timescale))
            return overflow ? nil : (a.value, scaled, a.timescale)
        }
        guard b.timescale % a.timescale == 0 else { return nil }
        let (scaled, overflow) = a.value.multipliedReportingOverflow(by: Int64(b.timescale / a.timescale))
        return overflow ? nil : (scaled, b.value, b.timescale)
    }

    private static func commonTerms(_ a: MediaTime, _ b: MediaTime) -> ((Int128, Int128), Int128) {
        let ta = Int128(a.timescale)
        let tb = Int128(b.timescale)
        let divisor = Int128(gcd128(ta.magnitude, tb.magnitude))
        let lcm = ta / divisor * tb
        return ((Int128(a.value) * (lcm / ta), Int128(b.value) * (lcm / tb)), lcm)
    }

    /// The result of `a ± b` when either is a special value, with `CMTimeAdd`'s precedence:
    /// invalid, then opposite infinities (invalid), then an infinity, then indefinite.
    private static func combineSpecial(_ a: MediaTime, _ b: MediaTime, negateOther: Bool) -> MediaTime? {
        if a.kind == .numeric, b.kind == .numeric { return nil }
        if a.kind == .invalid || b.kind == .invalid { return .invalid }
        var bKind = b.kind
        if negateOther {
            if bKind == .positiveInfinity {
                bKind = .negativeInfinity
            } else if bKind == .negativeInfinity {
                bKind = .positiveInfinity
            }
        }
        switch (a.kind, bKind) {
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): return .invalid
        case (.positiveInfinity, _), (_, .positiveInfinity): return .positiveInfinity
        case (.negativeInfinity, _), (_, .negativeInfinity): return .negativeInfinity
        default: return .indefinite
        }
    }

    /// Adds exactly; traps when the exact sum cannot be represented.
    ///
    /// Inlined for the common case of two numeric times with the same timescale.
    @inlinable
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if lhs.kind == .numeric, rhs.kind == .numeric, lhs.timescale == rhs.timescale {
            let (sum, overflow) = lhs.value.addingReportingOverflow(rhs.value)
            if !overflow { return MediaTime(value: sum, timescale: lhs.timescale) }
        }
        return add(lhs, rhs)
    }

    @usableFromInline
    static func add(_ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        guard let sum = lhs.addingReportingOverflow(rhs) else {
            preconditionFailure("MediaTime overflow: \(lhs) + \(rhs) cannot be represented exactly")
        }
        return sum
    }

    /// Subtracts exactly; traps when the exact difference cannot be represented.
    ///
    /// Inlined for the common case of two numeric times with the same timescale.
    @inlinable
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if lhs.kind == .numeric, rhs.kind == .numeric, lhs.timescale == rhs.timescale {
            let (difference, overflow) = lhs.value.subtractingReportingOverflow(rhs.value)
            if !overflow { return MediaTime(value: difference, timescale: lhs.timescale) }
        }
        return subtract(lhs, rhs)
    }

    @usableFromInline
    static func subtract(_ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        guard let difference = lhs.subtractingReportingOverflow(rhs) else {
            preconditionFailure("MediaTime overflow: \(lhs) - \(rhs) cannot be represented exactly")
        }
        return difference
    }

    /// Multiplies by an integer exactly; traps on overflow.
    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime {
        guard let product = lhs.multipliedReportingOverflow(by: rhs) else {
            preconditionFailure("MediaTime overflow: \(lhs) * \(rhs) cannot be represented exactly")
        }
        return product
    }

    /// Negates; `−∞` and `+∞` swap, other special values are unchanged.
    public static prefix func - (operand: MediaTime) -> MediaTime {
        MediaTime.zero - operand
    }

    /// Adds in place; traps when the exact sum cannot be represented.
    @inlinable public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }

    /// Subtracts in place; traps when the exact difference cannot be represented.
    @inlinable public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }
}

// MARK: - Comparison and hashing

extension MediaTime: Comparable, Hashable {
    /// Compares exactly, across timescales. Order: `−∞` < numeric < indefinite < `+∞` < invalid,
    /// as `CMTimeCompare` orders them.
    @inlinable
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.kind == .numeric, rhs.kind == .numeric {
            if lhs.timescale == rhs.timescale { return lhs.value < rhs.value }
            // Cross products in full width: an Int64 times an Int32 cannot overflow 128 bits.
            let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
            let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
            return (left.high, left.low) < (right.high, right.low)
        }
        return lhs.orderRank < rhs.orderRank
    }

    /// Equal when they denote the same instant: `1/2 == 500/1000`.
    @inlinable
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.kind != rhs.kind { return false }
        guard lhs.kind == .numeric else { return true }
        if lhs.timescale == rhs.timescale { return lhs.value == rhs.value }
        let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        return (left.high, left.low) == (right.high, right.low)
    }

    /// Hashes the reduced form, so that equal times hash alike.
    public func hash(into hasher: inout Hasher) {
        let canonical = reduced
        hasher.combine(kind.rawValue)
        hasher.combine(canonical.value)
        hasher.combine(canonical.timescale)
    }

    @usableFromInline var orderRank: Int {
        switch kind {
        case .negativeInfinity: return 0
        case .numeric: return 1
        case .indefinite: return 2
        case .positiveInfinity: return 3
        case .invalid: return 4
        }
    }
}

func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

func gcd128(_ a: UInt128, _ b: UInt128) -> UInt128 {
    var (a, b) = (a, b)
    while b != 0 {
        // Once both fit in 64 bits (timescales always do), finish with the processor's division.
        if a <= UInt128(UInt64.max), b <= UInt128(UInt64.max) { return UInt128(gcd(UInt64(a), UInt64(b))) }
        (a, b) = (b, a % b)
    }
    return a == 0 ? 1 : a
}
