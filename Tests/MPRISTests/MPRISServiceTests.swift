import Foundation
import HLSPlaylist
import MediaTime
import MPRIS
import NetworkIO
import PlayerEngine
import StreamOrigin
import Synchronization
import Testing

/// The service on a private session bus, driven by `playerctl` as a desktop would drive it: a
/// real ``Player`` in real time playing the origin's VOD over loopback HTTP.
@Suite("MPRIS over a private session bus, driven by playerctl", .serialized)
struct MPRISServiceTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Media").path
    static let date = PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!

    /// Serves `path` from a fresh origin and publishes a player of it on a private bus, paused;
    /// runs `body`, then stops the service, the origin and the bus.
    static func withPublishedPlayer(_ path: String, info: NowPlayingInfo, handlers: MPRISService.Handlers = .init(),
                                    _ body: (MPRISBusRig, Player, MPRISService) async throws -> Void) async throws {
        let rig = try MPRISBusRig()
        let library = try MediaLibrary.load(directory: media, configuration: .default)
        let origin = try Origin(configuration: .default, library: library, liveStartDate: date)
        let server = OriginServer(origin: origin, configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), wallClock: { date })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { server.shutdown() }
            let port = try await server.listeningPort()
            let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader(timeout: 10))
            player.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:\(port)\(path)", primaryID: "mpris-test"))
            let service = try MPRISService(player: player, info: info, busAddress: rig.address, handlers: handlers)
            group.addTask { try await service.run() }
            do {
                try await body(rig, player, service)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            server.shutdown()
            try await group.waitForAll()
        }
    }

    @Test("playerctl finds the player, reads its metadata, plays, pauses, moves it, and sees Seeked for each move")
    func playerctlDrivesThePlayer() async throws {
        let nexts = Atomic(0)
        let info = NowPlayingInfo(title: "Interlude Movie", artists: ["Alice"], artworkURL: "file:///tmp/poster.png", contentRating: "PG-13")
        try await Self.withPublishedPlayer("/vod/movie/alice/main.m3u8", info: info,
                                           handlers: .init(next: { nexts.add(1, ordering: .relaxed) })) { rig, player, service in
            #expect(service.busName == "org.mpris.MediaPlayer2.interlude")
            let list = try await rig.playerctl("--list-all")
            #expect(list.output == "interlude")

            // The length appears once the playlist is loaded: the integrated timeline's, 120 s of
            // movie and the 30 s the break at 40 s fills (X-TIMELINE-OCCUPIES=RANGE; the point
            // breaks take none). playerctl quotes the object path.
            let format = "{{xesam:title}}|{{xesam:artist}}|{{mpris:length}}|{{mpris:artUrl}}|{{mpris:trackid}}"
            let metadata = try await rig.poll(["metadata", "--format", format]) { !$0.hasPrefix("Interlude Movie|Alice||") }
            #expect(metadata == "Interlude Movie|Alice|150000000|file:///tmp/poster.png|'/org/interlude/track/1'")
            let rating = try await rig.playerctl("-p", "interlude", "metadata", "interlude:contentRating")
            #expect(rating.output == "PG-13")
            #expect(try await rig.playerctl("-p", "interlude", "status").output == "Paused")

            try await rig.playerctl("-p", "interlude", "play")
            #expect(try await rig.poll(["status"]) { $0 == "Playing" } == "Playing")
            #expect(player.state.rate == 1)
            try await rig.playerctl("-p", "interlude", "pause")
            #expect(try await rig.poll(["status"]) { $0 == "Paused" } == "Paused")
            #expect(player.state.rate == 0)

            let seeks = try rig.monitor("type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
            // SetPosition with the current track ID, then a relative Seek; paused, so exact.
            try await rig.playerctl("-p", "interlude", "position", "30")
            #expect(try await rig.poll(["position"]) { $0 == "30.000000" } == "30.000000")
            #expect(player.state.integratedCurrentTime == MediaTime(seconds: 30))
            #expect(try await seeks.wait(for: "int64 30000000").contains("int64 30000000"))
            try await rig.playerctl("-p", "interlude", "position", "5+")
            #expect(try await rig.poll(["position"]) { $0 == "35.000000" } == "35.000000")
            #expect(player.state.integratedCurrentTime == MediaTime(seconds: 35))
            #expect(try await seeks.wait(for: "int64 35000000").contains("int64 35000000"))
            // Past the end: SetPosition is ignored (the spec), the player stays where it is.
            try await rig.playerctl("-p", "interlude", "position", "500")
            #expect(try await rig.playerctl("-p", "interlude", "position").output == "35.000000")

            try await rig.playerctl("-p", "interlude", "next")
            #expect(nexts.load(ordering: .relaxed) == 1)
        }
    }
}
