import MediaTime
import TestSupport
import Testing

@Suite("MediaTime and Duration")
struct MediaTimeDurationTests {
    @Test("a Duration's whole nanoseconds and seconds are truncated toward zero, as its components are, either side of zero")
    func durationNanoseconds() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<10_000 {
            let duration = Duration(attoseconds: Int128(Int64.random(in: -1_000_000_000_000_000_000...Int64.max, using: &generator))
                                    * Int128(Int64.random(in: -9_000...9_000, using: &generator)))
            let (seconds, attoseconds) = duration.components
            #expect(MediaTime(duration) == MediaTime(value: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, timescale: 1_000_000_000))
            let whole = duration.wholeUnits(ofAttoseconds: 1_000_000_000_000_000_000)
            #expect(whole.units == seconds && whole.remainder == attoseconds)
        }
        #expect(MediaTime(Duration(attoseconds: -1)) == .zero)
        #expect(MediaTime(Duration(attoseconds: -1_000_000_001)) == MediaTime(value: -1, timescale: 1_000_000_000))
        #expect(MediaTime(.seconds(7200)) == MediaTime(seconds: 7200))
    }

    @Test("a Duration becomes a media time to the nanosecond; a media time becomes a Duration rounded to it")
    func conversions() {
        #expect(MediaTime(.milliseconds(1500)) == MediaTime(value: 3, timescale: 2))
        #expect(MediaTime(.nanoseconds(1) + .init(secondsComponent: 0, attosecondsComponent: 999_999_999)) == MediaTime(value: 1, timescale: 1_000_000_000))
        #expect(Duration(rounding: MediaTime(value: 1, timescale: 3)) == .nanoseconds(333_333_333))
        #expect(Duration(rounding: .indefinite) == .zero)
    }

    @Test("rates become exact fractions; a timeline advances exactly at them")
    func rates() {
        #expect(MediaTime.ratio(approximating: 1.05) == (21, 20))
        #expect(MediaTime.ratio(approximating: .nan) == (0, 1))
        #expect(MediaTime(advancing: .seconds(20), atRate: 1.05) == MediaTime(seconds: 21))
        #expect(MediaTime(advancing: .seconds(3), atRate: 0) == .zero)
    }
}
