import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing
import VirtualTime

private let origin = PlaybackScenarioTests.origin
private typealias S = PlaybackScenarioTests

/// The player's controls: rate, anchored rate, seeks, holds, the queue, restrictions, observation.
@Suite("Player controls")
struct PlayerControlTests {
    static func vodRig(count: Int = 10, extra: String = "", configuration: PlayerConfiguration = PlayerConfiguration()) -> PlaybackRig {
        let rig = PlaybackRig(configuration: configuration)
        S.serveMain(rig, count: count, extra: extra)
        S.serveAd(rig, "a10", seconds: 10)
        return rig
    }

    static func statuses(_ rig: PlaybackRig) -> [TimeControlStatus] {
        rig.events.compactMap { event in
            if case .timeControlStatusChanged(let status) = event.kind { return status }
            return nil
        }
    }

    @Test("playing without an item waits with the reason 'no item to play'")
    func noItem() {
        let rig = PlaybackRig()
        rig.player.play()
        #expect(rig.player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.noItemToPlay))
    }

    @Test("pause stops the playhead where it is; play goes on from there")
    func pauseAndPlay() {
        let rig = Self.vodRig()
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.player.play()
        rig.run(for: .seconds(10))
        rig.player.pause()
        let paused = rig.player.currentTime
        rig.run(for: .seconds(5))
        #expect(rig.player.currentTime == paused)
        #expect(paused == MediaTime(value: 99, timescale: 10))
        rig.player.play()
        rig.run(for: .seconds(2))
        #expect(rig.player.currentTime == paused + MediaTime(seconds: 2))
        #expect(rig.player.loadedTimeRanges == [MediaTimeRange(start: .zero, end: MediaTime(seconds: 40))])
        #expect(rig.player.seekableTimeRanges == [MediaTimeRange(start: .zero, end: MediaTime(seconds: 40))])
    }

    @Test("setRate(_:time:atHostTime:) in the future holds the player at the time until then; in the past it catches up")
    func anchoredRate() {
        let rig = Self.vodRig()
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.run(for: .seconds(1))
        rig.player.setRate(1, time: MediaTime(seconds: 8), atHostTime: .seconds(3), originator: .coordinator)
        rig.run(for: .seconds(1))
        #expect(rig.player.currentTime == MediaTime(seconds: 8))
        #expect(rig.player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback))
        rig.run(for: .seconds(3))   // host time 5: two seconds after the anchor
        #expect(rig.player.currentTime == MediaTime(seconds: 10))
        rig.player.setRate(2, time: MediaTime(seconds: 20), atHostTime: .seconds(4))   // one second ago at 2×
        #expect(rig.player.currentTime == MediaTime(seconds: 22))
        #expect(rig.events.contains { $0.kind == .rateChanged(rate: 1, originator: .coordinator) })
    }

    @Test("a seek superseded by another reports false; the second reports true once media is there")
    func supersededSeek() async {
        let rig = Self.vodRig(count: 30)
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.player.play()
        rig.run(for: .seconds(2))
        rig.player.startSeek(to: MediaTime(seconds: 80))
        rig.player.startSeek(to: MediaTime(seconds: 100))
        rig.run(for: .seconds(1))
        let completions = rig.events.compactMap { event -> Bool? in
            if case .seekCompleted(_, let finished) = event.kind { return finished }
            return nil
        }
        #expect(completions == [false, true])
        #expect(rig.player.currentTime > MediaTime(seconds: 100))
    }

    @Test("a coordination hold keeps the playhead still with 'waiting for coordinated playback'")
    func coordinationHold() {
        let rig = Self.vodRig()
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.player.play()
        rig.run(for: .seconds(3))
        rig.player.setCoordinationHold(true)
        let held = rig.player.currentTime
        rig.run(for: .seconds(3))
        #expect(rig.player.currentTime == held)
        #expect(rig.player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback))
        rig.player.setCoordinationHold(false)
        rig.run(for: .seconds(1))
        #expect(rig.player.currentTime == held + MediaTime(seconds: 1))
    }

    @Test("playImmediately starts with whatever is buffered; automatic waiting would wait for the threshold")
    func playImmediately() {
        var configuration = PlayerConfiguration()
        configuration.resumeThreshold = MediaTime(seconds: 30)
        let waiting = Self.vodRig(configuration: configuration)
        waiting.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        waiting.loader.setConditions(.init(latency: .seconds(1)))
        waiting.player.play()
        waiting.run(for: .seconds(3))
        #expect(waiting.player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate))
        let eager = Self.vodRig(configuration: configuration)
        eager.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        eager.loader.setConditions(.init(latency: .seconds(1)))
        eager.player.playImmediately(atRate: 1)
        eager.run(for: .seconds(3))
        #expect(eager.player.timeControlStatus == .playing)
        #expect(eager.player.currentTime == MediaTime(seconds: 1))
    }

    @Test("X-RESTRICT=SKIP: the break plays at the default rate whatever the player's, and seeks forward out of it are refused")
    func skipRestriction() {
        let rig = Self.vodRig(extra: S.interstitial("locked", at: 4, "X-ASSET-URI=\"ads/a10.m3u8\",X-RESTRICT=\"SKIP,JUMP\""))
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.player.setRate(2)
        rig.run(for: .seconds(3))   // primary reaches 4 s at 2.05 s
        #expect(rig.player.currentEvent?.identifier == "locked")
        rig.player.startSeek(to: MediaTime(seconds: 30))
        rig.run(for: .seconds(5))
        #expect(rig.player.currentEvent?.identifier == "locked")
        #expect(rig.events.contains { if case .warning(let message) = $0.kind { return message.hasPrefix("seek refused") } else { return false } })
        rig.runToEnd()
        let start = S.breakStarts(rig).first?.at ?? .zero
        let end = S.breakEnds(rig).first?.at ?? .zero
        // Ten seconds of ad at 1× (preloaded before the break: no gap), not five at 2×.
        #expect(end - start == .seconds(10))
    }

    @Test("the queue plays its items one after another")
    func queue() {
        let rig = Self.vodRig(count: 2)
        rig.serve(origin + "second.m3u8", vodPlaylist(count: 1))
        rig.player.setItems([PlayerItem(url: origin + "main.m3u8"), PlayerItem(url: origin + "second.m3u8")])
        rig.player.play()
        rig.run(for: .seconds(20))
        let items = rig.events.compactMap { event -> String?? in
            if case .currentItemChanged(let url) = event.kind { return url }
            return nil
        }
        #expect(items == [origin + "main.m3u8", origin + "second.m3u8"])
        #expect(rig.events.filter { $0.kind == .playedToEnd }.count == 2)
    }

    @Test("events() is an async sequence of every state change")
    func eventStream() async {
        let rig = Self.vodRig(count: 2)
        let stream = rig.player.events()
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        rig.player.play()
        rig.runToEnd()
        var names: [String] = []
        for await event in stream {
            names.append(event.kind.name)
            if event.kind == .playedToEnd { break }
        }
        #expect(names.first == "currentItem")
        #expect(names.last == "playedToEnd")
        #expect(names.contains("itemStatus"))
    }

    @Test("a primary periodic observer fires on each interval of item time, and not while paused")
    func periodicPrimary() {
        let rig = Self.vodRig(count: 3)
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8"))
        let times = EventTimes()
        let stream = rig.player.periodicTimes(interval: MediaTime(seconds: 3))
        Task(executorPreference: rig.executor) { for await time in stream { times.append(time.decimalString()) } }
        rig.player.play()
        rig.run(for: .seconds(4))
        rig.player.pause()
        rig.run(for: .seconds(10))
        rig.player.play()
        rig.runToEnd()
        #expect(times.values == ["3", "6", "9", "12"])
    }
}
