import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing

private let origin = "http://origin.test/"
private let main = origin + "main.m3u8"
private let item = PlayerItem(url: main, primaryID: "P1")

/// `PlaybackMachine` driven directly, input by input, with no `Player` shell: the loads it asks
/// for, when it asks for them, and the events it reports in which order. A safety net for
/// splitting it (issue 15): the interstitial controller and the media pipeline must keep these.
@Suite("Playback machine")
struct PlaybackMachineTests {
    static func seconds(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }

    static func segmentURLs(_ count: Int, base: String = "") -> [String] {
        (0..<count).map { origin + "\(base)seg-\($0).ts" }
    }

    /// A driver serving a VOD primary of `count` segments of `duration` seconds, with `extra`
    /// lines (DATERANGEs), and its segments.
    static func vod(count: Int = 10, duration: Int = 4, extra: String = "", configuration: PlayerConfiguration = PlayerConfiguration()) -> PlaybackMachineDriver {
        var driver = PlaybackMachineDriver(configuration: configuration)
        driver.serve(main, vodPlaylist(count: count, duration: duration, extra: extra))
        driver.serveSegments(segmentURLs(count))
        return driver
    }

    /// Serves an ad of one segment of `seconds` at `ads/<name>.m3u8` (as an asset is asked for,
    /// with `_HLS_primary_id`), and its segment.
    static func serveAd(_ driver: inout PlaybackMachineDriver, _ name: String, seconds: Int) {
        driver.serve(origin + "ads/\(name).m3u8?_HLS_primary_id=P1", vodPlaylist(count: 1, duration: seconds, base: "\(name)-"))
        driver.serveSegments([origin + "ads/\(name)-seg-0.ts"])
    }

    static func interstitial(_ id: String, at seconds: Int, _ attributes: String) -> String {
        PlaybackScenarioTests.interstitial(id, at: seconds, attributes)
    }

    /// The driver with `item` set and playing from host time zero.
    static func playing(_ driver: PlaybackMachineDriver) -> PlaybackMachineDriver {
        var driver = driver
        driver.send(.setItems([item]))
        driver.send(.setRate(1, originator: .user))
        return driver
    }

    // MARK: Loading

    @Test("replacing the item asks for its playlist, then the first variant listed, then one segment at a time")
    func firstLoads() {
        var driver = PlaybackMachineDriver()
        let multivariant = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=2000000
            hi/media.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=500000
            lo/media.m3u8

            """
        let media = vodPlaylist(count: 10)
        #expect(driver.send(.setItems([item])) == [
            .event(PlayerEvent(hostTime: .zero, kind: .currentItemChanged(url: main))),
            .load(id: 1, request: ResourceRequest(url: main)),
        ])
        #expect(driver.send(.setRate(1, originator: .user)) == [
            .event(PlayerEvent(hostTime: .zero, kind: .rateChanged(rate: 1, originator: .user))),
            .event(PlayerEvent(hostTime: .zero, kind: .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)))),
        ])
        driver.run(until: .milliseconds(100))
        // The first variant listed, not the cheapest (RFC 8216bis 6.3.1).
        #expect(driver.answer(main, text: multivariant) == [
            .event(PlayerEvent(hostTime: .milliseconds(100), kind: .loaded(resource: .multivariantPlaylist, url: main, bytes: multivariant.utf8.count))),
            .load(id: 2, request: ResourceRequest(url: origin + "hi/media.m3u8")),
        ])
        driver.run(until: .milliseconds(200))
        let at = Duration.milliseconds(200)
        #expect(driver.answer(origin + "hi/media.m3u8", text: media) == [
            .event(PlayerEvent(hostTime: at, kind: .loaded(resource: .mediaPlaylist, url: origin + "hi/media.m3u8", bytes: media.utf8.count))),
            .event(PlayerEvent(hostTime: at, kind: .itemStatusChanged(.readyToPlay))),
            .event(PlayerEvent(hostTime: at, kind: .durationChanged(Self.seconds(40)))),
            .load(id: 3, request: ResourceRequest(url: origin + "hi/seg-0.ts")),
        ])
        #expect(driver.machine.itemStatus == .readyToPlay)
        #expect(driver.machine.duration == Self.seconds(40))
        // One segment at a time: the next only once the first is in.
        #expect(driver.outstanding.map(\.url) == [origin + "hi/seg-0.ts"])
        driver.answer(origin + "hi/seg-0.ts")
        #expect(driver.outstanding.map(\.url) == [origin + "hi/seg-1.ts"])
    }

    @Test("replacing the item cancels the loads of the one it replaces, then reports the new item and asks for its playlist")
    func replaceCancelsLoads() {
        var driver = PlaybackMachineDriver()
        driver.serve(main, vodPlaylist(count: 10))
        driver = Self.playing(driver)
        #expect(driver.outstanding.map(\.url) == [origin + "seg-0.ts"])
        driver.run(until: .seconds(1))
        let next = origin + "next.m3u8"
        #expect(driver.send(.setItems([PlayerItem(url: next, primaryID: "P2")])) == [
            .cancelLoad(id: 2),
            .event(PlayerEvent(hostTime: .seconds(1), kind: .currentItemChanged(url: next))),
            .load(id: 3, request: ResourceRequest(url: next)),
        ])
        #expect(driver.machine.itemStatus == .unknown)
        #expect(driver.machine.duration == nil)
        // The rate asked for stays: the new item plays once it is loaded.
        #expect(driver.machine.rate == 1)
        #expect(driver.machine.timeControlStatus == .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate))
    }

    @Test("paused, it buffers up to the forward buffer duration and no further; playing, it asks for more as the buffer drops to it")
    func forwardBuffer() {
        var driver = Self.vod(count: 20)
        driver.send(.setItems([item]))
        // 30 s wanted: seg-0 ... seg-7 (32 s) and then nothing, however long it waits.
        #expect(driver.loads.map(\.url) == [main] + Self.segmentURLs(8))
        #expect(driver.machine.nextWake == nil)
        driver.run(until: .seconds(100))
        #expect(driver.loads.count == 9)
        #expect(driver.machine.timeControlStatus == .paused)

        driver.send(.setRate(1, originator: .user))
        #expect(driver.machine.timeControlStatus == .playing)
        // 32 s buffered from 100 s: the buffer is down to 30 s at host 102 s, and the next segment
        // is asked for just after.
        #expect(driver.machine.nextWake == .seconds(102) + .nanoseconds(1))
        driver.run(until: .seconds(109))
        #expect(driver.loads.dropFirst(9).map(\.url) == [origin + "seg-8.ts", origin + "seg-9.ts"])
        #expect(driver.loads.dropFirst(9).map(\.askedAt) == [.seconds(102) + .nanoseconds(1), .seconds(106) + .nanoseconds(1)])
        #expect(driver.machine.currentTime == Self.seconds(9))
    }

    @Test("playback starts once the resume threshold (4 s) is buffered, not at the first segment")
    func startAfterResumeThreshold() {
        var driver = PlaybackMachineDriver()
        driver.serve(main, vodPlaylist(count: 10, duration: 2))
        driver = Self.playing(driver)
        driver.run(until: .milliseconds(500))
        driver.answer(origin + "seg-0.ts")
        #expect(driver.machine.timeControlStatus == .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate))
        #expect(driver.machine.projected(to: .milliseconds(900)).currentTime == .zero)
        driver.run(until: .seconds(1))
        driver.answer(origin + "seg-1.ts")
        #expect(driver.machine.timeControlStatus == .playing)
        #expect(driver.statuses == [.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate), .playing])
        #expect(driver.times { $0 == .timeControlStatusChanged(.playing) } == [.seconds(1)])
        #expect(driver.machine.projected(to: .seconds(3)).currentTime == Self.seconds(2))
    }

    @Test("a late segment stalls playback when the buffer runs dry, exactly then, and playback resumes once it is in")
    func stallAndResume() {
        var driver = Self.vod()
        driver.served[origin + "seg-1.ts"] = nil
        driver = Self.playing(driver)
        // seg-0 alone meets the threshold: playing at once.
        #expect(driver.machine.timeControlStatus == .playing)
        driver.run(until: .seconds(5))
        #expect(driver.kinds(at: .seconds(4)) == [.stalled(at: Self.seconds(4)), .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.toMinimizeStalls))])
        #expect(driver.machine.currentTime == Self.seconds(4))
        driver.run(until: .seconds(6))
        driver.answer(origin + "seg-1.ts")
        #expect(driver.kinds(at: .seconds(6)) == [.timeControlStatusChanged(.playing)])
        #expect(driver.machine.projected(to: .seconds(7)).currentTime == Self.seconds(5))
        #expect(driver.statuses == [.playing, .waitingToPlayAtSpecifiedRate(.toMinimizeStalls), .playing])
    }

    @Test("a seek into primary completes once media at the destination is in; a second seek supersedes the first")
    func seekCompletesWhenMediaArrives() {
        var driver = Self.vod(count: 20)
        driver.served[origin + "seg-15.ts"] = nil
        driver.served[origin + "seg-12.ts"] = nil
        driver = Self.playing(driver)
        driver.run(until: .seconds(1))
        #expect(driver.send(.seek(id: 1, to: .primary(Self.seconds(61)), originator: .user)) == [
            .event(PlayerEvent(hostTime: .seconds(1), kind: .timeJumped(to: Self.seconds(61), originator: .user))),
            .load(id: 10, request: ResourceRequest(url: origin + "seg-15.ts")),
            .event(PlayerEvent(hostTime: .seconds(1), kind: .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)))),
        ])
        driver.run(until: .seconds(2))
        // Superseded: the first seek reports unfinished, its load is cancelled.
        let second = driver.send(.seek(id: 2, to: .primary(Self.seconds(50)), originator: .user))
        #expect(second.first == .event(PlayerEvent(hostTime: .seconds(2), kind: .seekCompleted(id: 1, finished: false))))
        #expect(second.contains(.cancelLoad(id: 10)))
        #expect(driver.outstanding.map(\.url) == [origin + "seg-12.ts"])
        driver.run(until: .seconds(3))
        driver.answer(origin + "seg-12.ts")
        #expect(driver.kinds(at: .seconds(3)) == [.seekCompleted(id: 2, finished: true), .timeControlStatusChanged(.playing)])
        #expect(driver.machine.projected(to: .seconds(4)).currentTime == Self.seconds(51))
    }

    // MARK: Failures

    @Test("a failed segment is retried after 0.5 s, then 1 s more, and the third failure fails the item")
    func retryThenFail() {
        let segment = origin + "seg-0.ts"
        var driver = Self.vod()
        driver.served[segment] = nil
        driver = Self.playing(driver)
        driver.fail(segment)
        #expect(driver.machine.nextWake == .milliseconds(500))
        driver.run(until: .milliseconds(500))
        driver.fail(segment)
        #expect(driver.machine.nextWake == .milliseconds(1500))
        driver.run(until: .milliseconds(1500))
        let error = PlayerError(kind: .load, url: segment, message: "refused by the test (after 3 attempts)")
        #expect(driver.fail(segment) == [
            .event(PlayerEvent(hostTime: .milliseconds(1500), kind: .loadFailed(resource: .segment, url: segment, message: "refused by the test", willRetry: false))),
            .event(PlayerEvent(hostTime: .milliseconds(1500), kind: .itemStatusChanged(.failed(error)))),
        ])
        #expect(driver.loads(of: segment).map(\.askedAt) == [.zero, .milliseconds(500), .milliseconds(1500)])
        #expect(driver.machine.itemStatus == .failed(error))
        #expect(driver.machine.nextWake == nil)
        #expect(driver.outstanding.isEmpty)
    }

    @Test("a segment that fails once and then loads reports its recovery, with the attempts and the outage")
    func recovery() {
        let segment = origin + "seg-0.ts"
        var driver = Self.vod()
        driver.served[segment] = nil
        driver = Self.playing(driver)
        driver.fail(segment, .httpStatus, status: 503)
        driver.run(until: .milliseconds(500))
        driver.answer(segment)
        #expect(driver.kinds(at: .milliseconds(500), includingLoads: true).prefix(3) == [
            .loadRecovered(resource: .segment, url: segment, attempts: 2, outage: .milliseconds(500)),
            .loaded(resource: .segment, url: segment, bytes: 1000),
            .timeControlStatusChanged(.playing),
        ])
        #expect(driver.machine.itemStatus == .readyToPlay)
    }

    @Test("while media is buffered ahead a failing segment is retried past the attempt limit, backing off up to 4 s, until the buffer runs dry")
    func outageRiddenOutWhileBuffered() {
        let segment = origin + "seg-2.ts"
        var driver = Self.vod()
        driver.served[segment] = nil
        driver = Self.playing(driver)
        // seg-0 and seg-1 are in: 8 s to play while seg-2 fails.
        var willRetry: [Bool] = []
        while driver.machine.itemStatus == .readyToPlay, driver.now < .seconds(30) {
            if driver.isOutstanding(segment) {
                for action in driver.fail(segment) {
                    if case .event(let event) = action, case .loadFailed(_, _, _, let retry) = event.kind { willRetry.append(retry) }
                }
            } else if let wake = driver.machine.nextWake {
                driver.run(until: wake)
            } else {
                break
            }
        }
        #expect(driver.loads(of: segment).map(\.askedAt) == [0, 500, 1500, 3500, 7500, 11_500].map { .milliseconds($0) })
        #expect(willRetry == [true, true, true, true, true, false])
        #expect(driver.times { $0 == .stalled(at: Self.seconds(8)) } == [.seconds(8)])
        #expect(driver.machine.itemStatus == .failed(PlayerError(kind: .load, url: segment, message: "refused by the test (after 6 attempts)")))
    }

    // MARK: Live

    /// A live media playlist of 4 s segments from `first`.
    static func live(_ first: Int, count: Int = 6) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for index in first..<(first + count) { text += "#EXTINF:4.0,\nseg-\(index).ts\n" }
        return text
    }

    @Test("a live playlist is reloaded a target duration after it changed and half of one after it did not")
    func liveReloadCadence() {
        var driver = PlaybackMachineDriver()
        driver.serveSegments(Self.segmentURLs(20))
        driver.send(.setItems([item]))
        driver.answer(main, text: Self.live(0))
        #expect(driver.machine.duration == .indefinite)
        #expect(driver.kinds(at: .zero).contains(.durationChanged(.indefinite)))
        #expect(driver.machine.nextWake == .seconds(4))
        driver.run(until: .seconds(4))
        driver.answer(main, text: Self.live(0))   // unchanged: half a target duration
        #expect(driver.machine.nextWake == .seconds(6))
        driver.run(until: .seconds(6))
        driver.answer(main, text: Self.live(1))   // changed: a target duration
        #expect(driver.machine.nextWake == .seconds(10))
        driver.run(until: .seconds(10))
        #expect(driver.loads(of: main).map(\.askedAt) == [0, 4, 6, 10].map { .seconds($0) })
        #expect(driver.kinds(at: .seconds(6), includingLoads: true).first == .loaded(resource: .playlistReload, url: main, bytes: Self.live(1).utf8.count))
    }

    @Test("a live reload is timed from when the previous one was asked for, not from when its answer came (RFC 8216bis 6.3.4)")
    func liveReloadFromRequestStart() {
        var driver = PlaybackMachineDriver()
        driver.serveSegments(Self.segmentURLs(20))
        driver.send(.setItems([item]))
        driver.answer(main, text: Self.live(0))
        driver.run(until: .seconds(4))
        #expect(driver.loads(of: main).map(\.askedAt) == [.zero, .seconds(4)])
        // The reload takes 1 s and shows a new segment: the next is due a target duration after
        // it was asked for, as PlaylistReloadPolicy's summary says.
        driver.run(until: .seconds(5))
        driver.answer(main, text: Self.live(1))
        #expect(driver.machine.nextWake == .seconds(8))
    }

    // MARK: Interstitials

    static let adList = origin + "ads/ad.json?_HLS_primary_id=P1"
    static let ad5 = origin + "ads/ad5.m3u8?_HLS_primary_id=P1"

    /// An 80 s VOD with a point break at 20 s whose asset list holds one 5 s asset, all served.
    static func pointBreak(count: Int = 20) -> PlaybackMachineDriver {
        var driver = Self.vod(count: count, extra: Self.interstitial("ad", at: 20, "X-ASSET-LIST=\"ads/ad.json\""))
        driver.serve(adList, #"{"ASSETS":[{"URI":"ad5.m3u8","DURATION":5}]}"#)
        Self.serveAd(&driver, "ad5", seconds: 5)
        return Self.playing(driver)
    }

    @Test("a point break: its asset list asked for 15 s ahead, its first asset loaded 10 s ahead, the ad at its start, primary on at start + the assets' duration")
    func pointBreakLoads() {
        var driver = Self.pointBreak()
        driver.run(until: .seconds(22))
        #expect(driver.loads(of: Self.adList).map(\.askedAt) == [.seconds(5)])
        // At the preload lead (10 s before), or at the first wake after it: here the segment
        // fetch due 1 ns after.
        let preload = driver.loads(of: Self.ad5).map(\.askedAt)
        #expect(preload.count == 1 && preload.allSatisfy { !($0 < .seconds(10)) && $0 < .milliseconds(10_001) }, "\(preload)")
        #expect(driver.loads(of: origin + "ads/ad5-seg-0.ts").map(\.askedAt) == preload)
        #expect(driver.times { $0 == .currentEventChanged(id: "ad") } == [.seconds(20)])
        // In the break: primary stands at its start.
        #expect(driver.machine.currentPosition == .interstitial(eventID: "ad", offset: Self.seconds(2)))
        #expect(driver.machine.currentTime == Self.seconds(20))
        #expect(driver.machine.currentEvent?.identifier == "ad")
        #expect(driver.machine.effectiveRate == 0)
        driver.run(until: .seconds(26))
        // No X-RESUME-OFFSET: primary resumes the interstitial's duration (the list's 5 s) on.
        #expect(driver.times { $0 == .breakEnded(eventID: "ad", end: .completed, resumeAt: Self.seconds(25)) } == [.seconds(25)])
        #expect(driver.machine.currentPosition == .primary(Self.seconds(26)))
    }

    @Test("at a point break's start and end the events come in one order, with nothing but the break between")
    func breakBoundaryEventOrder() {
        var driver = Self.pointBreak()
        driver.run(until: .seconds(30))
        #expect(driver.kinds(at: .seconds(5)) == [
            .assetListResponse(eventID: "ad", status: .available(assets: 1)),
            .timelineChanged(reasons: [.segmentsChanged]),
        ])
        #expect(driver.kinds(at: .seconds(20)) == [
            .currentEventChanged(id: "ad"),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .assetStarted(eventID: "ad", index: 0, url: Self.ad5),
            .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.interstitialEvent)),
            // Preloaded: the interstitial player plays at once.
            .interstitialTimeControlStatusChanged(.playing),
        ])
        #expect(driver.kinds(at: .seconds(25)) == [
            .breakEnded(eventID: "ad", end: .completed, resumeAt: Self.seconds(25)),
            .currentEventChanged(id: nil),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .timeJumped(to: Self.seconds(25), originator: .player),
            .timeControlStatusChanged(.playing),
        ])
        // Between them, nothing but loads.
        #expect(driver.events.filter { $0.hostTime > .seconds(20) && $0.hostTime < .seconds(25) && !$0.kind.isLoad }.isEmpty)
    }

    @Test("a break's first asset is loaded at the preload lead even when nothing else wakes the machine then")
    func preloadWithoutAnotherWake() {
        // 40 s: every segment is in by 6 s, so nothing falls due between the preload point (10 s)
        // and the break (20 s).
        var driver = Self.pointBreak(count: 10)
        driver.run(until: .seconds(21))
        let preload = driver.loads(of: Self.ad5).map(\.askedAt)
        #expect(preload.allSatisfy { !($0 < .seconds(10)) && $0 < .milliseconds(10_001) }, "asked at \(preload)")
        #expect(preload.count == 1)
    }

    /// A 40 s VOD with a range break standing in for primary 12...20 s, an 8 s X-ASSET-URI asset.
    static func rangeBreak() -> PlaybackMachineDriver {
        var driver = Self.vod(extra: Self.interstitial("range", at: 12, "DURATION=8.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/ad8.m3u8\""))
        Self.serveAd(&driver, "ad8", seconds: 8)
        return Self.playing(driver)
    }

    @Test("a range break advances integrated time through its range while primary stands, and primary resumes at the range's end")
    func rangeBreak() {
        var driver = Self.rangeBreak()
        #expect(driver.machine.currentSnapshot?.duration == Self.seconds(40))
        driver.run(until: .seconds(16))
        #expect(driver.machine.currentPosition == .interstitial(eventID: "range", offset: Self.seconds(4)))
        #expect(driver.machine.currentTime == Self.seconds(12))
        #expect(driver.machine.integratedCurrentTime == Self.seconds(16))
        driver.run(until: .seconds(21))
        #expect(driver.kinds(at: .seconds(20)) == [
            .breakEnded(eventID: "range", end: .completed, resumeAt: Self.seconds(20)),
            .currentEventChanged(id: nil),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .timeJumped(to: Self.seconds(20), originator: .player),
            .timeControlStatusChanged(.playing),
        ])
        #expect(driver.machine.currentTime == Self.seconds(21))
        #expect(driver.machine.integratedCurrentTime == Self.seconds(21))
    }

    @Test("a seek to a break at an offset enters it at once, plays its asset from there, and resumes primary at the range's end")
    func seekIntoBreakAtOffset() {
        var driver = Self.rangeBreak()
        driver.run(until: .seconds(1))
        driver.send(.seek(id: 7, to: .interstitial(eventID: "range", offset: Self.seconds(3)), originator: .user))
        let ad8 = origin + "ads/ad8.m3u8?_HLS_primary_id=P1"
        #expect(driver.kinds(at: .seconds(1)) == [
            .timeJumped(to: Self.seconds(12), originator: .user),
            .currentEventChanged(id: "range"),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .assetStarted(eventID: "range", index: 0, url: ad8),
            .seekCompleted(id: 7, finished: true),
            .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.interstitialEvent)),
            // Not preloaded (the seek came before the preload lead): the asset loads first.
            .interstitialTimeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)),
            .interstitialTimeControlStatusChanged(.playing),
        ])
        #expect(driver.loads(of: ad8).map(\.askedAt) == [.seconds(1)])
        #expect(driver.machine.currentPosition == .interstitial(eventID: "range", offset: Self.seconds(3)))
        // Integrated time counts the offset into the range.
        #expect(driver.machine.integratedCurrentTime == Self.seconds(15))
        driver.run(until: .seconds(7))
        #expect(driver.times { $0 == .breakEnded(eventID: "range", end: .completed, resumeAt: Self.seconds(20)) } == [.seconds(6)])
        #expect(driver.machine.currentTime == Self.seconds(21))
    }

    static func skippable(_ attributes: String = "") -> PlaybackMachineDriver {
        var driver = Self.vod(extra: Self.interstitial("skippable", at: 4, "X-ASSET-URI=\"ads/ad15.m3u8\",X-SKIP-CONTROL-OFFSET=5.0,X-SKIP-CONTROL-DURATION=5.0,X-RESUME-OFFSET=2.0" + attributes))
        Self.serveAd(&driver, "ad15", seconds: 15)
        return Self.playing(driver)
    }

    @Test("a skip is ignored before the skip control's window opens and ends the break inside it; primary resumes at the resume offset")
    func skipInsideWindow() {
        var driver = Self.skippable()
        driver.run(until: .seconds(7))
        #expect(driver.send(.skipCurrentEvent) == [])
        driver.run(until: .seconds(12))
        #expect(driver.times { $0 == .skippableChanged(eventID: "skippable", skippable: true) } == [.seconds(9)])
        let at = Duration.seconds(12)
        #expect(driver.send(.skipCurrentEvent).compactMap { action -> PlayerEvent.Kind? in
            if case .event(let event) = action, event.hostTime == at { return event.kind } else { return nil }
        } == [
            .breakEnded(eventID: "skippable", end: .skipped, resumeAt: Self.seconds(6)),
            .currentEventChanged(id: nil),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .timeJumped(to: Self.seconds(6), originator: .player),
            .timeControlStatusChanged(.playing),
        ])
        #expect(driver.machine.currentPosition == .primary(Self.seconds(6)))
    }

    @Test("under X-RESTRICT=SKIP a skip is refused even inside the skip control's window, and the break plays to its end")
    func skipRefusedWhenRestricted() {
        var driver = Self.skippable(",X-RESTRICT=\"SKIP\"")
        driver.run(until: .seconds(12))
        #expect(driver.send(.skipCurrentEvent).isEmpty)
        #expect(!driver.events.contains { if case .skippableChanged(_, true) = $0.kind { return true } else { return false } })
        driver.run(until: .seconds(20))
        #expect(driver.times { $0 == .breakEnded(eventID: "skippable", end: .completed, resumeAt: Self.seconds(6)) } == [.seconds(19)])
    }

    @Test("under X-RESTRICT=SKIP the break plays at the default rate while the player is asked for twice that")
    func restrictedBreakAtDefaultRate() {
        func breakEnd(_ attributes: String) -> [Duration] {
            var driver = Self.skippable(attributes)
            driver.run(until: .seconds(10))
            driver.send(.setRate(2, originator: .user))
            driver.run(until: .seconds(30))
            #expect(driver.machine.rate == 2)
            return driver.times { if case .breakEnded = $0 { return true } else { return false } }
        }
        // 6 s of the 15 s ad played at 10 s: 9 s left, at 1x or 2x.
        #expect(breakEnd(",X-RESTRICT=\"SKIP\"") == [.seconds(19)])
        #expect(breakEnd("") == [.milliseconds(14_500)])
    }

    @Test("an asset list that cannot be loaded fails its break at its start: primary goes on from there without waiting")
    func assetListFailure() {
        var driver = Self.vod(count: 20, extra: Self.interstitial("ad", at: 20, "X-ASSET-LIST=\"ads/ad.json\""))
        driver = Self.playing(driver)
        driver.run(until: .seconds(5))
        driver.fail(Self.adList, .notFound, status: 404)
        driver.run(until: .seconds(21))
        let reason = "\(Self.adList): refused by the test"
        #expect(driver.kinds(at: .seconds(5), includingLoads: true) == [
            .loadFailed(resource: .assetList, url: Self.adList, message: "refused by the test", willRetry: false),
            .assetListResponse(eventID: "ad", status: .failed(reason)),
        ])
        // Entered and left at once, resuming where it began (no resumption offset, D.5).
        #expect(driver.kinds(at: .seconds(20)) == [
            .currentEventChanged(id: "ad"),
            .timelineChanged(reasons: [.currentSegmentChanged]),
            .breakEnded(eventID: "ad", end: .failed(reason), resumeAt: Self.seconds(20)),
            .currentEventChanged(id: nil),
            .timelineChanged(reasons: [.currentSegmentChanged]),
        ])
        #expect(driver.statuses == [.playing])
        #expect(driver.loads(of: Self.adList).count == 1)
        #expect(driver.machine.currentPosition == .primary(Self.seconds(21)))
    }
}
