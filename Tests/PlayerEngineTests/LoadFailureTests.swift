import MediaTime
import PlayerEngine
import Testing
import VirtualTime

/// How the player meets servers that go away, send too much or send the wrong thing.
@Suite("Outages, size limits and unreadable resources")
struct LoadFailureTests {
    static let refused = LoadError(kind: .network, url: "", message: "cannot connect to the server (connection refused)")

    /// A rig playing a 120 s VOD of 4 s segments from memory.
    static func vodRig(configuration: PlayerConfiguration = PlayerConfiguration()) -> PlaybackRig {
        let rig = PlaybackRig(configuration: configuration)
        rig.serve("mem://vod/main.m3u8", vodPlaylist(count: 30))
        rig.serveSegments((0..<30).map { "mem://vod/seg-\($0).ts" })
        rig.player.replaceCurrentItem(with: PlayerItem(url: "mem://vod/main.m3u8"))
        rig.player.play()
        return rig
    }

    static func failure(_ events: [PlayerEvent]) -> PlayerError? {
        events.lazy.compactMap { event -> PlayerError? in
            if case .itemStatusChanged(.failed(let error)) = event.kind { return error }
            return nil
        }.first
    }

    @Test("a three-second outage five seconds into a VOD is ridden out from the buffer: no failure, no stall, and the recovery is reported")
    func shortOutageIsRiddenOut() {
        let rig = Self.vodRig()
        rig.run(for: .seconds(5))
        rig.loader.setOutage(Self.refused)
        rig.run(for: .seconds(3))
        rig.loader.setOutage(nil)
        rig.runToEnd()
        let events = rig.events
        #expect(Self.failure(events) == nil)
        #expect(events.contains { $0.kind == .playedToEnd })
        #expect(!events.contains { if case .stalled = $0.kind { return true } else { return false } })
        let failures = events.filter { if case .loadFailed(_, _, _, true) = $0.kind { return true } else { return false } }
        #expect(failures.count >= 3, "more attempts than the three a load gets with nothing buffered")
        let recovered = events.compactMap { event -> Duration? in
            if case .loadRecovered(_, _, _, let outage) = event.kind { return outage }
            return nil
        }
        #expect(!recovered.isEmpty)
        #expect(recovered.allSatisfy { $0 <= .seconds(8) })
    }

    @Test("a break's asset list that meets an outage is retried while primary plays on, and the break plays when the server is back")
    func assetListOutageIsRiddenOut() {
        let origin = PlaybackScenarioTests.origin
        let rig = PlaybackScenarioTests.play({ rig in
            PlaybackScenarioTests.serveMain(rig, extra: PlaybackScenarioTests.interstitial("mid", at: 40, "X-ASSET-LIST=\"ads/mid.json\""))
            PlaybackScenarioTests.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/mid.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }, actions: [
            // The asset list is asked for 15 s ahead of the break, at 25 s: the server is away
            // from 24 s to 32 s, long past three attempts.
            (.seconds(24), { rig in rig.loader.setOutage(Self.refused) }),
            (.seconds(32), { rig in rig.loader.setOutage(nil) }),
        ])
        let ends = rig.events.compactMap { event -> String? in
            if case .breakEnded("mid", let end, _) = event.kind { return end.description }
            return nil
        }
        #expect(ends == ["completed"])
        #expect(rig.events.contains { if case .loadRecovered(.assetList, _, _, _) = $0.kind { return true } else { return false } })
        #expect(Self.failure(rig.events) == nil)
    }

    @Test("an outage longer than the buffer fails the item only once the buffer has run dry, not after three attempts")
    func longOutageFailsWhenTheBufferRunsDry() {
        let rig = Self.vodRig()
        rig.run(for: .seconds(5))
        rig.loader.setOutage(Self.refused)
        rig.runToEnd(limit: .seconds(600))
        let events = rig.events
        let failedAt = events.first { if case .itemStatusChanged(.failed) = $0.kind { return true } else { return false } }?.hostTime
        let stalledAt = events.first { if case .stalled = $0.kind { return true } else { return false } }?.hostTime
        #expect(Self.failure(events)?.kind == .load)
        // 30 s of media ahead when the server went away: the playhead reached the buffer's end,
        // stalled, and only then did the player give up.
        let stall = try! #require(stalledAt)
        let failure = try! #require(failedAt)
        #expect(stall > .seconds(30))
        #expect(stall <= failure)
    }

    @Test("with nothing buffered a failing load is tried three times, 0.5 s and 1 s apart, then the item fails")
    func nothingBufferedFailsAfterTheAttempts() {
        let rig = PlaybackRig()
        rig.loader.setOutage(Self.refused)
        rig.player.replaceCurrentItem(with: PlayerItem(url: "mem://vod/main.m3u8"))
        rig.player.play()
        rig.runToEnd(limit: .seconds(60))
        let attempts = rig.events.filter { if case .loadFailed = $0.kind { return true } else { return false } }.map(\.hostTime)
        #expect(attempts == [.milliseconds(50), .milliseconds(600), .milliseconds(1650)])
        #expect(Self.failure(rig.events)?.kind == .load)
    }

    @Test("retry waits double up to the longest wait configured")
    func retryWaitsAreCapped() {
        var configuration = PlayerConfiguration()
        configuration.maxAttempts = 6
        configuration.maxRetryDelay = .seconds(1)
        let rig = PlaybackRig(configuration: configuration)
        rig.loader.setOutage(Self.refused)
        rig.player.replaceCurrentItem(with: PlayerItem(url: "mem://vod/main.m3u8"))
        rig.player.play()
        rig.runToEnd(limit: .seconds(60))
        let attempts = rig.events.filter { if case .loadFailed = $0.kind { return true } else { return false } }.map(\.hostTime)
        let gaps = zip(attempts.dropFirst(), attempts).map { $0 - $1 - .milliseconds(50) }
        #expect(gaps == [.milliseconds(500), .seconds(1), .seconds(1), .seconds(1), .seconds(1)])
    }

    @Test("a segment larger than the segment limit fails the item with the limit named, without retrying")
    func oversizedSegmentFails() {
        var configuration = PlayerConfiguration()
        configuration.maxSegmentBytes = 999
        let rig = Self.vodRig(configuration: configuration)
        rig.runToEnd(limit: .seconds(60))
        let error = try! #require(Self.failure(rig.events))
        #expect(error.message.contains("larger than the limit of 999 bytes"))
        let retried = rig.events.contains { if case .loadFailed(_, _, _, true) = $0.kind { return true } else { return false } }
        #expect(!retried)
    }

    @Test("a playlist larger than the playlist limit fails the item with the limit named")
    func oversizedPlaylistFails() {
        var configuration = PlayerConfiguration()
        configuration.maxPlaylistBytes = 512
        let rig = Self.vodRig(configuration: configuration)
        rig.runToEnd(limit: .seconds(60))
        #expect(Self.failure(rig.events)?.message.contains("larger than the limit of 512 bytes") == true)
    }

    @Test("an init section that is not one is retried a bounded number of times and fails the item, instead of being reloaded in a loop")
    func unreadableInitSectionFails() {
        let rig = PlaybackRig()
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for index in 0..<5 { text += "#EXTINF:4.0,\nseg-\(index).m4s\n" }
        rig.serve("mem://fmp4/main.m3u8", text + "#EXT-X-ENDLIST\n")
        rig.loader.set("mem://fmp4/init.mp4", [UInt8](repeating: 7, count: 100))
        rig.player.replaceCurrentItem(with: PlayerItem(url: "mem://fmp4/main.m3u8"))
        rig.player.play()
        rig.runToEnd(limit: .seconds(60))
        let initLoads = rig.loader.requests.filter { $0.url.hasSuffix("init.mp4") }.count
        #expect(initLoads == 3)
        #expect(Self.failure(rig.events)?.message.contains("initialization section") == true)
    }

    /// A fragmented-MP4 playlist whose EXT-X-MAP is `init.mp4`; the caller decides how it answers.
    static func initSectionRig(_ answer: (MemoryResourceLoader<ManualClock>) -> Void) -> PlaybackRig {
        let rig = PlaybackRig()
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for index in 0..<5 { text += "#EXTINF:4.0,\nseg-\(index).m4s\n" }
        rig.serve("mem://fmp4/main.m3u8", text + "#EXT-X-ENDLIST\n")
        answer(rig.loader)
        rig.player.replaceCurrentItem(with: PlayerItem(url: "mem://fmp4/main.m3u8"))
        rig.player.play()
        rig.runToEnd(limit: .seconds(60))
        return rig
    }

    @Test("an init section answered 404 fails the item at once, as a missing segment does, and is not asked again")
    func missingInitSectionFails() throws {
        let rig = Self.initSectionRig { _ in }
        #expect(rig.loader.requests.filter { $0.url.hasSuffix("init.mp4") }.count == 1)
        let failure = try #require(Self.failure(rig.events))
        #expect(failure.url == "mem://fmp4/init.mp4", "\(failure)")
    }

    @Test("an init section answered 503 is retried with back-off up to the attempt limit, then fails the item")
    func unavailableInitSectionIsRetriedThenFails() throws {
        let rig = Self.initSectionRig { loader in
            loader.fail("mem://fmp4/init.mp4", with: LoadError(kind: .httpStatus, url: "mem://fmp4/init.mp4", status: 503, message: "service unavailable"))
        }
        let loads = rig.loader.requests.filter { $0.url.hasSuffix("init.mp4") }
        #expect(loads.count == PlayerConfiguration().maxAttempts)
        let failure = try #require(Self.failure(rig.events))
        #expect(failure.url == "mem://fmp4/init.mp4", "\(failure)")
        let retries = rig.events.filter { event in
            if case .loadFailed(_, let url, _, true) = event.kind { return url.hasSuffix("init.mp4") } else { return false }
        }
        #expect(retries.count == PlayerConfiguration().maxAttempts - 1, "each failure but the last says it will be retried")
    }

    @Test("an event handler may call back into the player: events are delivered with the player's lock let go")
    func handlersMayCallBack() {
        let rig = Self.vodRig()
        let seen = EventLog()
        rig.player.addEventHandler { [player = rig.player] event in
            // Reading the player from its own handler used to take the lock it held.
            _ = player.currentTime
            if case .itemStatusChanged(.readyToPlay) = event.kind { player.pause() }
            seen.append(event)
        }
        rig.run(for: .seconds(10))
        #expect(seen.events.contains { $0.kind == .timeControlStatusChanged(.paused) })
        #expect(rig.player.rate == 0)
    }
}
