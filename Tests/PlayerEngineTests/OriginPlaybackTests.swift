import Foundation
import HLSInterstitials
import HLSPlaylist
import MediaTime
import NetworkIO
import PlayerEngine
import StreamOrigin
import Testing
import VirtualTime

/// The player against the project's origin over real HTTP on loopback: real MPEG-TS segments,
/// real asset lists with per-viewer ads. Playback runs on virtual time (the loads are real: the
/// driver waits for them), and the origin's wall clock follows the virtual clock so that live
/// playlists move with it.
@Suite("Playback over real HTTP from the origin", .serialized)
struct OriginPlaybackTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Media").path
    static let liveStart = PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!

    /// Plays `path` from a fresh origin for up to `limit` of virtual time; returns the events.
    static func play(_ path: String, limit: Duration) async throws -> (events: [PlayerEvent], player: Player) {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let library = try MediaLibrary.load(directory: media, configuration: .default)
        let origin = try Origin(configuration: .default, library: library, liveStartDate: liveStart)
        let server = OriginServer(origin: origin, configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
                                  wallClock: { liveStart.adding(MediaTime(seconds: 100) + MediaTime(clock.now.offset)) })
        let log = EventLog()
        let player = Player(clock: clock, loader: HTTPResourceLoader(timeout: 10), executor: executor)
        player.addEventHandler { log.append($0) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { server.shutdown() }
            let port = try await server.listeningPort()
            player.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:\(port)\(path)", primaryID: "test-session"))
            player.play()
            let ended: @Sendable () -> Bool = { log.events.contains { event in
                if case .itemStatusChanged(.failed) = event.kind { return true }
                return event.kind == .playedToEnd
            } }
            // The driver blocks this thread while it waits for real loads; run it off the
            // cooperative pool.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    VirtualTimeDriver(clock: clock, executor: executor).run(
                        until: ended, limit: ManualClock.Instant(offset: limit), isWaitingForOutsideWork: { player.pendingLoadCount > 0 })
                    continuation.resume()
                }
            }
            server.shutdown()
            try await group.waitForAll()
            return (log.events, player)
        }
    }

    static func breaks(_ events: [PlayerEvent]) -> [(id: String, end: String)] {
        events.compactMap { event in
            if case .breakEnded(let id, let end, _) = event.kind { return (id, end.description) }
            return nil
        }
    }

    static func warnings(_ events: [PlayerEvent]) -> [String] {
        events.compactMap { event in
            if case .warning(let message) = event.kind { return message }
            return nil
        }
    }

    @Test("a viewer with ads plays the VOD movie to its end: every break from the origin's asset lists, every segment's EXTINF true to its media")
    func vodWithAds() async throws {
        let (events, player) = try await Self.play("/vod/movie/bob/main.m3u8", limit: .seconds(600))
        // 120 s of movie and two 15 s spots.
        #expect(events.first { $0.kind == .playedToEnd }?.hostTime == .seconds(150))
        let assets = events.compactMap { event -> String? in
            if case .assetStarted(_, _, let url) = event.kind { return url }
            return nil
        }
        #expect(assets.count == 2)
        #expect(assets.allSatisfy { $0.hasSuffix("/ads/media/spot-15s/index.m3u8?_HLS_primary_id=test-session") })
        let ended = Self.breaks(events)
        #expect(!ended.isEmpty)
        #expect(ended.allSatisfy { $0.end == "completed" })
        #expect(Self.warnings(events).isEmpty)
        let segments = events.filter { if case .loaded(.segment, _, _) = $0.kind { return true } else { return false } }
        let adSegments = events.filter { if case .loaded(.assetSegment, _, _) = $0.kind { return true } else { return false } }
        #expect(segments.count >= 15)
        #expect(!adSegments.isEmpty)
        #expect(player.errorLog.isEmpty)
    }

    @Test("a premium viewer's breaks have empty asset lists: they end at once and the movie plays in its own time")
    func premiumVOD() async throws {
        let (events, _) = try await Self.play("/vod/movie/alice/main.m3u8", limit: .seconds(600))
        let end = events.first { $0.kind == .playedToEnd }?.hostTime
        #expect(end == .seconds(120))   // the movie's length: no ad time
        #expect(events.contains { $0.kind == .assetListResponse(eventID: "mid-1", status: .available(assets: 0)) })
        #expect(!events.contains { if case .assetStarted = $0.kind { return true } else { return false } })
        #expect(Self.warnings(events).isEmpty)
    }

    @Test("live from the origin: the window moves with the clock and the viewer's live breaks play")
    func live() async throws {
        let (events, player) = try await Self.play("/live/channel/charlie/main.m3u8", limit: .seconds(240))
        #expect(player.currentItemStatus == .readyToPlay)
        let reloads = events.filter { if case .loaded(.playlistReload, _, _) = $0.kind { return true } else { return false } }
        #expect(reloads.count > 20)
        #expect(!Self.breaks(events).isEmpty)
        #expect(Self.warnings(events).isEmpty)
        #expect(player.currentTime > MediaTime(seconds: 150))
    }

    @Test("an unreachable host and a missing stream fail the item with a clear error")
    func failures() async throws {
        let (events, player) = try await Self.play("/vod/no-such-stream/bob/main.m3u8", limit: .seconds(60))
        guard case .failed(let error) = player.currentItemStatus else {
            Issue.record("expected a failure, got \(player.currentItemStatus)")
            return
        }
        #expect(error.description.contains("no-such-stream"))
        #expect(error.description.contains("404") || error.description.contains("not found"))
        #expect(events.contains { if case .itemStatusChanged(.failed) = $0.kind { return true } else { return false } })

        // Nothing listens on port 1: connection refused, retried, then a failed item.
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let unreachable = Player(clock: clock, loader: HTTPResourceLoader(timeout: 5), executor: executor)
        unreachable.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:1/main.m3u8"))
        unreachable.play()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                VirtualTimeDriver(clock: clock, executor: executor).run(
                    until: { if case .failed = unreachable.currentItemStatus { return true } else { return false } },
                    limit: ManualClock.Instant(offset: .seconds(60)), isWaitingForOutsideWork: { unreachable.pendingLoadCount > 0 })
                continuation.resume()
            }
        }
        guard case .failed(let refused) = unreachable.currentItemStatus else {
            Issue.record("expected a failure, got \(unreachable.currentItemStatus)")
            return
        }
        #expect(refused.url == "http://127.0.0.1:1/main.m3u8")
        #expect(unreachable.errorLog.count == 3)
    }
}

