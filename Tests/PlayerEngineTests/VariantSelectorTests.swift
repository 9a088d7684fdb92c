import HLSPlaylist
import PlayerEngine
import Testing

@Suite("Variant selection and playlist reloads")
struct VariantSelectorTests {
    static let ladder = [800_000, 1_600_000, 3_000_000, 6_000_000]

    @Test("it climbs only after several measurements agree, and only as far as the budget allows")
    func climbsWithHysteresis() {
        var selector = VariantSelector(bandwidths: Self.ladder)
        #expect(selector.record(bytes: 1_000_000, bitsPerSecond: 10_000_000) == 0)
        #expect(selector.record(bytes: 1_000_000, bitsPerSecond: 10_000_000) == 0)
        // Third agreeing sample: 0.8 × 10 Mb/s = 8 Mb/s fits 6 Mb/s × 1.2 = 7.2 Mb/s.
        #expect(selector.record(bytes: 1_000_000, bitsPerSecond: 10_000_000) == 3)
    }

    @Test("the estimate converges on a steady throughput however many samples it has seen", arguments: [1, 10, 1_000])
    func steadyEstimate(samples: Int) throws {
        var selector = VariantSelector(bandwidths: Self.ladder)
        for _ in 0..<samples { selector.record(bytes: 750_000, bitsPerSecond: 5_000_000) }
        let estimate = try #require(selector.estimate)
        #expect(abs(estimate - 5_000_000) < 50_000)
    }

    @Test("a drop switches down at once to the best variant that fits")
    func dropsAtOnce() {
        var selector = VariantSelector(bandwidths: Self.ladder, initial: 3)
        let chosen = selector.record(bytes: 2_000_000, bitsPerSecond: 2_500_000)
        #expect(chosen == 1)  // 0.8 × 2.5 Mb/s = 2 Mb/s: 1.6 Mb/s fits, 3 Mb/s does not
    }

    @Test("a throughput that wobbles around a boundary does not make it flap")
    func noFlapping() {
        var selector = VariantSelector(bandwidths: Self.ladder, initial: 1)
        var switches = 0
        var last = selector.current
        for index in 0..<60 {
            let rate = index % 2 == 0 ? 4_200_000.0 : 4_500_000.0  // budget 3.4–3.6 Mb/s vs 3 Mb/s × 1.2
            let now = selector.record(bytes: 500_000, bitsPerSecond: rate)
            if now != last { switches += 1 }
            last = now
        }
        #expect(switches <= 1)
        #expect(selector.current == 1 || selector.current == 2, "ended at \(selector.current), estimate \(selector.estimate ?? 0)")
    }

    @Test("live playlists reload after the target duration, half of it when unchanged, never once ended")
    func reloadPolicy() throws {
        var policy = PlaylistReloadPolicy()
        let live = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n")
        #expect(policy.nextReloadDelay(for: live, after: .changed) == .seconds(6))
        #expect(policy.nextReloadDelay(for: live, after: .unchanged) == .seconds(3))
        let ended = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(policy.nextReloadDelay(for: ended, after: .changed) == nil)
        let lowLatency = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.012
            #EXT-X-PART-INF:PART-TARGET=1.004
            #EXTINF:4,
            a.ts

            """)
        #expect(policy.nextReloadDelay(for: lowLatency, after: .changed) == .milliseconds(1004))
    }

    @Test("a live playlist without a usable target duration is reloaded after a second, not at once and forever")
    func reloadPolicyWithoutTargetDuration() {
        var policy = PlaylistReloadPolicy()
        // What a lenient parse makes of a missing or unreadable EXT-X-TARGETDURATION.
        let live = MediaPlaylist(targetDurationSeconds: 0)
        #expect(policy.nextReloadDelay(for: live, after: .changed) == .seconds(1))
        #expect(policy.nextReloadDelay(for: live, after: .unchanged) == .milliseconds(500))
    }

    @Test("a playlist that stops changing is reported as stalled after the limit")
    func stall() throws {
        var policy = PlaylistReloadPolicy()
        policy.unchangedLimit = 3
        let live = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n")
        for _ in 0..<2 { _ = policy.nextReloadDelay(for: live, after: .unchanged) }
        #expect(!policy.hasStalled)
        _ = policy.nextReloadDelay(for: live, after: .unchanged)
        #expect(policy.hasStalled)
        _ = policy.nextReloadDelay(for: live, after: .changed)
        #expect(!policy.hasStalled)
    }
}
