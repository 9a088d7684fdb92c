import MediaTime
import PlayerEngine
import Testing

@Suite("MediaClock")
struct MediaClockTests {
    @Test("a paused clock stands still; a playing one advances exactly with host time")
    func advances() {
        var clock = MediaClock(item: MediaTime(seconds: 30), host: .seconds(5))
        #expect(clock.itemTime(atHost: .seconds(100)) == MediaTime(seconds: 30))
        clock.setRate(1, atHost: .seconds(10))
        #expect(clock.itemTime(atHost: .seconds(10)) == MediaTime(seconds: 30))
        #expect(clock.itemTime(atHost: .milliseconds(12_500)) == MediaTime(decimal: "32.5")!)
    }

    @Test("rate changes re-anchor, so two hours at 1.05× move exactly 7,560 seconds")
    func exactRate() {
        var clock = MediaClock()
        clock.setRate(1.05, atHost: .zero)
        #expect(clock.rateNumerator == 21 && clock.rateDenominator == 20)
        #expect(clock.itemTime(atHost: .seconds(7_200)) == MediaTime(seconds: 7_560))
        clock.setRate(0, atHost: .seconds(7_200))
        #expect(clock.itemTime(atHost: .seconds(9_999)) == MediaTime(seconds: 7_560))
    }

    @Test("seeking moves the playhead and keeps the rate")
    func seek() {
        var clock = MediaClock()
        clock.setRate(2, atHost: .zero)
        clock.seek(to: MediaTime(seconds: 100), atHost: .seconds(3))
        #expect(clock.itemTime(atHost: .seconds(4)) == MediaTime(seconds: 102))
    }

    @Test("it tells when the playhead will reach an item time, and never when it will not")
    func reachTime() {
        var clock = MediaClock(item: MediaTime(seconds: 10))
        #expect(clock.hostTime(whenItemReaches: MediaTime(seconds: 12)) == nil)
        clock.setRate(1, atHost: .seconds(1))
        #expect(clock.hostTime(whenItemReaches: MediaTime(seconds: 12)) == .seconds(3))
        #expect(clock.hostTime(whenItemReaches: MediaTime(seconds: 9)) == nil)
        clock.setRate(numerator: 3, denominator: 1, atHost: .seconds(3))
        // 1/3 s of host time per second of media: rounded up to the next nanosecond.
        let when = clock.hostTime(whenItemReaches: MediaTime(seconds: 13))
        #expect(when == .seconds(3) + .nanoseconds(333_333_334))
        #expect(!(clock.itemTime(atHost: when!) < MediaTime(seconds: 13)))
    }
}
