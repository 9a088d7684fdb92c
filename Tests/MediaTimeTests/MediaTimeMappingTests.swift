import Foundation
import MediaTime
import TestSupport
import Testing

private func t(_ text: String) -> MediaTime {
    MediaTime(decimal: text)!
}

private func range(_ start: String, _ end: String) -> MediaTimeRange {
    MediaTimeRange(start: t(start), end: t(end))
}

@Suite("MediaTimeMapping")
struct MediaTimeMappingTests {
    @Test("Equal durations translate in both directions")
    func translation() {
        // A primary item's [60, 90) plays at [75, 105) on the integrated timeline after a 15 s break.
        let mapping = MediaTimeMapping(source: range("60", "90"), target: range("75", "105"))
        #expect(mapping.targetTime(forSource: t("60")) == t("75"))
        #expect(mapping.targetTime(forSource: t("72.012")) == t("87.012"))
        #expect(mapping.sourceTime(forTarget: t("87.012")) == t("72.012"))
        #expect(mapping.sourceTime(forTarget: t("75")) == t("60"))
    }

    @Test("Translation round-trips every source time inside the span", arguments: propertySeeds)
    func translationRoundTrip(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            func timescale() -> Int32 { compatibleTimescales.randomElement(using: &random)! }
            let source = MediaTimeRange(
                start: random.time(bits: 32, timescale: timescale()),
                duration: random.time(bits: 32, timescale: timescale()).magnitude
            )
            let target = MediaTimeRange(start: random.time(bits: 32, timescale: timescale()), duration: source.duration)
            let mapping = MediaTimeMapping(source: source, target: target)
            let units = Int64.random(in: 0...source.duration.value, using: &random)
            let time = source.start + MediaTime(value: units, timescale: source.duration.timescale)
            let mapped = mapping.targetTime(forSource: time)
            #expect(mapped == time - source.start + target.start)
            #expect(mapping.sourceTime(forTarget: mapped) == time)
        }
    }

    @Test("Times outside the source span clamp to the target's ends")
    func clamping() {
        let mapping = MediaTimeMapping(source: range("60", "90"), target: range("75", "105"))
        #expect(mapping.targetTime(forSource: t("10")) == t("75"))
        #expect(mapping.targetTime(forSource: t("200")) == t("105"))
        #expect(mapping.targetTime(forSource: .positiveInfinity) == t("105"))
    }

    @Test("A point target maps every source time to the target's start")
    func pointTarget() {
        let breakPoint = MediaTimeRange(start: t("45"), duration: .zero)
        let mapping = MediaTimeMapping(source: range("0", "30"), target: breakPoint)
        #expect(mapping.targetTime(forSource: t("0")) == t("45"))
        #expect(mapping.targetTime(forSource: t("17.5")) == t("45"))
        #expect(mapping.targetTime(forSource: t("30")) == t("45"))
        #expect(mapping.sourceTime(forTarget: t("45")) == t("0"))
    }

    @Test("An empty source maps every target time to the source's start")
    func emptySource() {
        let nothing = MediaTimeRange(start: t("12"), duration: .zero)
        let mapping = MediaTimeMapping(source: nothing, target: range("40", "70"))
        #expect(mapping.sourceTime(forTarget: t("55")) == t("12"))
        #expect(mapping.targetTime(forSource: t("12")) == t("40"))
    }

    @Test("Different durations scale linearly and exactly in both directions")
    func scaling() {
        // Source 10 s shown over 20 s: half speed.
        let mapping = MediaTimeMapping(source: range("0", "10"), target: range("100", "120"))
        #expect(mapping.targetTime(forSource: t("2.5")) == t("105"))
        #expect(mapping.targetTime(forSource: t("10")) == t("120"))
        #expect(mapping.sourceTime(forTarget: t("105")) == t("2.5"))
        #expect(mapping.sourceTime(forTarget: t("101")) == t("0.5"))
        // A third does not terminate in decimal but is still exact.
        let thirds = MediaTimeMapping(source: range("0", "3"), target: range("0", "1"))
        #expect(thirds.targetTime(forSource: t("1")) == MediaTime(value: 1, timescale: 3))
    }

    @Test("Scaling equals the exact rational result whenever it is representable", arguments: propertySeeds)
    func scalingMatchesOracle(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var exactCases = 0
        for _ in 0..<3000 {
            let sourceUnits = Int64.random(in: 1...1_000_000, using: &random)
            let targetUnits = Int64.random(in: 1...1_000_000, using: &random)
            let sourceDuration = MediaTime(value: sourceUnits, timescale: random.timescale())
            let targetDuration = MediaTime(value: targetUnits, timescale: random.timescale())
            let mapping = MediaTimeMapping(
                source: MediaTimeRange(start: .zero, duration: sourceDuration),
                target: MediaTimeRange(start: .zero, duration: targetDuration)
            )
            let offset = sourceDuration.multiplied(byRatio: Int64.random(in: 0...97, using: &random), 97)!
            let expected = Rational(offset) * Rational(targetDuration) / Rational(sourceDuration)
            let mapped = mapping.targetTime(forSource: offset)
            if expected.mediaTime != nil {
                exactCases += 1
                let spans = "\(sourceDuration.debugDescription) onto \(targetDuration.debugDescription)"
                #expect(Rational(mapped) == expected, "\(offset.debugDescription) of \(spans)")
            } else {
                // Rounded to the target duration's timescale: within half a unit of the truth.
                let unit = Rational(1, 2 * Int128(targetDuration.reduced.timescale))
                #expect(Rational.compare(Rational(mapped) - expected, unit) <= 0)
                #expect(Rational.compare(expected - Rational(mapped), unit) <= 0)
            }
            #expect(!(mapped < .zero) && !(targetDuration < mapped))
        }
        #expect(exactCases > 1000)
    }

    @Test("Scaling huge spans does not trap and rounds to the target duration's timescale")
    func scalingHugeSpans() {
        let m = Int64.max
        let source = MediaTimeRange(start: .zero, duration: MediaTime(value: m, timescale: 999_999_937))
        let target = MediaTimeRange(start: .zero, duration: MediaTime(value: m - 2, timescale: 1_000_000_007))
        let mapping = MediaTimeMapping(source: source, target: target)
        // (M−1)/M × (M−2) = M − 3 + 2/M units, which rounds to M − 3.
        let mapped = mapping.targetTime(forSource: MediaTime(value: m - 1, timescale: 999_999_937))
        #expect(mapped == MediaTime(value: m - 3, timescale: 1_000_000_007))
    }

    @Test("Open-ended spans translate instead of trapping")
    func openEndedSpans() {
        let live = MediaTimeMapping(
            source: MediaTimeRange(start: t("1000"), duration: .indefinite),
            target: MediaTimeRange(start: t("10"), duration: t("60"))
        )
        #expect(live.targetTime(forSource: t("1030")) == t("40"))
        #expect(live.targetTime(forSource: t("5000")) == t("70"))
        #expect(live.sourceTime(forTarget: t("40")) == t("1030"))
        let bothOpen = MediaTimeMapping(
            source: MediaTimeRange(start: t("1000"), duration: .indefinite),
            target: MediaTimeRange(start: t("10"), duration: .indefinite)
        )
        #expect(bothOpen.targetTime(forSource: t("5000")) == t("4010"))
    }

    @Test("An invalid or indefinite time maps to itself, not to a real time")
    func nonNumericTimes() {
        let mapping = MediaTimeMapping(source: range("0", "10"), target: range("100", "120"))
        #expect(mapping.targetTime(forSource: .invalid) == .invalid)
        #expect(mapping.targetTime(forSource: .indefinite) == .indefinite)
        #expect(mapping.sourceTime(forTarget: .invalid) == .invalid)
    }

    @Test("A mapping round-trips through JSON")
    func codableRoundTrip() throws {
        let mapping = MediaTimeMapping(
            source: MediaTimeRange(start: t("9.009"), duration: .indefinite),
            target: MediaTimeRange(start: MediaTime(value: 1001, timescale: 30_000), duration: .zero)
        )
        let data = try JSONEncoder().encode(mapping)
        #expect(try JSONDecoder().decode(MediaTimeMapping.self, from: data) == mapping)
    }
}
