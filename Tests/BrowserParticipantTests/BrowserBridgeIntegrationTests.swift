import BrowserParticipant
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GroupCoordination
import GroupService
import GroupWire
import HLSPlaylist
import MediaTime
import NetworkIO
import PlayerEngine
import StreamOrigin
import Synchronization
import Testing
import VirtualTime

private let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Media").path
private let liveStart = PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!

private func realTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

private func seconds(_ value: WireValue?) -> Double? {
    switch value {
    case .double(let number)?: number
    case .integer(let number)?: Double(number)
    default: nil
    }
}

/// The lines the server logged.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    /// The parsed lines of `event`.
    func entries(_ event: String) -> [WireObject] {
        lines.withLock { $0 }.compactMap { line in
            guard case .object(let object)? = try? WireJSONParser().parse(Array(line.utf8)), object["event"] == .string(event) else { return nil }
            return object
        }
    }
}

/// Records what a player asks for, loading it for real.
private final class RecordingLoader: ResourceLoader {
    private let base = HTTPResourceLoader(timeout: 10)
    private let urls = Mutex<[String]>([])
    var requested: [String] { urls.withLock { $0 } }
    func load(_ request: ResourceRequest) async throws(LoadError) -> LoadedResource {
        urls.withLock { $0.append(request.url) }
        return try await base.load(request)
    }
}

@Suite("A browser participant against a real origin and group server", .serialized)
struct BrowserBridgeIntegrationTests {
    /// An origin on a free port for `body`.
    private func withOrigin(_ body: (String) async throws -> Void) async throws {
        let library = try MediaLibrary.load(directory: media, configuration: .default)
        let origin = try Origin(configuration: .default, library: library, liveStartDate: liveStart)
        let server = OriginServer(origin: origin, configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), wallClock: { liveStart })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            do {
                try await body("http://127.0.0.1:\(try await server.listeningPort())")
            } catch {
                server.shutdown()
                throw error
            }
            server.shutdown()
            try await group.waitForAll()
        }
    }

    @Test("the bridge's player loads the playlists and the asset lists, and no segment: the browser fetches the media")
    func fetchesNoSegments() async throws {
        try await withOrigin { origin in
            var configuration = PlayerConfiguration()
            configuration.fetchesSegments = false
            let clock = ManualClock()
            let executor = ManualTaskExecutor()
            let loader = RecordingLoader()
            let player = Player(clock: clock, loader: loader, configuration: configuration, executor: executor)
            player.replaceCurrentItem(with: PlayerItem(url: origin + "/vod/movie/charlie/main.m3u8"))
            player.play()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    VirtualTimeDriver(clock: clock, executor: executor).run(
                        until: { player.currentTime > MediaTime(seconds: Int64(75)) },
                        limit: ManualClock.Instant(offset: .seconds(200)), isWaitingForOutsideWork: { player.pendingLoadCount > 0 })
                    continuation.resume()
                }
            }
            // It played through charlie's first break (a 10 s and a 20 s ad) to 75 s of primary.
            let reached: MediaTime = player.currentTime
            #expect(reached > MediaTime(seconds: Int64(75)))
            let requested = loader.requested
            #expect(requested.contains { $0.contains("/vod/movie/charlie/main.m3u8") })
            #expect(requested.contains { $0.contains("/ads/movie/charlie/mid-1.json") })
            #expect(requested.contains { $0.hasSuffix("spot-20s/index.m3u8") || $0.contains("spot-20s/index.m3u8?") })
            var segments: [String] = []
            for url in requested where url.components(separatedBy: "?")[0].hasSuffix(".ts") { segments.append(url) }
            #expect(segments.isEmpty, "segments requested: \(segments) of \(requested)")
        }
    }

    @Test("a page with an invitation gets its role, stream, schedule and anchors on the server clock; closing it marks its participant lost within two keep-alives")
    func endToEnd() async throws {
        try await withOrigin { origin in
            let key = TokenKey.random()
            let ring = try TokenKeyRing(keys: [key], signingKeyID: key.id)
            let log = LogLines()
            let browsers = BrowserParticipantService(configuration: {
                var configuration = BrowserParticipantService.Configuration()
                configuration.log = { log.append($0) }
                return configuration
            }())
            var configuration = GroupServer.Configuration(
                http: HTTPServer.Configuration(host: "127.0.0.1", port: 0), keyRing: ring, store: MemorySessionStore(), log: { log.append($0) })
            configuration.moreRoutes = { router in browsers.install(in: &router) }
            let keepAlive = configuration.core.keepAliveInterval
            let server = try GroupServer(configuration: configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                defer { server.shutdown() }
                let port = try await server.listeningPort()
                browsers.serverDidStart(groupURL: "ws://127.0.0.1:\(port)/group")
                let stream = origin + "/vod/movie/{viewer}/main.m3u8"
                let owner = ring.sign(InvitationClaims(sessionID: "s-browser", role: .owner, issuedAt: Int64(Date().timeIntervalSince1970), lifetimeSeconds: 600, stream: stream))
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/sessions")!)
                request.httpMethod = "POST"
                request.setValue("Bearer \(owner)", forHTTPHeaderField: "Authorization")
                request.httpBody = Data(#"{"stream":"\#(stream)"}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201)

                let page = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/browser")
                // dana gets a 5 s legal warning before the movie: a break at once, then primary.
                try await page.send(.text(#"{"type":"hello","protocol":1,"token":"\#(owner)","name":"dana"}"#))
                var welcome: WireObject?
                var schedule: WireObject?
                var anchors: [WireObject] = []
                let deadline = ContinuousClock.now + .seconds(30)
                var lastReport = ContinuousClock.now
                while ContinuousClock.now < deadline {
                    if ContinuousClock.now - lastReport > .milliseconds(250) {
                        // As the page does: report (the video plays as anchored) and probe the clock.
                        lastReport = ContinuousClock.now
                        try await page.send(.text(#"{"type":"report","at":\#(realTime().components.seconds),"state":"playing","primary":0}"#))
                        try await page.send(.text(#"{"type":"probe","id":1,"sent":0}"#))
                    }
                    let message = try await withThrowingTaskGroup(of: WebSocketMessage?.self) { reads in
                        reads.addTask { try await page.receive() }
                        reads.addTask { try? await Task.sleep(for: .milliseconds(250)); return nil }
                        defer { reads.cancelAll() }
                        return try await reads.next()!
                    }
                    guard case .text(let text)? = message, case .object(let object) = try WireJSONParser().parse(Array(text.utf8)) else { continue }
                    switch object["type"] {
                    case .string("welcome")?: welcome = object
                    case .string("schedule")?:
                        // The warning plays once (CUE=ONCE): later schedules leave it out.
                        if schedule == nil || text.contains(#""id":"legal""#) { schedule = object }
                    case .string("anchor")?:
                        anchors.append(object)
                        #expect(abs(seconds(object["at"])! - realTime().browserTestSeconds) < 0.5, "an anchor's time is the server clock's")
                    case .string("error")?: Issue.record("the bridge refused: \(text)")
                    default: break
                    }
                    let inPrimary = anchors.filter { $0["primary"] != nil && $0["rate"] == .double(1) }
                    if anchors.contains(where: { $0["break"] == .string("legal") }), inPrimary.count >= 3 { break }
                }

                #expect(welcome?["role"] == .string("owner"))
                #expect(welcome?["primary"] == .string(origin + "/vod/movie/dana/main.m3u8"))
                guard case .array(let breaks)? = schedule?["breaks"], case .object(let legal)? = breaks.first else {
                    Issue.record("no schedule: \(String(describing: schedule))")
                    return
                }
                #expect(legal["id"] == .string("legal"))
                #expect(seconds(legal["start"]) == 0 && seconds(legal["duration"]) == 5 && seconds(legal["resume"]) == 0)
                guard case .array(let assets)? = legal["assets"], case .object(let asset)? = assets.first else {
                    Issue.record("the legal break has no assets: \(legal)")
                    return
                }
                guard case .string(let url)? = asset["url"] else { Issue.record("no asset URL"); return }
                #expect(url.hasPrefix(origin + "/ads/media/legal-warning/index.m3u8"))
                #expect(seconds(asset["duration"]) == 5)
                #expect(breaks.contains { if case .object(let b) = $0 { b["id"] == .string("mid-1") && seconds(b["start"]) == 40 } else { false } })

                // In the warning first, moving at rate 1; then primary, with mid-1 the next break.
                let inBreak = anchors.filter { $0["break"] == .string("legal") && $0["rate"] == .double(1) }
                #expect(!inBreak.isEmpty)
                let primary = anchors.filter { $0["primary"] != nil && $0["rate"] == .double(1) }
                #expect(primary.count >= 3)
                #expect(primary.allSatisfy { $0["next"] == .string("mid-1") })
                for (a, b) in zip(primary, primary.dropFirst()) {
                    let moved = seconds(b["primary"])! - seconds(a["primary"])!
                    let elapsed = seconds(b["at"])! - seconds(a["at"])!
                    #expect(elapsed > 0 && elapsed <= 1.05, "anchors at least every second")
                    #expect(abs(moved - elapsed) < 0.05, "consecutive anchors agree at rate 1: moved \(moved) in \(elapsed)")
                }

                let participant = welcome?["participant"]
                let closedAt = realTime()
                _ = await page.close(code: .goingAway, reason: "tab closed")
                var lost: WireObject?
                let lostDeadline = ContinuousClock.now + keepAlive * 3
                while lost == nil, ContinuousClock.now < lostDeadline {
                    try await Task.sleep(for: .milliseconds(50))
                    lost = log.entries("participant.lost").first { $0["participant"] == participant }
                }
                guard case .integer(let milliseconds)? = lost?["time_ms"] else {
                    Issue.record("the server did not mark the browser's participant lost")
                    return
                }
                #expect(Duration.milliseconds(milliseconds) - closedAt <= keepAlive * 2)
                #expect(log.entries("browser.dropped").count == 1)
                #expect(log.entries("participant.left").isEmpty, "dropped, not left")
            }
        }
    }
}

extension Duration {
    fileprivate var browserTestSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
