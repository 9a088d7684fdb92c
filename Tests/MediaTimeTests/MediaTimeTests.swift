import Foundation
import MediaTime
import TestSupport
import Testing

@Suite("MediaTime arithmetic, comparison and special values")
struct MediaTimeTests {
    // MARK: - Exact arithmetic, property tests

    @Test(
        "Addition equals the exact rational sum across random timescales, or reports overflow",
        arguments: propertySeeds
    )
    func additionMatchesRationalOracle(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var representable = 0
        for _ in 0..<3000 {
            let a = random.time()
            let b = random.time()
            let expected = Rational(a) + Rational(b)
            let sum = a.addingReportingOverflow(b)
            if let exact = expected.mediaTime {
                // Lowest terms fit, so the sum must exist and be exact.
                representable += 1
                #expect(sum.map { Rational($0) } == expected, "\(a.debugDescription) + \(b.debugDescription)")
                #expect(sum == exact)
            } else if let sum {
                // Not in lowest terms: fine only if it is still the exact value.
                #expect(Rational(sum) == expected)
            }
        }
        #expect(representable > 1000, "the generator should often produce representable sums")
    }

    @Test("Subtraction equals the exact rational difference", arguments: propertySeeds)
    func subtractionMatchesRationalOracle(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let a = random.time()
            let b = random.time()
            let expected = Rational(a) - Rational(b)
            guard expected.mediaTime != nil else { continue }
            let difference = try #require(a.subtractingReportingOverflow(b))
            #expect(Rational(difference) == expected)
        }
    }

    @Test("Addition is commutative and associative, and a + b - b == a", arguments: propertySeeds)
    func additionLaws(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var checkedAssociativity = 0
        for _ in 0..<3000 {
            let a = random.time(timescale: mediaTimescales.randomElement(using: &random))
            let b = random.time(timescale: mediaTimescales.randomElement(using: &random))
            let c = random.time(timescale: mediaTimescales.randomElement(using: &random))
            #expect(a.addingReportingOverflow(b) == b.addingReportingOverflow(a))
            if let ab = a.addingReportingOverflow(b) {
                #expect(ab.subtractingReportingOverflow(b) == a)
                #expect(ab - b == a)
            }
            if let left = a.addingReportingOverflow(b)?.addingReportingOverflow(c),
                let right = b.addingReportingOverflow(c).flatMap({ a.addingReportingOverflow($0) })
            {
                checkedAssociativity += 1
                #expect(left == right)
                #expect(Rational(left) == Rational(a) + Rational(b) + Rational(c))
            }
        }
        #expect(checkedAssociativity > 2000)
    }

    @Test("Summing 43,200 NTSC segments of 2.002 s gives exactly 86,486.4 s, with no drift")
    func noDriftOverTwelveHours() throws {
        let segment = try #require(MediaTime(decimal: "2.002"))
        var total = MediaTime.zero
        for _ in 0..<43_200 { total += segment }
        #expect(total == MediaTime(value: 2002 * 43_200, timescale: 1000))
        #expect(total == segment * 43_200)
        #expect(total.decimalString() == "86486.4")
    }

    @Test("Mixing 90 kHz and millisecond durations stays exact and uses the least common multiple")
    func crossTimescaleSum() {
        let video = MediaTime(value: 3003, timescale: 90_000)
        let audio = MediaTime(value: 21, timescale: 1000)
        let sum = video + audio
        #expect(sum.timescale == 90_000)
        #expect(sum == MediaTime(value: 3003 + 1890, timescale: 90_000))
    }

    @Test("Multiplying by an integer is exact and reports overflow")
    func integerMultiplication() {
        let frame = MediaTime(value: 1001, timescale: 30_000)
        #expect(frame * 30 == MediaTime(value: 1001, timescale: 1000))
        #expect(frame * -2 == MediaTime(value: -2002, timescale: 30_000))
        #expect(MediaTime(value: .max, timescale: 1).multipliedReportingOverflow(by: 2) == nil)
        // 2^62/4 × 2 overflows Int64 units (2^63/4) but reduces to 2^61/1.
        let quarter = MediaTime(value: 1 << 62, timescale: 4)
        #expect(quarter.multipliedReportingOverflow(by: 2) == MediaTime(seconds: 1 << 61))
    }

    @Test("Multiplying by a ratio is exact when it can be, else rounds half away from zero")
    func ratioMultiplication() {
        let six = MediaTime(seconds: 6)
        #expect(six.multiplied(byRatio: 21, 20) == MediaTime(value: 63, timescale: 10))
        #expect(six.multiplied(byRatio: -1, 4) == MediaTime(value: -3, timescale: 2))
        #expect(six.multiplied(byRatio: 1, 0) == nil)
        // 3/1_500_000_001 × 1/2: the exact denominator does not fit, so round to 1/1_500_000_001 units.
        let tick = MediaTime(value: 3, timescale: 1_500_000_001)
        #expect(tick.multiplied(byRatio: 1, 2) == MediaTime(value: 2, timescale: 1_500_000_001))
        #expect(MediaTime.indefinite.multiplied(byRatio: 3, 2) == .indefinite)
        #expect(MediaTime.positiveInfinity.multiplied(byRatio: -3, 2) == .negativeInfinity)
    }

    @Test("Multiplying by a ratio into a timescale rounds once: as multiplying then converting, at the same timescale")
    func ratioMultiplicationIntoTimescale() {
        var generator = SeededGenerator(seed: 41)
        var representable = 0
        for _ in 0..<5_000 {
            let time = MediaTime(value: Int64.random(in: -10_000_000_000_000...10_000_000_000_000, using: &generator),
                                 timescale: 1_000_000_000)
            let numerator = Int64.random(in: -1_100_000...1_100_000, using: &generator)
            let denominator = Int64.random(in: 1...1_000_000, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
            let expected = time.multiplied(byRatio: numerator, denominator).flatMap { $0.converted(toTimescale: 1_000_000_000) }
            let direct = time.multiplied(byRatio: numerator, denominator, toTimescale: 1_000_000_000)
            #expect(direct == expected, "\(time) × \(numerator)/\(denominator)")
            if let direct {
                #expect(direct.timescale == 1_000_000_000)
                representable += 1
            }
        }
        #expect(representable > 2_000)
        // From another timescale it rounds once where multiplying then converting rounds twice:
        // half of 1/1_500_000_001 s is 0.33 ns, which multiplying alone rounds up to a whole unit (0.67 ns).
        let tick = MediaTime(value: 1, timescale: 1_500_000_001)
        #expect(tick.multiplied(byRatio: 1, 2) == tick)
        #expect(tick.multiplied(byRatio: 1, 2, toTimescale: 1_000_000_000) == .zero)
        #expect(MediaTime(seconds: 1).multiplied(byRatio: 1, 0, toTimescale: 1000) == nil)
        #expect(MediaTime.indefinite.multiplied(byRatio: 1, 1, toTimescale: 1000) == nil)
        #expect(MediaTime(value: .max, timescale: 1).multiplied(byRatio: .max, 1, toTimescale: 1_000_000_000) == nil)
    }

    // MARK: - Overflow

    @Test("Overflow returns nil instead of wrapping")
    func overflowReportsNil() {
        let largest = MediaTime(value: .max, timescale: 1)
        let smallest = MediaTime(value: .min, timescale: 1)
        #expect(largest.addingReportingOverflow(MediaTime(seconds: 1)) == nil)
        #expect(smallest.subtractingReportingOverflow(MediaTime(seconds: 1)) == nil)
        #expect(largest.addingReportingOverflow(MediaTime(value: 1, timescale: 3)) == nil)
        // Same timescale overflow that reduces: Int64.max/2 + Int64.max/2 == Int64.max/1.
        let half = MediaTime(value: .max, timescale: 2)
        #expect(half.addingReportingOverflow(half) == largest)
    }

    @Test("Timescales whose lcm exceeds Int32 add without trapping when the result reduces")
    func coprimeTimescalesReduce() {
        let a = MediaTime(value: 1_000_000_007, timescale: 1_000_000_007)
        let b = MediaTime(value: 3 * 999_999_937, timescale: 999_999_937)
        #expect(a + b == MediaTime(seconds: 4))
        #expect((a + b).timescale == 1)
        #expect(b - a == MediaTime(seconds: 2))
        // 1/p + 1/q has denominator p·q > Int32.max in lowest terms: not representable.
        let p = MediaTime(value: 1, timescale: 1_000_000_007)
        let q = MediaTime(value: 1, timescale: 999_999_937)
        #expect(p.addingReportingOverflow(q) == nil)
    }

    @Test("The + operator traps when the exact sum cannot be represented")
    func plusTrapsOnOverflow() async {
        await #expect(processExitsWith: .failure) {
            _ = MediaTime(value: .max, timescale: 1) + MediaTime(seconds: 1)
        }
    }

    // MARK: - Comparison, hashing, min and max

    @Test("Comparison agrees with the rational oracle across timescales", arguments: propertySeeds)
    func comparisonMatchesOracle(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let a = random.time(bits: 62)
            let b = random.time(bits: 62)
            let order = Rational.compare(Rational(a), Rational(b))
            #expect((a < b) == (order < 0), "\(a.debugDescription) < \(b.debugDescription)")
            #expect((a == b) == (order == 0))
            #expect((a > b) == (order > 0))
        }
    }

    @Test("Neighbouring values one unit apart at a finer timescale compare correctly", arguments: propertySeeds)
    func comparisonOfNearNeighbours(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let timescale = Int32.random(in: 1...46_340, using: &random)
            let factor = Int32.random(in: 2...46_340, using: &random)
            let a = random.time(bits: 40, timescale: timescale)
            let finer = Int64(a.value) * Int64(factor)
            let delta = Int64.random(in: -1...1, using: &random)
            let b = MediaTime(value: finer + delta, timescale: timescale * factor)
            #expect((a < b) == (delta > 0))
            #expect((a == b) == (delta == 0))
            #expect((b < a) == (delta < 0))
        }
    }

    @Test("Equal times at different timescales are equal and hash alike")
    func equalTimesHashAlike() {
        let half = MediaTime(value: 1, timescale: 2)
        let thousandths = MediaTime(value: 500, timescale: 1000)
        #expect(half == thousandths)
        #expect(half.hashValue == thousandths.hashValue)
        #expect(Set([half, thousandths, MediaTime(value: 45_000, timescale: 90_000)]).count == 1)
        #expect(MediaTime(value: 0, timescale: 7).hashValue == MediaTime.zero.hashValue)
    }

    @Test("Random times rescaled by a factor stay equal and hash alike", arguments: propertySeeds)
    func rescaledTimesHashAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let a = random.time(bits: 30, timescale: Int32.random(in: 1...46_340, using: &random))
            let factor = Int32.random(in: 1...46_340, using: &random)
            let b = MediaTime(value: a.value * Int64(factor), timescale: a.timescale * factor)
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
            #expect(a.reduced.value == b.reduced.value && a.reduced.timescale == b.reduced.timescale)
        }
    }

    @Test("min and max pick the earlier and later time", arguments: propertySeeds)
    func minAndMax(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let a = random.time()
            let b = random.time()
            let order = Rational.compare(Rational(a), Rational(b))
            #expect(MediaTime.min(a, b) == (order <= 0 ? a : b))
            #expect(MediaTime.max(a, b) == (order <= 0 ? b : a))
        }
    }

    // MARK: - Conversion

    @Test("Converting to a multiple timescale is exact", arguments: propertySeeds)
    func conversionToMultipleIsExact(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let a = random.time(bits: 30, timescale: Int32.random(in: 1...46_340, using: &random))
            let factor = Int32.random(in: 1...46_340, using: &random)
            let converted = try #require(a.converted(toTimescale: a.timescale * factor, exactOnly: true))
            #expect(converted.timescale == a.timescale * factor)
            #expect(converted.value == a.value * Int64(factor))
        }
    }

    @Test("Converting to a timescale that does not divide returns nil when exact only, else rounds half away from zero")
    func conversionRounds() {
        let third = MediaTime(value: 1, timescale: 3)
        #expect(third.converted(toTimescale: 1000, exactOnly: true) == nil)
        #expect(third.converted(toTimescale: 1000)?.value == 333)
        #expect(MediaTime(value: 2, timescale: 3).converted(toTimescale: 1000)?.value == 667)
        #expect(MediaTime(value: -2, timescale: 3).converted(toTimescale: 1000)?.value == -667)
        #expect(MediaTime(value: 1, timescale: 2).converted(toTimescale: 1)?.value == 1)
        #expect(MediaTime(value: -1, timescale: 2).converted(toTimescale: 1)?.value == -1)
        let ntsc = MediaTime(value: 9009, timescale: 1000)
        #expect(ntsc.converted(toTimescale: 90_000, exactOnly: true)?.value == 810_810)
        #expect(MediaTime(value: .max, timescale: 1).converted(toTimescale: 2) == nil)
        #expect(MediaTime.indefinite.converted(toTimescale: 1000) == .indefinite)
    }

    @Test("floorUnits rounds toward negative infinity and rejects special values")
    func floorUnits() {
        #expect(MediaTime(value: 2999, timescale: 1000).floorUnits(timescale: 1) == 2)
        #expect(MediaTime(value: -1, timescale: 1000).floorUnits(timescale: 1) == -1)
        #expect(MediaTime(value: -3, timescale: 1).floorUnits(timescale: 1) == -3)
        #expect(MediaTime(value: 1001, timescale: 30_000).floorUnits(timescale: 90_000) == 3003)
        #expect(MediaTime.positiveInfinity.floorUnits(timescale: 1) == nil)
        #expect(MediaTime(seconds: 1).floorUnits(timescale: 0) == nil)
    }

    @Test("Seconds convert to and from Double at the preferred timescale")
    func doubleSeconds() {
        #expect(MediaTime(value: 9009, timescale: 1000).seconds == 9.009)
        #expect(MediaTime(seconds: 9.009, preferredTimescale: 1000) == MediaTime(value: 9009, timescale: 1000))
        #expect(MediaTime(seconds: -0.5, preferredTimescale: 1)?.value == -1)
        #expect(MediaTime(seconds: 2.5, preferredTimescale: 1)?.value == 3)
        #expect(MediaTime(seconds: .nan) == nil)
        #expect(MediaTime(seconds: .infinity) == nil)
        #expect(MediaTime(seconds: 1e30, preferredTimescale: 1) == nil)
    }

    @Test("reduced, magnitude, isZero and isNegative describe the numeric value")
    func numericProperties() {
        let time = MediaTime(value: -45_000, timescale: 90_000)
        #expect(time.reduced.value == -1 && time.reduced.timescale == 2)
        #expect(time.magnitude == MediaTime(value: 1, timescale: 2))
        #expect(time.isNegative)
        #expect(!time.isZero)
        #expect(MediaTime(value: 0, timescale: 90_000).isZero)
        #expect(-time == MediaTime(value: 1, timescale: 2))
        #expect(MediaTime.negativeInfinity.magnitude == .positiveInfinity)
    }

    // MARK: - Special values

    @Test("Special values sort as CMTimeCompare does: −∞ < numeric < indefinite < +∞ < invalid")
    func specialValueOrdering() {
        let sorted: [MediaTime] = [
            .negativeInfinity, MediaTime(value: .min, timescale: 1), .zero, MediaTime(value: .max, timescale: 1),
            .indefinite, .positiveInfinity, .invalid,
        ]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            #expect(sorted.shuffled(using: &random).sorted() == sorted)
        }
        for (index, earlier) in sorted.enumerated() {
            for later in sorted[(index + 1)...] {
                #expect(earlier < later, "\(earlier) < \(later)")
                #expect(!(later < earlier))
                #expect(earlier != later)
            }
        }
        #expect(MediaTime.invalid == .invalid)
        #expect(MediaTime.indefinite == .indefinite)
    }

    @Test("Special values add as CMTimeAdd does: invalid wins, ∞ − ∞ is invalid, infinity beats indefinite")
    func specialValueAddition() {
        let one = MediaTime(seconds: 1)
        let cases: [(MediaTime, MediaTime, MediaTime)] = [
            (.invalid, one, .invalid),
            (.invalid, .positiveInfinity, .invalid),
            (.indefinite, .invalid, .invalid),
            (.positiveInfinity, .negativeInfinity, .invalid),
            (.negativeInfinity, .positiveInfinity, .invalid),
            (.positiveInfinity, .positiveInfinity, .positiveInfinity),
            (.negativeInfinity, .negativeInfinity, .negativeInfinity),
            (.positiveInfinity, one, .positiveInfinity),
            (one, .negativeInfinity, .negativeInfinity),
            (.positiveInfinity, .indefinite, .positiveInfinity),
            (.indefinite, .negativeInfinity, .negativeInfinity),
            (.indefinite, one, .indefinite),
            (.indefinite, .indefinite, .indefinite),
        ]
        for (a, b, expected) in cases {
            #expect(a + b == expected, "\(a) + \(b)")
            #expect(b + a == expected, "\(b) + \(a)")
        }
    }

    @Test("Subtracting and negating special values flips the sign of infinities")
    func specialValueSubtraction() {
        #expect(MediaTime.positiveInfinity - .positiveInfinity == .invalid)
        #expect(MediaTime.positiveInfinity - .negativeInfinity == .positiveInfinity)
        #expect(MediaTime(seconds: 1) - .positiveInfinity == .negativeInfinity)
        #expect(MediaTime(seconds: 1) - .indefinite == .indefinite)
        #expect(-MediaTime.positiveInfinity == .negativeInfinity)
        #expect(-MediaTime.indefinite == .indefinite)
        #expect(-MediaTime.invalid == .invalid)
    }

    @Test("Multiplying special values keeps them special, taking the sign of the factor")
    func specialValueMultiplication() {
        #expect(MediaTime.positiveInfinity * 3 == .positiveInfinity)
        #expect(MediaTime.positiveInfinity * -3 == .negativeInfinity)
        #expect(MediaTime.negativeInfinity * -3 == .positiveInfinity)
        #expect(MediaTime.positiveInfinity * 0 == .invalid)
        #expect(MediaTime.indefinite * 5 == .indefinite)
        #expect(MediaTime.invalid * 5 == .invalid)
    }

    @Test("Special values report their kind and map to Double non-finite seconds")
    func specialValueFlags() {
        #expect(MediaTime.invalid.isInvalid && !MediaTime.invalid.isValid && !MediaTime.invalid.isNumeric)
        #expect(MediaTime.indefinite.isIndefinite && MediaTime.indefinite.isValid)
        #expect(MediaTime.positiveInfinity.isPositiveInfinity && MediaTime.positiveInfinity.seconds == .infinity)
        #expect(MediaTime.negativeInfinity.isNegativeInfinity && MediaTime.negativeInfinity.seconds == -.infinity)
        #expect(MediaTime.negativeInfinity.isNegative)
        #expect(MediaTime.indefinite.seconds.isNaN && MediaTime.invalid.seconds.isNaN)
        #expect(MediaTime.zero.isNumeric && !MediaTime.zero.isNegative)
        #expect(Set([MediaTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity, .zero]).count == 5)
    }

    // MARK: - Codable

    @Test("Numeric times round-trip through JSON with their value and timescale", arguments: propertySeeds)
    func codableRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for _ in 0..<500 {
            let time = random.time(bits: 63)
            let decoded = try decoder.decode(MediaTime.self, from: encoder.encode(time))
            #expect(decoded.value == time.value && decoded.timescale == time.timescale)
        }
    }

    @Test(
        "Special values round-trip through JSON",
        arguments: [MediaTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity]
    )
    func codableSpecialValues(time: MediaTime) throws {
        let data = try JSONEncoder().encode([time])
        let decoded = try JSONDecoder().decode([MediaTime].self, from: data)
        #expect(decoded == [time])
    }

    @Test("Decoding accepts a decimal string or a number of seconds, and rejects a zero timescale")
    func codableAlternativeForms() throws {
        let decoder = JSONDecoder()
        let ntsc = MediaTime(value: 9009, timescale: 1000)
        #expect(try decoder.decode([MediaTime].self, from: Data(#"["9.009"]"#.utf8)) == [ntsc])
        #expect(try decoder.decode([MediaTime].self, from: Data("[9.009]".utf8)) == [ntsc])
        let keyed = Data(#"{"value":3003,"timescale":90000}"#.utf8)
        #expect(try decoder.decode(MediaTime.self, from: keyed) == MediaTime(value: 3003, timescale: 90_000))
        #expect(throws: DecodingError.self) {
            try decoder.decode(MediaTime.self, from: Data(#"{"value":1,"timescale":0}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode([MediaTime].self, from: Data(#"["soon"]"#.utf8))
        }
    }
}
