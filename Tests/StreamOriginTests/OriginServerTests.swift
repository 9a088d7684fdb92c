import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime
import NetworkIO
import StreamOrigin
import Synchronization
import Testing

/// A wall clock the test sets.
final class TestWallClock: Sendable {
    private let date: Mutex<PlaylistDate>
    init(_ date: PlaylistDate) { self.date = Mutex(date) }
    var now: PlaylistDate { date.withLock { $0 } }
    func set(_ newDate: PlaylistDate) { date.withLock { $0 = newDate } }
}

/// Runs `body` against the default origin served over loopback on a free port.
func withOriginServer(at start: PlaylistDate = live(100), _ body: (String, TestWallClock) async throws -> Void) async throws {
    let clock = TestWallClock(start)
    let server = OriginServer(origin: try defaultOrigin(), configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
                              wallClock: { clock.now })
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        defer { server.shutdown() }
        let port = try await server.listeningPort()
        try await body("http://127.0.0.1:\(port)", clock)
        server.shutdown()
        try await group.waitForAll()
    }
}

/// What a real HTTP client received.
struct Fetched {
    var response: HTTPURLResponse
    var body: [UInt8]
    var status: Int { response.statusCode }
    var type: String? { response.value(forHTTPHeaderField: "Content-Type") }
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
}

/// Requests `url` with URLSession.
func fetch(_ url: String, method: String = "GET") async throws -> Fetched {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    let (data, response) = try await URLSession.shared.data(for: request)
    return Fetched(response: try #require(response as? HTTPURLResponse), body: Array(data))
}

@Suite("OriginServer over loopback", .serialized)
struct OriginServerTests {
    @Test("a real client fetches every playlist of every viewer, validates them, follows asset lists and measures every segment")
    func everything() async throws {
        try await withOriginServer { base, _ in
            var measured: [String: MediaTime] = [:]
            func check(segmentsOf playlist: MediaPlaylist, at playlistURL: String) async throws {
                for segment in playlist.segments {
                    let url = URIResolution.resolve(segment.uri, against: playlistURL)
                    if measured[url] == nil {
                        let response = try await fetch(url)
                        #expect(response.status == 200, "\(url)")
                        #expect(response.type == "video/mp2t")
                        measured[url] = try TransportStreamProbe.duration(of: response.body)
                    }
                    #expect(((measured[url] ?? .zero) - segment.duration).magnitude < MediaTime(value: 1, timescale: 1000), "\(url)")
                }
            }
            let index = try await fetch(base + "/")
            #expect(index.status == 200)
            #expect(String(decoding: index.body, as: UTF8.self).contains("\(base)/vod/movie/alice/main.m3u8"),
                    "the index's URLs use the host the client reached")
            for stream in OriginConfiguration.default.streams {
                for viewer in OriginConfiguration.default.viewers {
                    let directory = "\(base)/\(stream.kind.rawValue)/\(stream.id)/\(viewer.id)/"
                    let multivariant = try await fetch(directory + "multivariant.m3u8")
                    #expect(multivariant.status == 200)
                    #expect(PlaylistValidator.validate(multivariant.body).isEmpty)
                    let media = try await fetch(directory + "main.m3u8")
                    #expect(media.status == 200)
                    #expect(media.type == "application/vnd.apple.mpegurl")
                    #expect(PlaylistValidator.validate(media.body).isEmpty, "\(directory)main.m3u8")
                    let playlist = try MediaPlaylist(parsing: media.body)
                    try await check(segmentsOf: playlist, at: directory + "main.m3u8")

                    let (events, _) = InterstitialEvent.events(in: playlist)
                    for event in events {
                        let listURL = InterstitialRequest.url(try #require(event.assetListURI), relativeTo: directory + "main.m3u8",
                                                              primaryID: "session-\(viewer.id)")
                        let response = try await fetch(listURL)
                        #expect(response.status == 200, "\(listURL)")
                        #expect(response.type == "application/json")
                        let list = try AssetList(json: response.body)
                        let expected = try defaultOrigin().decisions.decision(streamID: stream.id, viewerID: viewer.id, breakID: event.identifier)
                        #expect(list.assets.map(\.duration) == expected.placements.map(\.duration))
                        for asset in list.assets {
                            #expect(asset.uri.hasPrefix(base + "/ads/media/"))
                            #expect(asset.uri.hasSuffix("?_HLS_primary_id=session-\(viewer.id)"))
                            let adPlaylist = try await fetch(asset.uri)
                            #expect(PlaylistValidator.validate(adPlaylist.body).isEmpty)
                            let parsed = try MediaPlaylist(parsing: adPlaylist.body)
                            #expect(parsed.duration == asset.duration)
                            try await check(segmentsOf: parsed, at: asset.uri)
                        }
                    }
                }
            }
            #expect(measured.count > 30)
        }
    }

    @Test("a live playlist fetched over HTTP advances with the injected wall clock")
    func liveAdvances() async throws {
        try await withOriginServer { base, clock in
            let url = base + "/live/channel-stitched/charlie/main.m3u8"
            let first = try MediaPlaylist(parsing: try await fetch(url).body)
            clock.set(live(140))
            let later = try MediaPlaylist(parsing: try await fetch(url).body)
            #expect(later.mediaSequence > first.mediaSequence)
            #expect(later.programDateTimes().last == live(136))
            #expect(validationErrors(Array(later.canonicalText().utf8), previous: first).isEmpty)
            let delta = try MediaPlaylist(parsing: try await fetch(url + "?_HLS_skip=YES").body)
            #expect(delta.skip != nil)
        }
    }

    @Test("errors over HTTP: 404 and 400 with the origin's JSON body, 405 with Allow, HEAD without a body")
    func errors() async throws {
        try await withOriginServer { base, _ in
            let viewer = try await fetch(base + "/vod/movie/zed/main.m3u8")
            #expect(viewer.status == 404)
            #expect(viewer.type == "application/json")
            #expect(String(decoding: viewer.body, as: UTF8.self).contains("\"error\":\"unknown-viewer\""))
            let breakResponse = try await fetch(base + "/ads/movie/bob/nope.json")
            #expect(breakResponse.status == 404)
            #expect(String(decoding: breakResponse.body, as: UTF8.self).contains("\"error\":\"unknown-break\""))
            let route = try await fetch(base + "/nothing/here")
            #expect(route.status == 404)
            #expect(String(decoding: route.body, as: UTF8.self).contains("\"error\":\"unknown-route\""))
            let malformed = try await fetch(base + "/media/content/abc.ts")
            #expect(malformed.status == 400)
            #expect(String(decoding: malformed.body, as: UTF8.self).contains("\"error\":\"malformed-request\""))
            let skip = try await fetch(base + "/live/channel/bob/main.m3u8?_HLS_skip=maybe")
            #expect(skip.status == 400)
            let post = try await fetch(base + "/vod/movie/bob/main.m3u8", method: "POST")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(post.header("Access-Control-Allow-Origin") == "*", "CORS for browser players")
            let head = try await fetch(base + "/media/content/3.ts", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.type == "video/mp2t")
        }
    }
}
