import MediaTime
import Testing

@Suite("MediaTime and Duration")
struct MediaTimeDurationTests {
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
