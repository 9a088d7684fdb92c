import MediaTime
import TestSupport
import Testing

@Suite("MediaTime decimal parsing and printing")
struct MediaTimeDecimalTests {
    @Test(
        "Decimal strings parse to the exact rational with the power-of-ten timescale they need",
        arguments: [
            ("9.009", 9009, 1000),
            ("10.000000001", 10_000_000_001, 1_000_000_000),
            ("6.000", 6, 1),
            ("-2.5", -25, 10),
            ("+1", 1, 1),
            ("0.1", 1, 10),
            ("0", 0, 1),
            ("-0.000", 0, 1),
            ("2.002", 2002, 1000),
            (".5", 5, 10),
            ("1.0000000000", 1, 1),
            ("9223372036854775807", Int64.max, 1),
            ("-9223372036854775808", Int64.min, 1),
        ] as [(String, Int64, Int32)]
    )
    func parsesExactly(text: String, value: Int64, timescale: Int32) throws {
        let time = try #require(MediaTime(decimal: text))
        #expect(time.value == value)
        #expect(time.timescale == timescale)
    }

    @Test(
        "Text that is not a plain decimal, or needs ten fractional digits, or does not fit, is rejected",
        arguments: [
            "", "abc", "1e3", "1.2.3", " 1", "1 ", "1.0000000001", "-", "+", ".", "+-1", "1,5", "0x10", "١",
            "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        ]
    )
    func rejects(text: String) {
        #expect(MediaTime(decimal: text) == nil)
    }

    @Test("Parsing a slice of a byte buffer reads only that slice")
    func parsesBufferSlice() {
        let line = Array("#EXTINF:9.009,title".utf8)
        let parsed = line.withUnsafeBufferPointer { MediaTime.parseDecimal($0, 8, 13) }
        #expect(parsed == MediaTime(value: 9009, timescale: 1000))
        let empty = line.withUnsafeBufferPointer { MediaTime.parseDecimal($0, 8, 8) }
        #expect(empty == nil)
    }

    @Test(
        "decimalString prints the shortest exact decimal",
        arguments: [
            (MediaTime(value: 9009, timescale: 1000), "9.009"),
            (MediaTime(value: 6, timescale: 1), "6"),
            (MediaTime(value: 6000, timescale: 1000), "6"),
            (MediaTime(value: -5, timescale: 2), "-2.5"),
            (MediaTime(value: 1, timescale: 1_000_000_000), "0.000000001"),
            (MediaTime(value: 3003, timescale: 90_000), "0.033367"),
            (MediaTime(value: -1, timescale: 3), "-0.333333"),
            (MediaTime(value: .min, timescale: 1), "-9223372036854775808"),
            (MediaTime.indefinite, "indefinite"),
            (MediaTime.invalid, "invalid"),
            (MediaTime.positiveInfinity, "+inf"),
            (MediaTime.negativeInfinity, "-inf"),
        ]
    )
    func printsShortestDecimal(time: MediaTime, text: String) {
        #expect(time.decimalString() == text)
    }

    @Test("decimalString falls back to rounded digits, never printing negative zero")
    func fallbackDigits() {
        let third = MediaTime(value: 1, timescale: 3)
        #expect(third.decimalString(fallbackDigits: 3) == "0.333")
        #expect(MediaTime(value: 2, timescale: 3).decimalString(fallbackDigits: 0) == "1")
        #expect(MediaTime(value: -1, timescale: 3_000_000).decimalString(fallbackDigits: 3) == "0.000")
    }

    @Test("fixedDecimalString prints exactly the requested digits, as EXTINF does")
    func fixedDigits() {
        #expect(MediaTime(seconds: 6).fixedDecimalString(digits: 3) == "6.000")
        #expect(MediaTime(value: 9009, timescale: 1000).fixedDecimalString(digits: 2) == "9.01")
        #expect(MediaTime(value: -5, timescale: 2).fixedDecimalString(digits: 0) == "-3")
        #expect(MediaTime(value: 1001, timescale: 30_000).fixedDecimalString(digits: 5) == "0.03337")
    }

    @Test("description is the decimal form and debugDescription the rational form")
    func descriptions() {
        let time = MediaTime(value: 9009, timescale: 1000)
        #expect(time.description == "9.009")
        #expect(time.debugDescription == "9009/1000")
        #expect(MediaTime.indefinite.debugDescription == "indefinite")
    }

    @Test("Every time with a terminating decimal form round-trips through decimalString", arguments: propertySeeds)
    func decimalRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            // Timescales 2^a·5^b ≤ 10^9 are exactly those with a decimal form of at most nine digits.
            var timescale: Int32 = 1
            for _ in 0..<Int.random(in: 0...9, using: &random) { timescale *= 2 }
            for _ in 0..<Int.random(in: 0...9, using: &random) { timescale *= 5 }
            let value: Int64 = switch Int.random(in: 0..<8, using: &random) {
            case 0: .min
            case 1: .max
            case 2: Int64.random(in: -1000...1000, using: &random)
            default: Int64.random(in: .min ... .max, using: &random)
            }
            let time = MediaTime(value: value, timescale: timescale)
            let text = time.decimalString()
            let parsed = try #require(MediaTime(decimal: text), "\(time.debugDescription) printed as \(text)")
            #expect(parsed == time, "\(time.debugDescription) printed as \(text)")
        }
    }
}
