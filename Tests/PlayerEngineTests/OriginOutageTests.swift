import Foundation
import HLSPlaylist
import MediaTime
import NetworkIO
import PlayerEngine
import StreamOrigin
import Synchronization
import Testing
import VirtualTime

/// The real origin over loopback, stopped and started again under a playing player; and real
/// URLSession loads cancelled under load.
@Suite("Playback through an origin outage, and cancelled real loads", .serialized)
struct OriginOutageTests {
    static let media = OriginPlaybackTests.media
    static let liveStart = OriginPlaybackTests.liveStart

    /// A restartable origin on one loopback port, its wall clock following `clock`.
    final class RestartableOrigin: Sendable {
        let origin: Origin
        let clock: ManualClock
        private let running = Mutex<(server: OriginServer, task: Task<Void, any Error>)?>(nil)
        let port = Atomic(0)

        init(clock: ManualClock) throws {
            let library = try MediaLibrary.load(directory: OriginOutageTests.media, configuration: .default)
            origin = try Origin(configuration: .default, library: library, liveStartDate: OriginOutageTests.liveStart)
            self.clock = clock
        }

        func start() async throws {
            let clock = self.clock
            let server = OriginServer(origin: origin, configuration: HTTPServer.Configuration(host: "127.0.0.1", port: port.load(ordering: .relaxed)),
                                      wallClock: { OriginOutageTests.liveStart.adding(MediaTime(seconds: 100) + MediaTime(clock.now.offset)) })
            let task = Task { try await server.run() }
            port.store(try await server.listeningPort(), ordering: .relaxed)
            running.withLock { $0 = (server, task) }
        }

        func stop() async {
            guard let (server, task) = running.withLock({ value in defer { value = nil }; return value }) else { return }
            server.shutdown()
            _ = try? await task.value
        }
    }

    /// Runs the driver on a thread of its own (it blocks while real loads are in flight) until
    /// `done` or `limit` of virtual time.
    static func drive(_ clock: ManualClock, _ executor: ManualTaskExecutor, _ player: Player, until done: @escaping @Sendable () -> Bool,
                      limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                VirtualTimeDriver(clock: clock, executor: executor).run(
                    until: done, limit: ManualClock.Instant(offset: limit), isWaitingForOutsideWork: { player.pendingLoadCount > 0 })
                continuation.resume()
            }
        }
    }

    /// Plays `path`; stops the origin at `outageStart` for `outage` of virtual time; returns the
    /// events, the media buffered ahead when the origin went away, and the player.
    static func playThroughOutage(_ path: String, outageStart: Duration, outage: Duration, end: Duration) async throws
        -> (events: [PlayerEvent], bufferedAtOutage: MediaTime, player: Player) {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let origin = try RestartableOrigin(clock: clock)
        try await origin.start()
        let log = EventLog()
        let player = Player(clock: clock, loader: HTTPResourceLoader(timeout: 5), executor: executor)
        player.addEventHandler { log.append($0) }
        player.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:\(origin.port.load(ordering: .relaxed))\(path)", primaryID: "outage"))
        player.play()
        let isOver: @Sendable () -> Bool = {
            log.events.contains { event in
                if case .itemStatusChanged(.failed) = event.kind { return true }
                return event.kind == .playedToEnd
            }
        }
        await drive(clock, executor, player, until: { isOver() || clock.now.offset >= outageStart }, limit: outageStart)
        let position = player.currentTime
        let buffered = player.loadedTimeRanges.first { $0.contains(position) }.map { $0.end - position } ?? .zero
        await origin.stop()
        await drive(clock, executor, player, until: isOver, limit: outageStart + outage)
        try await origin.start()
        await drive(clock, executor, player, until: isOver, limit: end)
        await origin.stop()
        player.replaceCurrentItem(with: nil)
        return (log.events, buffered, player)
    }

    /// The host time spent stalled (from each stall to the next time playback resumed).
    static func stalledTime(_ events: [PlayerEvent]) -> Duration {
        var total = Duration.zero
        var since: Duration?
        for event in events {
            switch event.kind {
            case .stalled: since = event.hostTime
            case .timeControlStatusChanged(.playing):
                if let start = since { total += event.hostTime - start }
                since = nil
            default: break
            }
        }
        return total
    }

    @Test("the origin stopped for 5 s during a VOD play: the player plays through from its buffer, reports the outage and its recovery, and ends")
    func vodOutage() async throws {
        let (events, buffered, player) = try await Self.playThroughOutage("/vod/movie/bob/main.m3u8", outageStart: .seconds(20), outage: .seconds(5), end: .seconds(600))
        #expect(events.contains { $0.kind == .playedToEnd })
        #expect(!events.contains { if case .itemStatusChanged(.failed) = $0.kind { return true } else { return false } })
        #expect(events.contains { if case .loadFailed(_, _, _, true) = $0.kind { return true } else { return false } })
        #expect(events.contains { if case .loadRecovered = $0.kind { return true } else { return false } })
        let allowed = max(.zero, .seconds(5) - PlayTimeTestSupport.duration(buffered))
        #expect(Self.stalledTime(events) <= allowed)
        #expect(player.currentItem == nil)
    }

    @Test("the origin stopped for 5 s during a live play: reloads and segments recover, and any stall is no longer than the outage minus the buffer")
    func liveOutage() async throws {
        let (events, buffered, player) = try await Self.playThroughOutage("/live/channel/bob/main.m3u8", outageStart: .seconds(30), outage: .seconds(5), end: .seconds(90))
        #expect(!events.contains { if case .itemStatusChanged(.failed) = $0.kind { return true } else { return false } })
        #expect(events.contains { if case .loadRecovered = $0.kind { return true } else { return false } })
        let allowed = max(.zero, .seconds(5) - PlayTimeTestSupport.duration(buffered)) + .seconds(1)
        #expect(Self.stalledTime(events) <= allowed)
        let reloadsAfter = events.filter { event in
            if case .loaded(.playlistReload, _, _) = event.kind { return event.hostTime > .seconds(35) }
            return false
        }
        #expect(reloadsAfter.count > 5)
        #expect(player.currentItem == nil)
    }

    @Test("cancelling real HTTP loads a thousand times, while another thread reads the player, never deadlocks it")
    func cancelledLoadsNeverDeadlock() async throws {
        let clock = ManualClock()
        let origin = try RestartableOrigin(clock: clock)
        try await origin.start()
        let port = origin.port.load(ordering: .relaxed)
        let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader(timeout: 5))
        let events = Atomic(0)
        player.addEventHandler { _ in events.add(1, ordering: .relaxed) }
        let paths = ["/vod/movie/bob/main.m3u8", "/live/channel/bob/main.m3u8", "/vod/movie/charlie/main.m3u8"]
        let finished = DispatchSemaphore(value: 0)
        let stop = Atomic(false)
        Thread.detachNewThread {
            // A reader, as a terminal display or a coordinator would be.
            while !stop.load(ordering: .relaxed) {
                _ = player.currentSnapshot
                _ = player.timeControlStatus
                _ = player.currentTime
            }
        }
        Thread.detachNewThread {
            var generator = SystemRandomNumberGenerator()
            for round in 0..<1000 {
                if round % 100 == 0 {
                    player.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:\(port)\(paths[round / 100 % paths.count])"))
                    player.play()
                }
                player.startSeek(to: MediaTime(value: Int64.random(in: 0..<110_000, using: &generator), timescale: 1000))
                // Let a load get going (bounded), then cut it short with the next seek, at a
                // moment that races its completion.
                for _ in 0..<20 where player.pendingLoadCount == 0 { Thread.sleep(forTimeInterval: 0.001) }
                Thread.sleep(forTimeInterval: Double.random(in: 0..<0.002, using: &generator))
            }
            player.replaceCurrentItem(with: nil)
            finished.signal()
        }
        let completed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread { continuation.resume(returning: finished.wait(timeout: .now() + 120) == .success) }
        }
        stop.store(true, ordering: .relaxed)
        #expect(completed, "the player stopped answering: a deadlock")
        if completed {
            #expect(player.currentItem == nil)
            #expect(events.load(ordering: .relaxed) > 300)
        }
        await origin.stop()
    }
}

enum PlayTimeTestSupport {
    static func duration(_ time: MediaTime) -> Duration { .nanoseconds(time.floorUnits(timescale: 1_000_000_000) ?? 0) }
}
