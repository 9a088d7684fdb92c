import HLSInterstitials
import HLSPlaylist
import StreamOrigin
import Testing

@Suite("Origin routing")
struct OriginRoutingTests {
    @Test("unknown viewers, streams, breaks, ads and segments get 404 with a JSON body that names the problem", arguments: [
        ("/vod/movie/zed/main.m3u8", "unknown-viewer", "known viewers: alice, bob, charlie, dana"),
        ("/vod/film/bob/main.m3u8", "unknown-stream", "known streams: movie"),
        ("/live/movie/bob/main.m3u8", "unknown-stream", "its URLs start with /vod/"),
        ("/vod/channel/bob/multivariant.m3u8", "unknown-stream", "is live"),
        ("/ads/movie/bob/mid-9.json", "unknown-break", "its breaks: legal, mid-1, mid-2"),
        ("/ads/movie/zed/mid-1.json", "unknown-viewer", "zed"),
        ("/ads/channel/bob/mid-1.json", "unknown-break", "ad-0, ad-1"),
        ("/ads/media/spot-99s/index.m3u8", "unknown-ad", "spot-15s"),
        ("/ads/media/spot-15s/3.ts", "unknown-segment", "segments 0 to 2"),
        ("/vod/movie/bob/index.m3u8", "unknown-route", "main.m3u8 and multivariant.m3u8"),
        ("/favicon.ico", "unknown-route", "see /"),
    ])
    func notFound(target: String, kind: String, hint: String) throws {
        let response = try defaultOrigin().get(target)
        #expect(response.status == 404)
        #expect(response.contentType == "application/json")
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("\"error\":\"\(kind)\""), "\(body)")
        #expect(body.contains(hint), "\(body)")
        #expect(body.contains("\"status\":404"))
    }

    @Test("malformed requests get 400 with a JSON body", arguments: [
        "/media/content/abc.ts", "/media/content/5-100.ts", "/media/content/9-3.ts", "/media/content/-1.ts", "/ads/media/spot-15s/x.ts",
        "/vod/movie/bob/main.m3u8?_HLS_skip=maybe", "/live/channel/bob/main.m3u8?_HLS_msn=soon",
        "/ads/movie/bob/mid-1.json?_HLS_start_offset=-3", "/ads/movie/bob/mid-1.json?_HLS_interstitial_id=mid-2",
        "/vod/movie/b%zzob/main.m3u8", "/vod/movie//main.m3u8", "/vod/movie/../main.m3u8", "/vod/movie/bob/main.m3u8?a=%G1", "vod",
    ])
    func malformed(target: String) throws {
        let response = try defaultOrigin().get(target)
        #expect(response.status == 400, "\(target)")
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"error\":\"malformed-request\""))
    }

    @Test("only GET and HEAD are served; other methods get 405 with Allow")
    func methods() throws {
        let origin = try defaultOrigin()
        #expect(origin.get("/vod/movie/bob/main.m3u8", method: "HEAD").status == 200)
        let post = origin.get("/vod/movie/bob/main.m3u8", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
    }

    @Test("each resource has its content type and a cache policy: live playlists and decisions are never cached stale")
    func contentTypes() throws {
        let origin = try defaultOrigin()
        let expectations: [(String, String, String)] = [
            ("/vod/movie/bob/main.m3u8", "application/vnd.apple.mpegurl", "max-age=60"),
            ("/live/channel/bob/main.m3u8", "application/vnd.apple.mpegurl", "no-cache"),
            ("/live/channel/bob/multivariant.m3u8", "application/vnd.apple.mpegurl", "max-age=60"),
            ("/ads/movie/bob/mid-1.json", "application/json", "no-store"),
            ("/ads/media/spot-15s/index.m3u8", "application/vnd.apple.mpegurl", "max-age=3600"),
            ("/ads/media/spot-15s/0.ts", "video/mp2t", "max-age=86400"),
            ("/media/content/7.ts", "video/mp2t", "max-age=86400"),
            ("/", "application/json", "no-cache"),
        ]
        for (target, type, cache) in expectations {
            let response = origin.get(target)
            #expect(response.status == 200, "\(target)")
            #expect(response.contentType == type, "\(target)")
            #expect(response.header("Cache-Control") == cache, "\(target)")
        }
    }

    @Test("an asset list echoes _HLS_primary_id in every asset URI (D.4) and gives each ad's exact duration")
    func primaryID() throws {
        let origin = try defaultOrigin()
        let response = origin.get("/ads/movie/charlie/mid-1.json?_HLS_primary_id=6D3A%2F9F0&_HLS_interstitial_id=mid-1&_HLS_start_offset=2.5")
        #expect(response.status == 200)
        let list = try AssetList(json: response.body)
        #expect(list.assets.map(\.uri) == [
            "\(baseURL)/ads/media/spot-10s/index.m3u8?_HLS_primary_id=6D3A%2F9F0",
            "\(baseURL)/ads/media/spot-20s/index.m3u8?_HLS_primary_id=6D3A%2F9F0",
        ])
        #expect(list.assets.map(\.duration) == [seconds(10), seconds(20)])
        let plain = try AssetList(json: origin.get("/ads/movie/bob/mid-2.json").body)
        #expect(plain.assets.map(\.uri) == ["\(baseURL)/ads/media/spot-15s/index.m3u8"])
        let premium = try AssetList(json: origin.get("/ads/movie/alice/mid-1.json").body)
        #expect(premium.assets.isEmpty, "a premium viewer's asset list is empty: the client resumes at once (D.5)")
    }

    @Test("the index lists every stream's playlist URLs for every viewer, on the host the client used")
    func index() throws {
        let origin = try defaultOrigin()
        let urls = origin.playlistURLs(baseURL: baseURL)
        #expect(urls.count == 16)
        #expect(urls.first?.media == "\(baseURL)/vod/movie/alice/main.m3u8")
        #expect(urls.last?.multivariant == "\(baseURL)/live/channel-stitched/dana/multivariant.m3u8")
        let body = String(decoding: origin.get("/").body, as: UTF8.self)
        for entry in urls { #expect(body.contains(entry.media)) }
    }
}
