import MediaTime
import Testing
import VideoBackend
import VideoTestSupport

/// Breaks switched on real playback: the content playlist and an ad over HTTP, each in its own
/// playbin3, every buffer's render time logged by the sinks (``RenderLog``). Real time: each
/// test plays a few seconds.
@Suite("InterstitialSwitcher")
struct InterstitialSwitcherTests {
    /// The issue's acceptance figures: the switch within 100 ms of the schedule, A/V within 40 ms.
    static let switchTolerance = Duration.milliseconds(100)
    static let avTolerance = Duration.milliseconds(40)

    /// Primary and asset pipelines whose sinks log what they render.
    struct Recorded {
        let primaryVideo = RenderLog(), primaryAudio = RenderLog(), assetVideo = RenderLog(), assetAudio = RenderLog()

        func timing(_ scheduledBreak: InterstitialSwitchStateMachine.Break) -> InterstitialSwitchTiming? {
            InterstitialSwitchTiming(
                scheduledBreak: scheduledBreak,
                primaryVideo: primaryVideo.rendered, primaryAudio: primaryAudio.rendered,
                assetVideo: assetVideo.rendered, assetAudio: assetAudio.rendered
            )
        }
    }

    /// Primary over the fixture server at `base` prerolled (and sought to `from`), and the asset
    /// at `assetURI`, each pipeline's sinks logging into `logs`.
    static func pipelines(_ base: String, assetURI: String, from: MediaTime?, logs: Recorded) async throws -> (primary: GStreamerPipeline, asset: GStreamerPipeline) {
        let primary = try GStreamerPipeline(
            uri: "\(base)/content/index.m3u8", configuration: .init(videoSink: .recorded(logs.primaryVideo), audioSink: .recorded(logs.primaryAudio)))
        let messages = primary.messages()
        try primary.pause()
        try await messages.asyncDone(nil)
        if let from { try await messages.asyncDone(try primary.seek(to: from)) }
        let asset = try GStreamerPipeline(uri: assetURI, configuration: .init(videoSink: .recorded(logs.assetVideo), audioSink: .recorded(logs.assetAudio)))
        return (primary, asset)
    }

    /// Plays `scheduledBreak` of the asset at `assetURI(base)` (`base` the fixture server's URL)
    /// in the content playlist from `from`, and primary for `after` past the break; returns the phase the break ended in and its timing.
    static func playBreak(
        _ scheduledBreak: InterstitialSwitchStateMachine.Break, assetURI: (String) -> String, from: MediaTime, after: Duration = .milliseconds(400)
    ) async throws -> (InterstitialSwitchStateMachine.Phase, InterstitialSwitchTiming?, Recorded) {
        try await FixtureServer.with { base in
            let logs = Recorded()
            let (primary, ad) = try await pipelines(base, assetURI: assetURI(base), from: from, logs: logs)
            defer { primary.close() }
            let switcher = InterstitialSwitcher(primary: primary, asset: ad, scheduledBreak: scheduledBreak)
            try primary.play()
            let phase = try await switcher.run()
            try await Task.sleep(for: after)
            return (phase, logs.timing(scheduledBreak), logs)
        }
    }

    static func within(_ duration: Duration, _ tolerance: Duration) -> Bool { duration > .zero - tolerance && duration < tolerance }

    static func expectOnTime(_ timing: InterstitialSwitchTiming) {
        #expect(within(timing.assetVideoLateness, switchTolerance), "first ad frame: \(timing)")
        #expect(within(timing.primaryVideoLateness, switchTolerance), "first frame after the break: \(timing)")
        #expect(within(timing.assetAudioLead, avTolerance), "ad A/V start: \(timing)")
        #expect(within(timing.primaryAudioLead, avTolerance), "primary A/V start: \(timing)")
        #expect(within(timing.assetAVOffset, avTolerance), "ad A/V sync: \(timing)")
        #expect(within(timing.primaryAVOffset, avTolerance), "primary A/V sync: \(timing)")
    }

    @Test("a point break mid-segment ends at its scheduled end: the ad's first frame and primary's first after it on time, A/V together, primary back where it left")
    func pointBreakAtScheduledEnd() async throws {
        // 21.3 s is 1.3 s into seg-005 (20.02 s) and past its keyframes; the 10 s ad is cut at 2.5 s.
        let scheduledBreak = InterstitialSwitchStateMachine.Break(start: try #require(MediaTime(decimal: "21.3")), duration: try #require(MediaTime(decimal: "2.5")))
        let (phase, timing, _) = try await Self.playBreak(scheduledBreak, assetURI: { "\($0)/ads/ad-10s/index.m3u8" }, from: MediaTime(seconds: 20))
        guard case .resumed = phase else {
            Issue.record("the break ended in \(phase)")
            return
        }
        let measured = try #require(timing, "no timing from the render logs")
        print("point break at 21.3 s for 2.5 s: \(measured)")
        Self.expectOnTime(measured)
        // One frame either side of the break's start (frames are 40 ms apart).
        #expect(abs(measured.resumedAt.seconds - 21.3) < 0.041, "resumed at \(measured.resumedAt.seconds) s")
        #expect(measured.lastFrameBefore.seconds > 21.3 - 0.081 && measured.lastFrameBefore.seconds < 21.3, "last frame before at \(measured.lastFrameBefore.seconds) s")
    }

    @Test("a range break whose asset ends before the break's scheduled end: primary comes back on the asset's end of stream, one frame later, at the resumption offset")
    func rangeBreakAtAssetEnd() async throws {
        // The 5 s ad as a lone segment from a file (tsdemux: a one-segment HLS playlist is what
        // hlsdemux2 1.22 may fail on), in a 6 s break at 30.5 s that replaces 5 s of content.
        let scheduledBreak = InterstitialSwitchStateMachine.Break(
            start: try #require(MediaTime(decimal: "30.5")), duration: MediaTime(seconds: 6), resumptionOffset: MediaTime(seconds: 5)
        )
        let (phase, timing, logs) = try await Self.playBreak(
            scheduledBreak, assetURI: { _ in "file://\(FixtureServer.media)/ads/ad-5s/seg-000.ts" }, from: MediaTime(seconds: 29)
        )
        guard case .resumed = phase else {
            Issue.record("the break ended in \(phase)")
            return
        }
        let measured = try #require(timing, "no timing from the render logs")
        print("range break at 30.5 s, the 5 s ad ending it: \(measured)")
        #expect(Self.within(measured.assetVideoLateness, Self.switchTolerance), "first ad frame: \(measured)")
        // Back on the asset's end: one frame interval after its last frame, give or take the tolerance.
        #expect(Self.within(measured.gapOutOfAsset - .milliseconds(40), Self.switchTolerance), "back from the ad: \(measured)")
        // The scheduled end was not waited for: primary is back about a second before it.
        #expect(measured.primaryVideoLateness < .milliseconds(-800), "\(measured)")
        #expect(Self.within(measured.assetAVOffset, Self.avTolerance) && Self.within(measured.primaryAVOffset, Self.avTolerance), "\(measured)")
        #expect(abs(measured.resumedAt.seconds - 35.5) < 0.041, "resumed at \(measured.resumedAt.seconds) s")
        // The whole ad was shown: its frames span its 5 s.
        let frames = logs.assetVideo.rendered
        let shown = (frames.last?.streamTime.seconds ?? 0) - (frames.first?.streamTime.seconds ?? 0)
        #expect(shown > 4.9, "the ad's frames span \(shown) s")
    }

    @Test("an asset the server does not have abandons the break with its error, and primary plays on through the break's start")
    func missingAsset() async throws {
        try await FixtureServer.with { base in
            let (primary, _) = try await GStreamerPipeline.playing("\(base)/content/index.m3u8")
            defer { primary.close() }
            let ad = try GStreamerPipeline(uri: "\(base)/ads/no-such/index.m3u8", configuration: .headless)
            let scheduledBreak = InterstitialSwitchStateMachine.Break(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))
            let switcher = InterstitialSwitcher(primary: primary, asset: ad, scheduledBreak: scheduledBreak)
            await #expect {
                _ = try await switcher.run()
            } throws: { error in
                (error as? GStreamerError)?.kind == .resource
            }
            guard case .abandoned = switcher.phase else {
                Issue.record("the break ended in \(switcher.phase)")
                return
            }
            // The 404 comes within some 100 ms, long before the break's start.
            try await Task.sleep(for: .milliseconds(1_500))
            let position = try #require(primary.position).seconds
            #expect(position > 1.2, "primary at \(position) s, past the abandoned break at 1 s")
        }
    }

    @Test("a pre-roll plays before primary's first frame: primary waits prerolled at 0, the ad plays its 2 s, then primary plays from 0")
    func preRoll() async throws {
        try await FixtureServer.with { base in
            let logs = Recorded()
            let (primary, ad) = try await Self.pipelines(base, assetURI: "\(base)/ads/ad-10s/index.m3u8", from: nil, logs: logs)
            defer { primary.close() }
            let preRoll = InterstitialSwitchStateMachine.Break(start: .zero, duration: MediaTime(seconds: 2))
            let phase = try await InterstitialSwitcher(primary: primary, asset: ad, scheduledBreak: preRoll).run()
            try await Task.sleep(for: .milliseconds(600))
            guard case .resumed = phase else {
                Issue.record("the pre-roll ended in \(phase)")
                return
            }
            let firstAd = try #require(logs.assetVideo.rendered.first, "no ad frame")
            let lastAd = try #require(logs.assetVideo.rendered.last)
            let firstPrimary = try #require(logs.primaryVideo.rendered.first, "no primary frame after the pre-roll")
            print("pre-roll: ad frames from \(firstAd.streamTime.seconds) to \(lastAd.streamTime.seconds) s, primary's first at \(firstPrimary.streamTime.seconds) s, \(firstPrimary.hostTime - lastAd.hostTime) after the ad's last")
            #expect(firstAd.hostTime < firstPrimary.hostTime, "the ad first")
            #expect(abs(firstAd.streamTime.seconds) < 0.05, "the ad from its start: \(firstAd.streamTime.seconds) s")
            #expect(lastAd.streamTime.seconds > 1.85 && lastAd.streamTime.seconds < 2.05, "the ad for the break's 2 s: its last frame at \(lastAd.streamTime.seconds) s")
            #expect(firstPrimary.streamTime.seconds < 0.05, "primary from 0: \(firstPrimary.streamTime.seconds) s")
            #expect(Self.within(firstPrimary.hostTime - lastAd.hostTime - .milliseconds(40), Self.switchTolerance), "back from the pre-roll")
        }
    }

    @Test("a break entered 3 s in plays its ad from 3 s, for what is left of the break, and primary resumes at the break's own resumption point")
    func enteredAtAnOffset() async throws {
        // What is left of a 6 s break at 12 s entered 3 s in, switched where primary reaches 12 s:
        // 3 s, primary back at 12 s.
        let rest = InterstitialSwitchStateMachine.Break(start: MediaTime(seconds: 12), duration: MediaTime(seconds: 3))
        try await FixtureServer.with { base in
            let logs = Recorded()
            let (primary, ad) = try await Self.pipelines(base, assetURI: "\(base)/ads/ad-10s/index.m3u8", from: MediaTime(seconds: 11), logs: logs)
            defer { primary.close() }
            let switcher = InterstitialSwitcher(primary: primary, assets: [ad], scheduledBreak: rest,
                                                entryOffset: MediaTime(seconds: 3), assetDurations: [MediaTime(seconds: 10)])
            #expect(switcher.entry.asset == 0 && switcher.entry.offset == MediaTime(seconds: 3))
            try primary.play()
            let phase = try await switcher.run()
            try await Task.sleep(for: .milliseconds(400))
            guard case .resumed = phase else {
                Issue.record("the break ended in \(phase)")
                return
            }
            let measured = try #require(logs.timing(rest), "no timing from the render logs")
            let firstAd = try #require(logs.assetVideo.rendered.first)
            let lastAd = try #require(logs.assetVideo.rendered.last)
            print("entered 3 s in: ad frames from \(firstAd.streamTime.seconds) to \(lastAd.streamTime.seconds) s; \(measured)")
            #expect(abs(firstAd.streamTime.seconds - 3) < 0.05, "the ad from 3 s: \(firstAd.streamTime.seconds) s")
            #expect(lastAd.streamTime.seconds > 5.85 && lastAd.streamTime.seconds < 6.05, "to 6 s: \(lastAd.streamTime.seconds) s")
            #expect(Self.within(measured.assetVideoLateness, Self.switchTolerance), "first ad frame: \(measured)")
            #expect(abs(measured.resumedAt.seconds - 12) < 0.041, "resumed at \(measured.resumedAt.seconds) s")
        }
    }

    @Test("the asset a pod is entered in is the one playing at the offset, by the asset list's durations")
    func podEntry() throws {
        func entry(_ seconds: Int64, _ durations: [MediaTime?]) -> (Int, MediaTime) {
            let found = InterstitialSwitcher.entry(at: MediaTime(seconds: seconds), assetDurations: durations)
            return (found.asset, found.offset)
        }
        let pod: [MediaTime?] = [MediaTime(seconds: 10), MediaTime(seconds: 20)]
        #expect(entry(0, pod) == (0, .zero))
        #expect(entry(9, pod) == (0, MediaTime(seconds: 9)))
        #expect(entry(10, pod) == (1, .zero))
        #expect(entry(12, pod) == (1, MediaTime(seconds: 2)))
        #expect(entry(40, pod) == (1, MediaTime(seconds: 30)), "past the end: the last asset")
        #expect(entry(12, [nil, MediaTime(seconds: 20)]) == (0, MediaTime(seconds: 12)), "an asset of unknown length is not passed")
        #expect(entry(12, []) == (0, MediaTime(seconds: 12)))
    }
}
