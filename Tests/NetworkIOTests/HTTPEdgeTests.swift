import Foundation
import NetworkIO
import Testing

/// Hostile and malformed requests over raw loopback sockets: each gets the JSON error the
/// README documents (`{"error":{"status":…,"reason":…,"message":…}}`), then the connection closes,
/// instead of libwebsockets' HTML 403, a silent close, or a reflected value.
@Suite("HTTP at the edge over loopback")
struct HTTPEdgeTests {
    private static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/echo/*rest") { request in
            HTTPResponse(body: "\(request.path) host=\(request.headers["host"] ?? "-")")
        }
        router.get("/ranged") { _ in
            HTTPResponse(headers: ["Accept-Ranges": "bytes"], body: "0123456789")
        }
        return router
    }

    /// What came back for one request on a fresh connection.
    private struct Answer {
        var status: Int
        var head: String
        var body: [UInt8]
        var isClosed: Bool

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The `error` object of the JSON body.
        func error() throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            return try #require(object["error"] as? [String: Any])
        }

        /// Asserts a JSON error with `status`, sent with `Connection: close`, then a close.
        func expectRefusal(_ status: Int, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(self.status == status, "\(head)", sourceLocation: sourceLocation)
            #expect(head.lowercased().contains("content-type: application/json"), sourceLocation: sourceLocation)
            #expect(head.lowercased().contains("connection: close"), sourceLocation: sourceLocation)
            let error = try self.error()
            #expect(error["status"] as? Int == status, sourceLocation: sourceLocation)
            #expect((error["message"] as? String)?.contains(words) == true, "\(text)", sourceLocation: sourceLocation)
            #expect(isClosed, "the connection closes after the refusal", sourceLocation: sourceLocation)
        }
    }

    /// Sends `bytes` on a new connection and reads one response, then whether the server closed.
    private static func send(_ bytes: [UInt8], port: Int, readsClose: Bool = true) async throws -> Answer {
        try await blocking {
            let socket = try RawSocket(port: port, timeoutSeconds: 10)
            try socket.send(bytes)
            let response = try socket.readResponse()
            let isClosed = readsClose ? ((try? socket.readUntilClosed()) ?? false) : false
            return Answer(status: response.status, head: response.head, body: response.body, isClosed: isClosed)
        }
    }

    private static func send(_ text: String, port: Int, readsClose: Bool = true) async throws -> Answer {
        try await send(Array(text.utf8), port: port, readsClose: readsClose)
    }

    @Test("a method the server does not know gets a JSON 501, not an HTML 403", arguments: ["BREW", "TRACE", "PROPFIND"])
    func unknownMethod(method: String) async throws {
        try await withServer(Self.router) { _, port in
            let answer = try await Self.send("\(method) /echo/a HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            try answer.expectRefusal(501, mentioning: method)
        }
    }

    @Test(
        "bytes that are no HTTP/1 request (garbage, a TLS hello, the HTTP/2 preface) get a JSON 400",
        arguments: [
            Array("\u{1}\u{2}garbage\r\n\r\n".utf8),
            [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + [UInt8](repeating: 0, count: 40),
            Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8),
        ]
    )
    func notHTTP(bytes: [UInt8]) async throws {
        try await withServer(Self.router) { _, port in
            try await Self.send(bytes, port: port).expectRefusal(400, mentioning: "not HTTP/1.1")
        }
    }

    @Test("CONNECT gets a JSON 400 at once and the connection closes instead of being held open")
    func connect() async throws {
        try await withServer(Self.router) { _, port in
            let answer = try await Self.send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", port: port)
            try answer.expectRefusal(400, mentioning: "not a proxy")
        }
    }

    @Test("an absolute-form target or a malformed percent escape gets a JSON 400, not an HTML 403")
    func malformedTarget() async throws {
        try await withServer(Self.router) { _, port in
            try await Self.send("GET http://x/echo/a HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "target")
            try await Self.send("GET /echo/%zz HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "percent")
            try await Self.send("GET /echo/%4 HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "percent")
        }
    }

    @Test("%00 or %0a in a path gets a JSON 400 instead of a truncated path reaching the handler")
    func controlCharactersInPath() async throws {
        try await withServer(Self.router) { _, port in
            try await Self.send("GET /echo/a%00b HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "control character")
            try await Self.send("GET /echo/a%00 HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "control character")
            try await Self.send("GET /echo/a%0ab HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "control character")
            let plain = try await Self.send("GET /echo/a%20b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(plain.status == 200)
            #expect(plain.text == "/echo/a b host=x")
        }
    }

    @Test("a version other than HTTP/1.1 or 1.0 gets 505, and a request line without one 400")
    func versions() async throws {
        try await withServer(Self.router) { _, port in
            try await Self.send("GET /echo/a HTTP/9.9\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(505, mentioning: "HTTP/1.1")
            try await Self.send("GET /echo/a\r\nHost: x\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "no HTTP version")
            let old = try await Self.send("GET /echo/a HTTP/1.0\r\n\r\n", port: port)
            #expect(old.status == 200, "HTTP/1.0 needs no Host")
        }
    }

    @Test("an HTTP/1.1 request without Host, with two, or with one that is not a host and port gets 400")
    func hosts() async throws {
        try await withServer(Self.router) { _, port in
            try await Self.send("GET /echo/a HTTP/1.1\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "needs a Host")
            try await Self.send("GET /echo/a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", port: port)
                .expectRefusal(400, mentioning: "more than one Host")
            for host in ["evil.example/phish?", "a,b", "user@host", "host:port", "[zz::1]", "a b"] {
                try await Self.send("GET /echo/a HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: port)
                    .expectRefusal(400, mentioning: "Host header")
            }
            for host in ["media.example.com:8080", "127.0.0.1", "[::1]:8080", "localhost"] {
                let answer = try await Self.send("GET /echo/a HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
                #expect(answer.status == 200, "\(host)")
                #expect(answer.text == "/echo/a host=\(host)")
            }
        }
    }

    @Test("a request target over 8 KiB gets 414, and header fields over 16 KiB get 431, however large")
    func oversized() async throws {
        try await withServer(Self.router) { _, port in
            for length in [9_000, 70_000] {
                try await Self.send("GET /echo/\(String(repeating: "a", count: length)) HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                    .expectRefusal(414, mentioning: "request target")
                try await Self.send("GET /echo/a HTTP/1.1\r\nHost: x\r\nUser-Agent: \(String(repeating: "a", count: 2 * length))\r\n\r\n", port: port)
                    .expectRefusal(431, mentioning: "header fields")
            }
        }
    }

    @Test("a header whose name is the start of one libwebsockets knows (Hos:, Conn:) gets a JSON 400 at once, not a hang")
    func truncatedFieldNames() async throws {
        try await withServer(Self.router) { _, port in
            for field in ["Hos: x", "Conn: close", "X-A: 1", "Content: 1"] {
                try await Self.send("GET /echo/a HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n", port: port)
                    .expectRefusal(400, mentioning: "header field name")
            }
            let unknown = try await Self.send("GET /echo/a HTTP/1.1\r\nHost: x\r\nX-Foo: 1\r\nConnection: close\r\n\r\n", port: port)
            #expect(unknown.status == 200, "a field lws does not know is fine")
        }
    }

    @Test("a handler's body marked Accept-Ranges is answered in ranges: 206 with Content-Range, 416 outside")
    func rangesOnHandlerBodies() async throws {
        try await withServer(Self.router) { _, port in
            let partial = try await fetch("http://127.0.0.1:\(port)/ranged", headers: ["Range": "bytes=2-4"])
            #expect(partial.status == 206)
            #expect(partial.text == "234")
            #expect(partial.header("Content-Range") == "bytes 2-4/10")
            #expect(partial.header("Accept-Ranges") == "bytes")
            let outside = try await fetch("http://127.0.0.1:\(port)/ranged", headers: ["Range": "bytes=20-"])
            #expect(outside.status == 416)
            #expect(outside.header("Content-Range") == "bytes */10")
            let whole = try await fetch("http://127.0.0.1:\(port)/ranged")
            #expect(whole.status == 200)
            #expect(whole.text == "0123456789")
        }
    }

    @Test("a refusal is answered on a keep-alive connection too, after a good request")
    func refusalAfterGoodRequest() async throws {
        try await withServer(Self.router) { _, port in
            let answers = try await blocking {
                let socket = try RawSocket(port: port, timeoutSeconds: 10)
                try socket.send("GET /echo/a HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try socket.readResponse()
                try socket.send("GET /echo/b HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
                let second = try socket.readResponse()
                return (first.status, second.status, try socket.readUntilClosed())
            }
            #expect(answers.0 == 200)
            #expect(answers.1 == 400)
            #expect(answers.2)
        }
    }
}

@Suite("TerminalText")
struct TerminalTextTests {
    @Test("control characters (C0, DEL, C1, ESC) become visible escapes; other text is unchanged")
    func escaping() {
        #expect(TerminalText.escaped("plain /vod/é.m3u8") == "plain /vod/é.m3u8")
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{7}") == "\\x1B]0;pwned\\x07")
        #expect(TerminalText.escaped("a\u{7F}b\u{9B}31mc\u{0}") == "a\\x7Fb\\u{9B}31mc\\x00")
        #expect(TerminalText.escaped("one\ntwo\r") == "one\\x0Atwo\\x0D")
        #expect(TerminalText.escaped("one\ntwo\r", keepingNewlines: true) == "one\ntwo\\x0D")
    }

    @Test("the access log line escapes control characters in the method, path and error")
    func accessLogLine() {
        let entry = HTTPAccessLogEntry(
            method: HTTPMethod(rawValue: "G\u{1B}T"), path: "/a\u{1B}[31mred\n127.0.0.1 GET /forged 200", status: 404,
            bodyBytes: 10, duration: .milliseconds(2), remoteAddress: "127.0.0.1", error: "bad \u{1B}]0;title\u{7}"
        )
        #expect(entry.line == "127.0.0.1 G\\x1BT /a\\x1B[31mred\\x0A127.0.0.1 GET /forged 200 404 10B 2.0ms error: bad \\x1B]0;title\\x07")
        #expect(!entry.line.contains("\n"))
    }
}
