import Foundation
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization
import Testing
import TestSupport
import VirtualTime

/// Golden playback traces on virtual time: every scenario plays a stream from an in-memory
/// network to its end (or a time limit), with scripted actions, and its trace — one JSON line
/// per event — is compared with `Goldens/<name>.jsonl`. Each test also asserts the behaviour the
/// scenario is about, so that a golden re-recorded carelessly still cannot hide a regression.
@Suite("Playback scenarios")
struct PlaybackScenarioTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let origin = "http://origin.test/"

    /// A DATERANGE interstitial at `seconds` after the playlists' first program date-time.
    static func interstitial(_ id: String, at seconds: Int, _ attributes: String) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        let date = "2026-01-01T00:\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest).000Z"
        return "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\",\(attributes)\n"
    }

    /// Serves an ad: a VOD playlist of one segment of `seconds` at `ads/<name>.m3u8`.
    static func serveAd(_ rig: PlaybackRig, _ name: String, seconds: Int) {
        rig.serve(origin + "ads/\(name).m3u8", vodPlaylist(count: 1, duration: seconds, base: "\(name)-"))
        rig.serveSegments([origin + "ads/\(name)-seg-0.ts"])
    }

    static func serveMain(_ rig: PlaybackRig, count: Int = 15, extra: String) {
        rig.serve(origin + "main.m3u8", vodPlaylist(count: count, extra: extra))
        rig.serveSegments((0..<count).map { origin + "seg-\($0).ts" })
    }

    /// Plays, performing `actions` at their host times, and returns the rig.
    static func play(
        _ setUp: (PlaybackRig) -> Void,
        item: PlayerItem = PlayerItem(url: origin + "main.m3u8", primaryID: "P1"),
        configuration: PlayerConfiguration = PlayerConfiguration(),
        conditions: MemoryResourceLoader<ManualClock>.Conditions = .init(latency: .milliseconds(50)),
        actions: [(Duration, @Sendable (PlaybackRig) -> Void)] = [],
        limit: Duration = .seconds(600)
    ) -> PlaybackRig {
        let rig = PlaybackRig(configuration: configuration, conditions: conditions)
        setUp(rig)
        rig.player.replaceCurrentItem(with: item)
        rig.player.play()
        let driver = VirtualTimeDriver(clock: rig.clock, executor: rig.executor)
        for (time, action) in actions.sorted(by: { $0.0 < $1.0 }) {
            driver.run(until: { rig.isOver }, limit: ManualClock.Instant(offset: time))
            if rig.isOver { break }
            driver.run(until: ManualClock.Instant(offset: time))
            action(rig)
        }
        rig.runToEnd(limit: limit)
        return rig
    }

    static func check(_ rig: PlaybackRig, _ name: String, includingLoads: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        Golden.check(rig.trace(includingLoads: includingLoads).joined(separator: "\n") + "\n", against: goldens.appendingPathComponent(name + ".jsonl"), sourceLocation: sourceLocation)
    }

    static func breakEnds(_ rig: PlaybackRig) -> [(id: String, end: String, resume: MediaTime, at: Duration)] {
        rig.events.compactMap { event in
            if case .breakEnded(let id, let end, let resume) = event.kind { return (id, end.description, resume, event.hostTime) }
            return nil
        }
    }

    static func breakStarts(_ rig: PlaybackRig) -> [(id: String, at: Duration)] {
        rig.events.compactMap { event in
            if case .currentEventChanged(let id?) = event.kind { return (id, event.hostTime) }
            return nil
        }
    }

    // MARK: VOD

    @Test("VOD with a pre-roll, a mid-roll and a post-roll plays each break once, in order, and ends")
    func preMidPost() {
        let rig = Self.play { rig in
            Self.serveMain(rig, extra:
                Self.interstitial("pre", at: 0, "CUE=\"PRE\",X-ASSET-URI=\"ads/a5.m3u8\"")
                + Self.interstitial("mid", at: 20, "X-ASSET-URI=\"ads/a10.m3u8\"")
                + Self.interstitial("post", at: 0, "CUE=\"POST\",X-ASSET-LIST=\"ads/post.json\""))
            Self.serveAd(rig, "a5", seconds: 5)
            Self.serveAd(rig, "a10", seconds: 10)
            Self.serveAd(rig, "a15", seconds: 15)
            rig.serve(Self.origin + "ads/post.json", #"{"ASSETS":[{"URI":"a15.m3u8","DURATION":15}]}"#)
        }
        Self.check(rig, "vod-pre-mid-post")
        #expect(Self.breakStarts(rig).map(\.id) == ["pre", "mid", "post"])
        #expect(Self.breakEnds(rig).map(\.end) == ["completed", "completed", "completed"])
        #expect(Self.breakEnds(rig).map(\.resume) == [.zero, MediaTime(seconds: 20), MediaTime(seconds: 60)])
        #expect(rig.isOver)
        // 60 s of content and 30 s of ads, plus loading: the item ends a little after 90 s.
        let end = rig.events.last { $0.kind == .playedToEnd }?.hostTime ?? .zero
        #expect(end > .seconds(90) && end < .seconds(92))
        let assetListRequest = rig.loader.requests.map(\.url).first { $0.contains("post.json") }
        #expect(assetListRequest?.contains("_HLS_primary_id=P1") == true)
    }

    @Test("a point break stands integrated time still; a range break advances it by its duration")
    func pointAndRangeBreaks() {
        let rig = Self.play { rig in
            Self.serveMain(rig, count: 10, extra:
                Self.interstitial("point", at: 8, "X-ASSET-URI=\"ads/a5.m3u8\"")
                + Self.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
            Self.serveAd(rig, "a5", seconds: 5)
            Self.serveAd(rig, "a10", seconds: 10)
        }
        Self.check(rig, "point-and-range")
        let snapshot = rig.player.currentSnapshot
        // 40 s: the range break stands in for primary 20..30 (primary resumes at 30), the 5 s
        // point break takes no length.
        #expect(snapshot?.duration == MediaTime(seconds: 40))
        #expect(snapshot?.segments.map(\.segmentType) == [.primary, .interstitial, .primary, .interstitial, .primary])
        #expect(snapshot?.segments.map(\.timeMapping.target.duration) == [8, 0, 12, 10, 10].map { MediaTime(seconds: $0) })
        #expect(rig.player.integratedCurrentTime == MediaTime(seconds: 40))
        #expect(Self.breakEnds(rig).map(\.resume) == [MediaTime(seconds: 8), MediaTime(seconds: 30)])
    }

    @Test("integrated-time observers stand still through a point break and run through a range break")
    func integratedObservers() {
        let rig = PlaybackRig()
        Self.serveMain(rig, count: 10, extra:
            Self.interstitial("point", at: 8, "X-ASSET-URI=\"ads/a5.m3u8\"")
            + Self.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
        Self.serveAd(rig, "a5", seconds: 5)
        Self.serveAd(rig, "a10", seconds: 10)
        rig.player.replaceCurrentItem(with: PlayerItem(url: Self.origin + "main.m3u8"))
        let times = EventTimes()
        let periodic = rig.player.periodicTimes(interval: MediaTime(seconds: 5), domain: .integrated)
        let boundaries = rig.player.boundaryTimes([MediaTime(seconds: 25)], domain: .integrated)
        Task(executorPreference: rig.executor) {
            for await time in periodic { times.append("p\(time.decimalString())@\(rig.player.hostTime)") }
        }
        Task(executorPreference: rig.executor) {
            for await time in boundaries { times.append("b\(time.decimalString())@\(rig.player.hostTime)") }
        }
        rig.player.play()
        rig.runToEnd()
        // Playback starts at 0.1 s; the point break (8 s) holds integrated time for 5 s, the range
        // break (20 s → integrated 20..30) runs through it; both ads were preloaded: no gaps.
        #expect(times.values == [
            "p5@5.1 seconds", "p10@15.1 seconds", "p15@20.1 seconds", "p20@25.1 seconds",
            "p25@30.1 seconds", "b25@30.1 seconds", "p30@35.1 seconds", "p35@40.1 seconds", "p40@45.1 seconds",
        ])
    }

    // MARK: Resumption

    @Test("resumption offsets: explicit, default (0 on VOD), cumulative for breaks sharing a start, and negative")
    func resumptionOffsets() {
        let rig = Self.play { rig in
            Self.serveMain(rig, count: 15, extra:
                Self.interstitial("explicit", at: 8, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=6.0")
                + Self.interstitial("default", at: 20, "X-ASSET-URI=\"ads/a5.m3u8\"")
                + Self.interstitial("first", at: 32, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=2.0")
                + Self.interstitial("second", at: 32, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=4.0")
                + Self.interstitial("negative", at: 48, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=-4.0,CUE=\"ONCE\""))
            Self.serveAd(rig, "a5", seconds: 5)
        }
        Self.check(rig, "resumption-offsets")
        let ends = Self.breakEnds(rig)
        #expect(ends.map(\.id) == ["explicit", "default", "first", "second", "negative"])
        #expect(ends.map(\.resume) == [14, 20, 34, 38, 44].map { MediaTime(seconds: $0) })
        #expect(rig.isOver)
    }

    @Test("primary resuming with exactly its forward-buffer target loaded goes on fetching and does not stall")
    func resumptionAtBufferTarget() {
        // The break at 8 s resumes primary at 14 s; while it plays, primary fetches up to 44 s,
        // exactly the 30 s target ahead of the resumption point, so the next fetch falls due just
        // after the playhead moves on, and the buffer never runs dry.
        let rig = Self.play { rig in
            Self.serveMain(rig, count: 20, extra: Self.interstitial("ad", at: 8, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=6.0"))
            Self.serveAd(rig, "a5", seconds: 5)
        }
        #expect(Self.breakEnds(rig).map(\.resume) == [MediaTime(seconds: 14)])
        #expect(rig.isOver)
        let stalls = rig.events.compactMap { event -> MediaTime? in
            if case .stalled(let time) = event.kind { return time }
            return nil
        }
        #expect(stalls.isEmpty)
        // 74 s of content left after the 6 s skipped, and the 5 s ad: the end a little after 79 s.
        let end = rig.events.last { $0.kind == .playedToEnd }?.hostTime ?? .zero
        #expect(end > .seconds(79) && end < .seconds(80))
    }

    @Test("a playout limit cuts a break short")
    func playoutLimit() {
        let rig = Self.play { rig in
            Self.serveMain(rig, count: 5, extra: Self.interstitial("limited", at: 4, "X-ASSET-URI=\"ads/a10.m3u8\",X-PLAYOUT-LIMIT=6.0"))
            Self.serveAd(rig, "a10", seconds: 10)
        }
        Self.check(rig, "playout-limit")
        let end = Self.breakEnds(rig).first
        #expect(end?.end == "playoutLimit")
        let start = Self.breakStarts(rig).first?.at ?? .zero
        // The ad was preloaded before the break: exactly 6 s play.
        #expect(end.map { $0.at - start } == .seconds(6))
    }

    @Test("skip control: the break becomes skippable at its offset and skipping resumes primary")
    func skipControl() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 5, extra: Self.interstitial("skippable", at: 4, "X-ASSET-URI=\"ads/a15.m3u8\",X-SKIP-CONTROL-OFFSET=5.0,X-SKIP-CONTROL-DURATION=5.0"))
            Self.serveAd(rig, "a15", seconds: 15)
        }, actions: [
            (.seconds(7), { rig in rig.player.skipCurrentEvent() }),   // too early: ignored
            (.seconds(12), { rig in rig.player.skipCurrentEvent() }),
        ])
        Self.check(rig, "skip-control")
        #expect(Self.breakEnds(rig).map(\.end) == ["skipped"])
        #expect(Self.breakEnds(rig).first?.at == .seconds(12))
    }

    // MARK: Seeking

    @Test("a seek to a primary time inside a break's range restarts the break from its start")
    func seekIntoBreak() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 10, extra: Self.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
            Self.serveAd(rig, "a10", seconds: 10)
        }, actions: [
            (.seconds(3), { rig in rig.player.startSeek(to: MediaTime(seconds: 25)) }),
        ])
        Self.check(rig, "seek-into-break")
        #expect(Self.breakStarts(rig).map(\.id) == ["range"])
        #expect(Self.breakStarts(rig).first?.at == .seconds(3))
        #expect(Self.breakEnds(rig).first.map { $0.at - .seconds(3) } == .milliseconds(10100))
    }

    @Test("a seek to an integrated time inside a break lands at that offset into the break, as Apple's integrated time domain counts it")
    func seekToIntegratedTimeInsideBreak() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 10, extra: Self.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
            Self.serveAd(rig, "a10", seconds: 10)
        }, actions: [
            (.seconds(3), { rig in rig.player.startSeek(to: MediaTime(seconds: 25), integrated: true) }),
        ])
        #expect(Self.breakStarts(rig).map(\.id) == ["range"])
        #expect(Self.breakStarts(rig).first?.at == .seconds(3))
        // Five seconds of the break are left (and the ad's load), not ten.
        let played = Self.breakEnds(rig).first.map { $0.at - .seconds(3) }
        #expect(played.map { $0 >= .seconds(5) && $0 < .milliseconds(5_500) } == true, "\(String(describing: played))")
    }

    @Test("a seek to a break at an offset before its asset list is loaded plays the rest of the break from that offset (S2.5)")
    func seekIntoUnloadedBreakAtOffset() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 15, extra: Self.interstitial("late", at: 40, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-LIST=\"ads/late.json\""))
            Self.serveAd(rig, "l10", seconds: 10)
            rig.serve(Self.origin + "ads/late.json", #"{"ASSETS":[{"URI":"l10.m3u8","DURATION":10}]}"#)
        }, actions: [
            (.seconds(3), { rig in rig.player.startSeek(to: .interstitial(eventID: "late", offset: MediaTime(seconds: 7))) }),
        ])
        #expect(rig.loader.requests.map(\.url).first { $0.contains("late.json") } != nil)
        #expect(Self.breakStarts(rig).map(\.id) == ["late"])
        #expect(Self.breakStarts(rig).first?.at == .seconds(3))
        let end = Self.breakEnds(rig).first
        // 3 s are left from offset 7, once the asset list and the asset have loaded: not 10.
        #expect(end?.end == "completed")
        #expect(end.map { $0.at - .seconds(3) > .seconds(3) && $0.at - .seconds(3) < .milliseconds(3500) } == true)
        #expect(end?.resume == MediaTime(seconds: 50))
    }

    @Test("a seek to a break at an offset, left alone, plays the rest of the break and resumes primary")
    func seekIntoBreakAtOffsetPlaysTheRest() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 10, extra: Self.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
            Self.serveAd(rig, "a10", seconds: 10)
        }, actions: [
            (.seconds(3), { rig in rig.player.startSeek(to: .interstitial(eventID: "range", offset: MediaTime(seconds: 6))) }),
        ])
        #expect(Self.breakStarts(rig).map(\.id) == ["range"])
        let end = Self.breakEnds(rig).first
        #expect(end?.end == "completed")
        #expect(end.map { $0.at - .seconds(3) > .seconds(4) && $0.at - .seconds(3) < .milliseconds(4500) } == true)
        #expect(end?.resume == MediaTime(seconds: 30))
    }

    @Test("a seek across a JUMP-restricted break plays the break first, then goes on to the destination")
    func seekAcrossJumpRestriction() {
        let rig = Self.play({ rig in
            Self.serveMain(rig, count: 15, extra:
                Self.interstitial("free", at: 12, "X-ASSET-URI=\"ads/a5.m3u8\"")
                + Self.interstitial("jump", at: 24, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESTRICT=\"JUMP\""))
            Self.serveAd(rig, "a5", seconds: 5)
        }, actions: [
            (.seconds(2), { rig in rig.player.startSeek(to: MediaTime(seconds: 40)) }),
        ])
        Self.check(rig, "seek-across-jump")
        #expect(Self.breakStarts(rig).map(\.id) == ["jump"])
        let jumps = rig.events.compactMap { event -> MediaTime? in
            if case .timeJumped(let time, _) = event.kind { return time }
            return nil
        }
        #expect(jumps == [MediaTime(seconds: 24), MediaTime(seconds: 40)])
    }

    // MARK: Failures

    @Test("a failed asset list skips its break; primary goes on from the break's start")
    func failedAssetList() {
        let rig = Self.play { rig in
            Self.serveMain(rig, count: 5, extra: Self.interstitial("broken", at: 8, "X-ASSET-LIST=\"ads/missing.json\",DURATION=15.0"))
        }
        Self.check(rig, "failed-asset-list")
        #expect(rig.events.contains { if case .assetListResponse("broken", .failed) = $0.kind { return true } else { return false } })
        #expect(Self.breakStarts(rig).isEmpty || Self.breakEnds(rig).first?.end.hasPrefix("failed") == true)
        let end = rig.events.last { $0.kind == .playedToEnd }?.hostTime ?? .zero
        #expect(end < .seconds(21))
    }
}

/// Strings recorded from tasks.
final class EventTimes: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
