import Foundation
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization
import Testing
import VirtualTime

private let origin = PlaybackScenarioTests.origin

/// Live, network and media scenarios on virtual time, with golden traces.
@Suite("Live and network playback scenarios")
struct LivePlaybackScenarioTests {
    typealias S = PlaybackScenarioTests

    /// A live stream of 4 s segments that began 60 s before the loader's zero, with a window of
    /// six segments, and DATERANGEs that appear from given times on.
    struct LiveStream: Sendable {
        var events: [(visibleFrom: Duration, line: String)] = []

        func playlist(at elapsed: Duration) -> [UInt8] {
            let now = 60 + Int(elapsed.components.seconds)
            let last = now / 4 - 1
            let first = max(0, last - 5)
            var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
            let seconds = first * 4
            text += "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:\(Self.two(seconds / 60)):\(Self.two(seconds % 60)).000Z\n"
            for event in events where !(elapsed < event.visibleFrom) { text += event.line }
            for index in first...last { text += "#EXTINF:4.0,\nseg-\(index).ts\n" }
            return Array(text.utf8)
        }

        static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    }

    static func serveLive(_ rig: PlaybackRig, _ stream: LiveStream) {
        rig.loader.set(origin + "live.m3u8") { stream.playlist(at: $0) }
        rig.serveSegments((0..<200).map { origin + "seg-\($0).ts" })
    }

    static let liveItem = PlayerItem(url: origin + "live.m3u8", primaryID: "P1")

    @Test("joining live inside a range break plays the rest of it, asks the asset list with _HLS_start_offset, and resumes at its end")
    func liveJoinInsideBreak() {
        let rig = S.play({ rig in
            Self.serveLive(rig, LiveStream(events: [(.zero, S.interstitial("live-ad", at: 44, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-LIST=\"ads/live.json\""))]))
            S.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/live.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }, item: Self.liveItem, limit: .seconds(30))
        S.check(rig, "live-join-inside-break")
        // The timeline starts at the first segment of the first playlist (stream time 36 s), so the
        // break (stream 44 s) is at 8 s; the live edge less three target durations is at 12 s:
        // 4 s into the break.
        let urls: [String] = rig.loader.requests.map { $0.url }
        let listRequest = urls.first { $0.contains("live.json") }
        #expect(listRequest?.contains("_HLS_start_offset=4") == true)
        #expect(listRequest?.contains("_HLS_primary_id=P1") == true)
        #expect(S.breakStarts(rig).map(\.id) == ["live-ad"])
        let end = S.breakEnds(rig).first
        #expect(end?.resume == MediaTime(seconds: 18))
        // 6 s of the ad remain, after loading the list, the ad's playlist and its segment.
        let endedAt = end?.at ?? .zero
        #expect(endedAt > .seconds(6) && endedAt < .seconds(7))
        #expect(rig.player.currentTime > MediaTime(seconds: 18))
    }

    @Test("live events that arrive and change across reloads reshape the timeline and play when reached")
    func liveEventsAcrossReloads() {
        let rig = S.play({ rig in
            Self.serveLive(rig, LiveStream(events: [
                (.seconds(8), S.interstitial("late", at: 64, "X-ASSET-URI=\"ads/a5.m3u8\"")),
                (.seconds(16), S.interstitial("late", at: 64, "DURATION=5.0")),
                (.seconds(16), S.interstitial("later", at: 72, "X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=0.0")),
            ]))
            S.serveAd(rig, "a5", seconds: 5)
        }, item: Self.liveItem, limit: .seconds(45))
        S.check(rig, "live-events-across-reloads")
        let changes = rig.events.compactMap { event -> Duration? in
            if case .interstitialEventsChanged = event.kind { return event.hostTime }
            return nil
        }
        #expect(changes.count == 2)   // "late", then "late" and "later"
        #expect(S.breakStarts(rig).map(\.id) == ["late", "later"])
        // Live point breaks resume by default where live has got to (their played duration);
        // "later" says 0 explicitly. Stream times 64 and 72 s are 28 and 36 s on the timeline.
        #expect(S.breakEnds(rig).map(\.resume) == [MediaTime(seconds: 33), MediaTime(seconds: 36)])
        #expect(rig.events.contains { event in
            if case .timelineChanged(let reasons) = event.kind { return reasons.contains(.segmentsChanged) }
            return false
        })
    }

    @Test("a throttled network stalls playback; it resumes once enough is buffered")
    func stallAndRecovery() {
        let rig = S.play({ rig in
            S.serveMain(rig, count: 10, extra: "")
            rig.serveSegments((0..<10).map { origin + "seg-\($0).ts" }, bytes: 500_000)
        }, conditions: .init(latency: .milliseconds(50), bytesPerSecond: 100_000), actions: [
            (.seconds(30), { rig in rig.loader.setConditions(.init(latency: .milliseconds(50), bytesPerSecond: 10_000_000)) }),
        ])
        S.check(rig, "stall-and-recovery")
        let stalls = rig.events.filter { if case .stalled = $0.kind { return true } else { return false } }
        #expect(!stalls.isEmpty)
        let loggedStalls = rig.player.accessLog.reduce(0) { $0 + $1.stalls }
        #expect(loggedStalls == stalls.count)
        #expect(rig.isOver)
        let statuses = rig.events.compactMap { event -> TimeControlStatus? in
            if case .timeControlStatusChanged(let status) = event.kind { return status }
            return nil
        }
        #expect(statuses.contains(TimeControlStatus.waitingToPlayAtSpecifiedRate(.toMinimizeStalls)))
        #expect(statuses.last == TimeControlStatus.paused)
    }

    @Test("segments failing on one variant are retried with backoff, then the player fails over to another")
    func variantFailover() {
        let rig = S.play { rig in
            rig.serve(origin + "main.m3u8", """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=100000
                high/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=50000
                low/index.m3u8

                """)
            rig.serve(origin + "high/index.m3u8", vodPlaylist(count: 5))
            rig.serve(origin + "low/index.m3u8", vodPlaylist(count: 5))
            rig.serveSegments((0..<5).map { origin + "low/seg-\($0).ts" })
            rig.serveSegments((0..<5).map { origin + "high/seg-\($0).ts" })
            rig.loader.fail(origin + "high/seg-0.ts", with: LoadError(kind: .httpStatus, url: origin + "high/seg-0.ts", status: 503, message: "HTTP 503"))
        }
        S.check(rig, "variant-failover", includingLoads: true)
        let failures = rig.events.compactMap { event -> Bool? in
            if case .loadFailed(_, _, _, let willRetry) = event.kind { return willRetry }
            return nil
        }
        #expect(failures == [true, true, false])
        #expect(rig.events.contains { $0.kind == .variantSwitched(bandwidth: 50000, reason: .failover) })
        #expect(rig.isOver)
        #expect(rig.player.errorLog.count == 3)
    }

    @Test("a stream whose every variant fails ends with a failed item and a clear error")
    func everythingFails() {
        let rig = S.play { rig in
            rig.serve(origin + "main.m3u8", vodPlaylist(count: 3))
        }
        let status = rig.player.currentItemStatus
        guard case .failed(let error) = status else {
            Issue.record("expected a failed item, got \(status)")
            return
        }
        #expect(error.url == origin + "seg-0.ts")
        #expect(error.description.contains("not found"))
    }

    @Test("EXTINF that disagrees with the media's real duration gives a warning")
    func extinfMismatch() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Media/content/seg-000.ts")
        let bytes = try [UInt8](Data(contentsOf: fixture))
        let rig = S.play { rig in
            rig.serve(origin + "main.m3u8", """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXTINF:4.0,
                seg-0.ts
                #EXTINF:6.0,
                seg-1.ts
                #EXT-X-ENDLIST

                """)
            rig.loader.set(origin + "seg-0.ts", bytes)
            rig.loader.set(origin + "seg-1.ts", bytes)
        }
        S.check(rig, "extinf-mismatch")
        let warnings = rig.events.compactMap { event -> String? in
            if case .warning(let message) = event.kind { return message }
            return nil
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix(origin + "seg-1.ts: EXTINF says 6 s but the media lasts 4") == true)
    }
}

/// A live stream of 4 s segments with ads stitched in: segments 12–14 are a 12 s pod (EXT-X-CUE-OUT,
/// EXT-X-CUE-OUT-CONT, EXT-X-CUE-IN on segment 15), the rest content; windows as in
/// ``LivePlaybackScenarioTests/LiveStream``.
@Suite("Live stitched ads in the player")
struct LiveStitchedPlaybackTests {
    static func playlist(at elapsed: Duration) -> [UInt8] {
        let now = 60 + Int(elapsed.components.seconds)
        let last = now / 4 - 1
        let first = max(0, last - 5)
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        let seconds = first * 4
        text += "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:\(LivePlaybackScenarioTests.LiveStream.two(seconds / 60)):\(LivePlaybackScenarioTests.LiveStream.two(seconds % 60)).000Z\n"
        for index in first...last {
            switch index {
            case 12: text += "#EXT-X-DISCONTINUITY\n#EXT-X-CUE-OUT:12\n"
            case 13, 14: text += "#EXT-X-CUE-OUT-CONT:ElapsedTime=\((index - 12) * 4),Duration=12\n"
            case 15 where index > first: text += "#EXT-X-DISCONTINUITY\n#EXT-X-CUE-IN\n"
            default: break
            }
            text += "#EXTINF:4.0,\nseg-\(index).ts\n"
        }
        return Array(text.utf8)
    }

    @Test("a stitched pod keeps its item-time range as its segments leave the live window, and after they are gone")
    func podKeepsItsRange() {
        let samples = Mutex<[(Duration, [MediaTimeRange], MediaTime?)]>([])
        let sample: @Sendable (PlaybackRig) -> Void = { rig in
            let machine = rig.player.machineState
            let now = rig.clock.now.offset
            samples.withLock { $0.append((now, machine.stitchedAds?.ranges ?? [], machine.timelineStart)) }
        }
        _ = PlaybackScenarioTests.play({ rig in
            rig.loader.set(origin + "live.m3u8") { Self.playlist(at: $0) }
            rig.serveSegments((0..<200).map { origin + "seg-\($0).ts" })
        }, item: LivePlaybackScenarioTests.liveItem, actions: [2, 14, 22, 30, 44].map { (.seconds($0), sample) }, limit: .seconds(45))
        // The first window holds segments 9–14: the item timeline starts at segment 9, so the pod
        // (segments 12–14, CUE-IN not yet published) is at 12–24 s, its end from the CUE-OUT.
        let pod = MediaTimeRange(start: MediaTime(seconds: 12), end: MediaTime(seconds: 24))
        let taken = samples.withLock { $0 }
        #expect(taken.count == 5)
        for (time, ranges, _) in taken {
            #expect(ranges == [pod], "at \(time)")
        }
        // By the third sample the window starts inside the pod (its CUE-OUT gone), by the last
        // one after it.
        #expect(taken[2].2.map { pod.start < $0 && $0 < pod.end } == true)
        #expect(taken.last?.2.map { !($0 < pod.end) } == true)
    }
}
