import Foundation
import HLSPlaylist
import MediaTime
import MPRIS
import NetworkIO
import PlayerEngine
import PlayerInterface
import StreamOrigin
import Synchronization
import Testing
import TestSupport

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
        let info = NowPlayingInfo(title: "Interlude Movie", artists: ["Alice"], artworkURL: "file:///tmp/poster.png", contentRating: .mpaaPG13)
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

    @Test("through a point break the position a client sees stands still, metadata names the break, and a Seeked says where primary resumed")
    func seekedAtResumption() async throws {
        // Four 1 s segments and a 2 s point break at 1 s that resumes where it began; the
        // segments are a few bytes of text, which the player lets pass.
        let directory = try TemporaryDirectory(prefix: "interlude-mpris")
        let main = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:1
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="mid",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:01.000Z",DURATION=2,X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=0

            """ + (0..<4).map { "#EXTINF:1.0,\nseg-\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        let ad = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\nad-0.ts\n#EXT-X-ENDLIST\n"
        var files = ["main.m3u8": main, "ad.m3u8": ad, "ad-0.ts": "ad 0"]
        for index in 0..<4 { files["seg-\(index).ts"] = "segment \(index)" }
        for (name, text) in files { try text.write(toFile: directory.file(name), atomically: true, encoding: .utf8) }

        let rig = try MPRISBusRig()
        let signals = try rig.monitor("type='signal',path='/org/mpris/MediaPlayer2'")
        let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader(timeout: 10))
        player.replaceCurrentItem(with: PlayerItem(url: URL(fileURLWithPath: directory.file("main.m3u8")).absoluteString))
        let service = try MPRISService(player: player, info: NowPlayingInfo(title: "Short"), busAddress: rig.address)
        let serving = Task { try await service.run() }
        defer { serving.cancel() }
        #expect(try await rig.poll(["metadata", "mpris:length"]) { $0 == "4000000" } == "4000000")
        player.play()

        let output = try await signals.wait { $0.components(separatedBy: "member=Seeked").dropFirst().first?.contains("int64") == true }
        let seeked = output.components(separatedBy: "member=Seeked").dropFirst().first?
            .split(separator: "\n").lazy.compactMap { line in line.contains("int64") ? line.split(separator: " ").last.flatMap { Int64($0) } : nil }.first
        // Where primary resumed: 1 s, the point the break held the position at.
        let position = try #require(seeked, "no Seeked: \(output)")
        #expect((1_000_000...1_100_000).contains(position), "Seeked \(position)")
        // Before it, a PropertiesChanged named the break in the metadata.
        let beforeSeeked = output.components(separatedBy: "member=Seeked").first ?? ""
        #expect(beforeSeeked.contains("string \"interlude:interstitialEvent\""), "\(beforeSeeked)")
        #expect(beforeSeeked.contains("string \"mid\""))
        #expect(player.state.currentEvent == nil)
        serving.cancel()
        try await serving.value
    }
}
