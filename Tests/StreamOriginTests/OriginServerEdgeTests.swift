import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("OriginServer at the edge")
struct OriginServerEdgeTests {
    private static func send(_ url: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Fetched {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.timeoutInterval = 30
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Fetched(response: try #require(response as? HTTPURLResponse), body: Array(data))
    }

    @Test("OPTIONS advertises only GET, HEAD and OPTIONS, the methods the origin answers")
    func optionsMatchesRoutes() async throws {
        try await withOriginServer { base, _ in
            let url = base + "/vod/movie/bob/main.m3u8"
            let options = try await Self.send(url, method: "OPTIONS", headers: ["Origin": "http://player.example", "Access-Control-Request-Method": "GET"])
            #expect(options.response.statusCode == 204)
            #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(options.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
            for method in ["GET", "HEAD"] {
                #expect(try await Self.send(url, method: method).response.statusCode == 200, "\(method) is advertised and answered")
            }
            for method in ["POST", "PUT", "DELETE"] {
                let refused = try await Self.send(url, method: method)
                #expect(refused.response.statusCode == 405, "\(method) is not advertised")
                #expect(refused.header("Allow") == "GET, HEAD, OPTIONS")
            }
        }
    }

    @Test("segments and playlists answer Range: 206 with Content-Range, 416 outside, Accept-Ranges on 200")
    func ranges() async throws {
        try await withOriginServer { base, _ in
            let url = base + "/media/content/0.ts"
            let whole = try await Self.send(url)
            #expect(whole.response.statusCode == 200)
            #expect(whole.header("Accept-Ranges") == "bytes")
            let partial = try await Self.send(url, headers: ["Range": "bytes=188-375"])
            #expect(partial.response.statusCode == 206)
            #expect(partial.body == Array(whole.body[188...375]))
            #expect(partial.header("Content-Range") == "bytes 188-375/\(whole.body.count)")
            let suffix = try await Self.send(base + "/vod/movie/bob/main.m3u8", headers: ["Range": "bytes=-10"])
            #expect(suffix.response.statusCode == 206)
            #expect(suffix.body.count == 10)
            let outside = try await Self.send(url, headers: ["Range": "bytes=\(whole.body.count)-"])
            #expect(outside.response.statusCode == 416)
            #expect(outside.header("Content-Range") == "bytes */\(whole.body.count)")
        }
    }
}
