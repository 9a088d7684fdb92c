import NetworkIO
import Testing

@Suite("HTTP values")
struct HTTPValueTests {
    @Test("header names compare case-insensitively and setting replaces every field of the name")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Tag": "a"]
        headers.add(name: "x-tag", value: "b")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "X-TAG") == ["a", "b"])
        headers["X-Tag"] = "c"
        #expect(headers.values(for: "x-tag") == ["c"])
        headers["content-type"] = nil
        #expect(!headers.contains("Content-Type"))
        #expect(headers["Content-Typf"] == nil)
    }

    @Test("query strings split before decoding, so encoded separators stay in values")
    func queryItems() {
        let items = HTTPQueryItem.parse(query: "a=1&b=x%26y%3Dz&c=d+e&flag&&%C3%A9=%E2%9C%93&bad=%zz")
        #expect(items == [
            HTTPQueryItem(name: "a", value: "1"),
            HTTPQueryItem(name: "b", value: "x&y=z"),
            HTTPQueryItem(name: "c", value: "d e"),
            HTTPQueryItem(name: "flag", value: ""),
            HTTPQueryItem(name: "é", value: "✓"),
            HTTPQueryItem(name: "bad", value: "%zz"),
        ])
    }

    @Test("content types follow the HLS media types by extension", arguments: [
        ("/a/main.m3u8", "application/vnd.apple.mpegurl"),
        ("seg-001.TS", "video/mp2t"),
        ("init.mp4", "video/mp4"),
        ("part.m4s", "video/mp4"),
        ("list.json", "application/json"),
        ("audio.aac", "audio/aac"),
        ("subs.vtt", "text/vtt"),
        ("noextension", "application/octet-stream"),
        ("dir.d/file", "application/octet-stream"),
    ])
    func mediaTypes(path: String, type: String) {
        #expect(MediaType.forPath(path) == type)
    }

    @Test("error responses carry a JSON body with the status and an escaped message")
    func errorBody() {
        let response = HTTPResponse.error(.notFound, message: "no \"x\"\n")
        #expect(response.status.code == 404)
        #expect(response.headers["Content-Type"] == "application/json")
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"{"error":{"status":404,"reason":"Not Found","message":"no \"x\"\n"}}"#)
    }

    @Test("WebSocket URLs give the host, port and request target", arguments: [
        ("ws://127.0.0.1:8080/ws?x=1", "127.0.0.1", 8080, "/ws?x=1"),
        ("ws://example.com", "example.com", 80, "/"),
        ("ws://[::1]:9000", "::1", 9000, "/"),
        ("ws://host?q", "host", 80, "/?q"),
    ])
    func webSocketURLs(url: String, host: String, port: Int, target: String) throws {
        let parsed = try WebSocketURL(url)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
        #expect(parsed.pathAndQuery == target)
    }

    @Test("other URLs are refused", arguments: ["http://x/ws", "wss:/x/ws", "ws://:80/", "ws://host:0/", "ws://host:x/", "ws://u@host/"])
    func invalidWebSocketURLs(url: String) {
        #expect(throws: WebSocketError.invalidURL(url)) { try WebSocketURL(url) }
    }
}
