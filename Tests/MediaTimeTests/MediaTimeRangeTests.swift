import Foundation
import MediaTime
import TestSupport
import Testing

/// `MediaTime` from a decimal literal, for readable expectations.
private func t(_ text: String) -> MediaTime {
    MediaTime(decimal: text)!
}

private func range(_ start: String, _ end: String) -> MediaTimeRange {
    MediaTimeRange(start: t(start), end: t(end))
}

@Suite("MediaTimeRange")
struct MediaTimeRangeTests {
    @Test("A range contains its start but not its end")
    func containsIsHalfOpen() {
        let segment = MediaTimeRange(start: t("6"), duration: t("6.006"))
        #expect(segment.end == t("12.006"))
        #expect(segment.contains(t("6")))
        #expect(segment.contains(t("12.005")))
        #expect(segment.contains(MediaTime(value: 12_005_999_999, timescale: 1_000_000_000)))
        #expect(!segment.contains(t("12.006")))
        #expect(!segment.contains(MediaTime(value: 5_999_999_999, timescale: 1_000_000_000)))
        #expect(!segment.contains(.invalid))
        #expect(!segment.contains(.indefinite))
    }

    @Test("An empty range contains nothing, not even its start")
    func emptyRangeContainsNothing() {
        let point = MediaTimeRange(start: t("30"), duration: .zero)
        #expect(point.isEmpty)
        #expect(!point.contains(t("30")))
        #expect(!point.contains(t("29.999")))
        #expect(!MediaTimeRange.zero.contains(MediaTime.zero))
    }

    @Test("An open-ended range contains every time from its start on")
    func openEndedRange() {
        let live = MediaTimeRange(start: t("100"), duration: .indefinite)
        #expect(live.end.isIndefinite)
        #expect(live.contains(MediaTime(value: .max, timescale: 1)))
        #expect(live.contains(t("100")))
        #expect(!live.contains(t("99.999")))
    }

    @Test("Half-open membership agrees with start <= t < end on random ranges", arguments: propertySeeds)
    func containsMatchesDefinition(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let timescale = mediaTimescales.randomElement(using: &random)!
            let start = Int64.random(in: -1000...1000, using: &random)
            let length = Int64.random(in: 0...50, using: &random)
            let probe = Int64.random(in: (start - 60)...(start + 60), using: &random)
            let range = MediaTimeRange(
                start: MediaTime(value: start, timescale: timescale),
                duration: MediaTime(value: length, timescale: timescale)
            )
            // The probe at a different but equivalent timescale, to exercise cross-timescale comparison.
            let time = MediaTime(value: probe * 7, timescale: timescale).multiplied(byRatio: 1, 7)!
            #expect(range.contains(time) == (start <= probe && probe < start + length))
        }
    }

    @Test("A range contains the ranges that lie wholly inside it")
    func containsRange() {
        let outer = range("0", "10")
        #expect(outer.contains(range("0", "10")))
        #expect(outer.contains(range("2", "3")))
        #expect(!outer.contains(range("9", "10.5")))
        #expect(!outer.contains(range("-1", "1")))
    }

    @Test("Overlapping ranges intersect in their common part; disjoint or touching ones do not")
    func intersection() {
        #expect(range("0", "10").intersection(range("6", "20")) == range("6", "10"))
        #expect(range("6", "20").intersection(range("0", "10")) == range("6", "10"))
        #expect(range("0", "10").intersection(range("2", "3")) == range("2", "3"))
        #expect(range("0", "10").intersection(range("10", "20")) == nil)
        #expect(range("0", "10").intersection(range("11", "20")) == nil)
        #expect(range("0", "10").intersection(MediaTimeRange(start: t("5"), duration: .zero)) == nil)
    }

    @Test("The union is the smallest range covering both")
    func union() {
        #expect(range("0", "10").union(range("6", "20")) == range("0", "20"))
        #expect(range("12", "20").union(range("0", "10")) == range("0", "20"))
        #expect(range("0", "10").union(range("2", "3")) == range("0", "10"))
    }

    @Test("Clamping pins times before and after the range to its ends")
    func clamp() {
        let segment = range("6", "12")
        #expect(segment.clamp(t("3")) == t("6"))
        #expect(segment.clamp(t("7.5")) == t("7.5"))
        #expect(segment.clamp(t("15")) == t("12"))
        #expect(segment.clamp(.negativeInfinity) == t("6"))
        #expect(segment.clamp(.positiveInfinity) == t("12"))
    }

    @Test("Offsetting moves the start and keeps the duration")
    func offset() {
        let moved = range("6", "12").offset(by: t("-2.5"))
        #expect(moved.start == t("3.5"))
        #expect(moved.duration == t("6"))
        #expect(moved.end == t("9.5"))
    }

    @Test("Equal ranges at different timescales are equal and hash alike")
    func hashing() {
        let a = MediaTimeRange(start: MediaTime(value: 1, timescale: 2), duration: MediaTime(seconds: 1))
        let b = MediaTimeRange(
            start: MediaTime(value: 45_000, timescale: 90_000),
            duration: MediaTime(value: 1000, timescale: 1000)
        )
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == "[0.5, 1.5)")
    }

    @Test("Ranges, open-ended ones included, round-trip through JSON")
    func codableRoundTrip() throws {
        let ranges = [range("6", "12.006"), MediaTimeRange(start: t("100"), duration: .indefinite), .zero]
        let data = try JSONEncoder().encode(ranges)
        #expect(try JSONDecoder().decode([MediaTimeRange].self, from: data) == ranges)
    }
}
