import MediaTime
import PlayerEngine
import TestSupport
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

    @Test("a deadline a fraction of a nanosecond of host time away at a fast drift-corrected rate lies after the anchor and reaches its item")
    func reachTimeBelowANanosecond() {
        // 10.000234× (10× corrected for drift), 3 ns of media short of a deadline: 0.3 ns of host
        // time, which used to round to zero, so the deadline stayed due at the anchor forever.
        var clock = MediaClock(item: MediaTime(value: 64_999_999_997, timescale: 1_000_000_000), host: .seconds(41))
        clock.setRate(numerator: 5_000_117, denominator: 500_000, atHost: .seconds(41))
        let target = MediaTime(seconds: 65)
        let when = clock.hostTime(whenItemReaches: target)
        #expect(when == .seconds(41) + .nanoseconds(1))
        #expect(!(clock.itemTime(atHost: when!) < target))
    }

    @Test("at any rate a deadline's host time reaches its item time, at most a few nanoseconds after the exact instant")
    func reachTimeIsNeverEarly() {
        var generator = SeededGenerator(seed: 42)
        for round in 0..<2_000 {
            // Media times in nanoseconds, or in a 90 kHz timescale.
            let timescale: Int32 = round.isMultiple(of: 2) ? 1_000_000_000 : 90_000
            var clock = MediaClock(item: MediaTime(value: Int64.random(in: 0...10_000_000_000, using: &generator) / (1_000_000_000 / Int64(timescale)), timescale: timescale))
            let numerator = Int64.random(in: 1...100_000_000, using: &generator)
            clock.setRate(numerator: numerator, denominator: 1_000_000, atHost: .nanoseconds(Int64.random(in: 0...1_000_000, using: &generator)))
            let target = clock.anchorItem + MediaTime(value: Int64.random(in: 1...Int64(timescale) / 10, using: &generator), timescale: timescale)
            guard let when = clock.hostTime(whenItemReaches: target) else {
                Issue.record("no deadline at rate \(numerator)/1000000")
                continue
            }
            #expect(!(clock.itemTime(atHost: when) < target), "rate \(numerator)/1000000")
            let exactNanoseconds = (target - clock.anchorItem).seconds * 1e9 * 1_000_000 / Double(numerator)
            let (seconds, attoseconds) = (when - clock.anchorHost).components
            let lateNanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9 - exactNanoseconds
            #expect(lateNanoseconds > -1e-6 * exactNanoseconds - 0.01 && lateNanoseconds < 5 + 1e-6 * exactNanoseconds, "rate \(numerator)/1000000: \(lateNanoseconds) ns late")
        }
    }
}

