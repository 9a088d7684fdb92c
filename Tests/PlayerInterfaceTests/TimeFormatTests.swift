import MediaTime
import PlayerInterface
import Testing

@Suite("TimeFormat")
struct TimeFormatTests {
    @Test("elapsed times read m:ss under an hour and h:mm:ss from an hour, truncated")
    func elapsed() {
        #expect(TimeFormat.elapsed(.zero) == "0:00")
        #expect(TimeFormat.elapsed(time("7.999")) == "0:07")
        #expect(TimeFormat.elapsed(time("65.9")) == "1:05")
        #expect(TimeFormat.elapsed(time("3599.999")) == "59:59")
        #expect(TimeFormat.elapsed(time("3723")) == "1:02:03")
        #expect(TimeFormat.elapsed(time("-5.5")) == "-0:05")
    }

    @Test("fractional digits are truncated to the digit shown")
    func fractions() {
        #expect(TimeFormat.elapsed(time("65.29"), fractionDigits: 1) == "1:05.2")
        #expect(TimeFormat.elapsed(time("0.0425"), fractionDigits: 3) == "0:00.042")
        #expect(TimeFormat.remaining(time("41.21"), fractionDigits: 1) == "-0:41.3")
    }

    @Test("omitting a zero fraction writes whole seconds bare and every other time to the millisecond")
    func omittedZeroFraction() {
        #expect(TimeFormat.elapsed(time("7"), fractionDigits: 3, omittingZeroFraction: true) == "0:07")
        #expect(TimeFormat.elapsed(time("4.5"), fractionDigits: 3, omittingZeroFraction: true) == "0:04.500")
        #expect(TimeFormat.elapsed(time("2.3"), fractionDigits: 3, omittingZeroFraction: true) == "0:02.300")
        #expect(TimeFormat.elapsed(time("3600.0004"), fractionDigits: 3, omittingZeroFraction: true) == "1:00:00")
        #expect(TimeFormat.elapsed(time("-1.001"), fractionDigits: 3, omittingZeroFraction: true) == "-0:01.001")
        #expect(TimeFormat.elapsed(time("-0.0004"), fractionDigits: 3, omittingZeroFraction: true) == "0:00")
    }

    @Test("a countdown rounds up, so it reads -0:01 through the last second and the labels add up to the duration")
    func remaining() {
        #expect(TimeFormat.remaining(time("41.2")) == "-0:42")
        #expect(TimeFormat.remaining(time("0.2")) == "-0:01")
        #expect(TimeFormat.remaining(.zero) == "-0:00")
        #expect(TimeFormat.remaining(time("-3")) == "-0:00")
        #expect(TimeFormat.remaining(time("3600")) == "-1:00:00")
        // 90 s item at 48.6 s: 0:48 shown elapsed, -0:42 remaining, 48 + 42 = 90.
        #expect(TimeFormat.elapsed(time("48.6")) == "0:48")
        #expect(TimeFormat.remaining(time("90") - time("48.6")) == "-0:42")
    }

    @Test("a live duration reads live and a time that is not a number reads --:--")
    func specialValues() {
        #expect(TimeFormat.elapsed(.indefinite) == "live")
        #expect(TimeFormat.remaining(.indefinite) == "live")
        #expect(TimeFormat.elapsed(.invalid) == "--:--")
    }
}
