import MediaTime
import TestSupport

/// Seeds every property test runs with.
let propertySeeds: [UInt64] = [1, 42, 0xC0FFEE, 20_250_101]

/// Timescales found in media, mixed with arbitrary ones so that cross-timescale arithmetic meets
/// least common multiples that both fit and do not fit in `Int32`.
let mediaTimescales: [Int32] = [1, 10, 25, 600, 1000, 24_000, 30_000, 44_100, 48_000, 90_000, 1_000_000_000]

/// Media timescales whose least common multiple (35,280,000) fits in `Int32`, for tests that need
/// every sum to be representable.
let compatibleTimescales: [Int32] = [1, 10, 25, 600, 1000, 24_000, 30_000, 44_100, 48_000, 90_000]

extension SeededGenerator {
    /// A timescale that is usually a media one and sometimes anything in `1...Int32.max`.
    mutating func timescale() -> Int32 {
        if Int.random(in: 0..<4, using: &self) == 0 { return Int32.random(in: 1...Int32.max, using: &self) }
        return mediaTimescales.randomElement(using: &self)!
    }

    /// A numeric time of at most `bits` (≤ 63) bits of units, of either sign, at `timescale()`.
    mutating func time(bits: Int = 40, timescale: Int32? = nil) -> MediaTime {
        let limit = Int64.max >> (63 - bits)
        let value = Int64.random(in: -limit...limit, using: &self)
        return MediaTime(value: value, timescale: timescale ?? self.timescale())
    }
}

/// An exact rational in lowest terms with a positive denominator: the oracle the tests check
/// `MediaTime` against, written independently of its arithmetic.
struct Rational: Equatable {
    let numerator: Int128
    let denominator: Int128

    init(_ numerator: Int128, _ denominator: Int128) {
        precondition(denominator != 0)
        let sign: Int128 = denominator < 0 ? -1 : 1
        var (a, b) = (numerator.magnitude, denominator.magnitude)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = Int128(a == 0 ? 1 : a)
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    init(_ time: MediaTime) {
        precondition(time.isNumeric)
        self.init(Int128(time.value), Int128(time.timescale))
    }

    static func + (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator + rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    static func - (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator - rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    static func * (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.numerator, lhs.denominator * rhs.denominator)
    }

    static func / (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator, lhs.denominator * rhs.numerator)
    }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`, by long division (no cross product).
    static func compare(_ lhs: Rational, _ rhs: Rational) -> Int {
        var (a, b) = (lhs, rhs)
        var flipped = false
        while true {
            let (qa, ra) = a.floorDivision
            let (qb, rb) = b.floorDivision
            if qa != qb { return (qa < qb) != flipped ? -1 : 1 }
            if ra == 0 || rb == 0 {
                if ra == rb { return 0 }
                return (ra == 0) != flipped ? -1 : 1
            }
            // Compare ra/a.d with rb/b.d, both in (0, 1): the larger has the smaller reciprocal.
            (a, b) = (Rational(a.denominator, ra), Rational(b.denominator, rb))
            flipped.toggle()
        }
    }

    private var floorDivision: (Int128, Int128) {
        var quotient = numerator / denominator
        var remainder = numerator % denominator
        if remainder < 0 {
            quotient -= 1
            remainder += denominator
        }
        return (quotient, remainder)
    }

    /// The `MediaTime` this rational denotes, if its lowest terms fit.
    var mediaTime: MediaTime? {
        guard let value = Int64(exactly: numerator), let timescale = Int32(exactly: denominator) else { return nil }
        return MediaTime(value: value, timescale: timescale)
    }
}
