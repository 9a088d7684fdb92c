import Foundation
import NetworkIO
import Testing

@Suite("HTTPServer over loopback")
struct HTTPServerTests {
    /// A router with the shapes the origin uses: path parameters, query items, a JSON body.
    private static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/vod/:stream/:viewer/main.m3u8") { request in
            let stream = request.pathParameters["stream"] ?? "?"
            let viewer = request.pathParameters["viewer"] ?? "?"
            return HTTPResponse(
                headers: ["Content-Type": "application/vnd.apple.mpegurl"],
                body: "#EXTM3U\n# \(stream) for \(viewer)\n"
            )
        }
        router.get("/query") { request in
            let pairs = request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
            return HTTPResponse(body: pairs)
        }
        router.post("/echo") { request in
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.get("/bad") { _ in throw HTTPError(.badRequest, "break index must be a number") }
        router.get("/broken") { _ in throw CancellationError() }
        router.get("/failing") { _ in
            struct Oops: Error {}
            throw Oops()
        }
        return router
    }

    @Test("a route's path parameters reach the handler, and its response comes back")
    func pathParameters() async throws {
        try await withServer(Self.router) { _, port in
            let response = try await fetch("http://127.0.0.1:\(port)/vod/main/viewer-7/main.m3u8")
            #expect(response.status == 200)
            #expect(response.text == "#EXTM3U\n# main for viewer-7\n")
            #expect(response.header("Content-Type") == "application/vnd.apple.mpegurl")
            #expect(response.header("Content-Length") == "\(response.body.count)")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test("query items arrive in order, split before decoding")
    func queryItems() async throws {
        try await withServer(Self.router) { _, port in
            let response = try await fetch("http://127.0.0.1:\(port)/query?a=1&b=x%26y&c=d+e&flag&_HLS_msn=12")
            #expect(response.text == "a=1|b=x&y|c=d e|flag=|_HLS_msn=12")
        }
    }

    @Test("an unknown path gets a 404 with a JSON error body")
    func notFound() async throws {
        try await withServer(Self.router) { _, port in
            let response = try await fetch("http://127.0.0.1:\(port)/no/such/thing")
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/json")
            let error = try #require(try response.json()["error"] as? [String: Any])
            #expect(error["status"] as? Int == 404)
            #expect((error["message"] as? String)?.contains("/no/such/thing") == true)
        }
    }

    @Test("a wrong method gets a 405 with Allow; a thrown HTTPError its own status; other errors a 500")
    func errors() async throws {
        try await withServer(Self.router) { _, port in
            let wrongMethod = try await fetch("http://127.0.0.1:\(port)/echo")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "POST, OPTIONS")
            let bad = try await fetch("http://127.0.0.1:\(port)/bad")
            #expect(bad.status == 400)
            let error = try #require(try bad.json()["error"] as? [String: Any])
            #expect(error["message"] as? String == "break index must be a number")
            #expect(try await fetch("http://127.0.0.1:\(port)/failing").status == 500)
            #expect(try await fetch("http://127.0.0.1:\(port)/broken").status == 503)
        }
    }

    @Test("a POST body reaches the handler; one over the limit gets a 413 and the connection closes")
    func requestBodies() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.maximumRequestBodyBytes = 1000
        try await withServer(Self.router, configuration: configuration) { _, port in
            let echoed = try await fetch("http://127.0.0.1:\(port)/echo", method: "POST", body: Data("abc123".utf8))
            #expect(echoed.status == 200)
            #expect(echoed.text == "abc123")
            let (status, closed) = try await blocking {
                let socket = try RawSocket(port: port)
                try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 1500))
                let response = try socket.readResponse()
                return (response.status, try socket.readUntilClosed())
            }
            #expect(status == 413)
            #expect(closed)
        }
    }

    @Test("static files are served with their content types and exact bytes")
    func staticFiles() async throws {
        let directory = try StaticFixture()
        var router = HTTPRouter()
        router.files("/media", directory: directory.path)
        try await withServer(router) { _, port in
            for (name, type) in StaticFixture.files {
                let response = try await fetch("http://127.0.0.1:\(port)/media/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.header("Content-Type") == type, "\(name)")
                #expect(response.body == directory.contents(of: name), "\(name)")
                #expect(response.header("Accept-Ranges") == "bytes")
            }
            // Several send chunks: the body must arrive whole and in order.
            let large = try await fetch("http://127.0.0.1:\(port)/media/large.bin")
            #expect(large.body == directory.contents(of: "large.bin"))
            #expect(try await fetch("http://127.0.0.1:\(port)/media/missing.ts").status == 404)
            #expect(try await fetch("http://127.0.0.1:\(port)/media/sub").status == 404)
            #expect(try await fetch("http://127.0.0.1:\(port)/media/.secret").status == 404)
        }
    }

    @Test("byte ranges get 206 with Content-Range, and unsatisfiable ones 416")
    func byteRanges() async throws {
        let directory = try StaticFixture()
        var router = HTTPRouter()
        router.files("/media", directory: directory.path)
        try await withServer(router) { _, port in
            let url = "http://127.0.0.1:\(port)/media/large.bin"
            let contents = directory.contents(of: "large.bin")
            let length = contents.count
            let middle = try await fetch(url, headers: ["Range": "bytes=100000-199999"])
            #expect(middle.status == 206)
            #expect(middle.header("Content-Range") == "bytes 100000-199999/\(length)")
            #expect(middle.body == contents[100_000..<200_000])
            let suffix = try await fetch(url, headers: ["Range": "bytes=-10"])
            #expect(suffix.status == 206)
            #expect(suffix.body == contents[(length - 10)...])
            let open = try await fetch(url, headers: ["Range": "bytes=\(length - 5)-"])
            #expect(open.body == contents[(length - 5)...])
            let outside = try await fetch(url, headers: ["Range": "bytes=\(length)-"])
            #expect(outside.status == 416)
            #expect(outside.header("Content-Range") == "bytes */\(length)")
        }
    }

    @Test("HEAD gets the headers and Content-Length of GET without the body")
    func head() async throws {
        let directory = try StaticFixture()
        var router = Self.router
        router.files("/media", directory: directory.path)
        try await withServer(router) { _, port in
            let dynamic = try await fetch("http://127.0.0.1:\(port)/vod/a/b/main.m3u8", method: "HEAD")
            #expect(dynamic.status == 200)
            #expect(dynamic.body.isEmpty)
            #expect(dynamic.header("Content-Length") == "\("#EXTM3U\n# a for b\n".utf8.count)")
            let file = try await fetch("http://127.0.0.1:\(port)/media/large.bin", method: "HEAD")
            #expect(file.body.isEmpty)
            #expect(file.header("Content-Length") == "\(directory.contents(of: "large.bin").count)")
        }
    }

    @Test("CORS: responses allow any origin, and a preflight is answered with the allowed methods")
    func cors() async throws {
        try await withServer(Self.router) { _, port in
            let response = try await fetch("http://127.0.0.1:\(port)/vod/a/b/main.m3u8", headers: ["Origin": "https://player.example"])
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            let preflight = try await fetch(
                "http://127.0.0.1:\(port)/echo",
                method: "OPTIONS",
                headers: ["Origin": "https://player.example", "Access-Control-Request-Method": "POST",
                          "Access-Control-Request-Headers": "content-type"]
            )
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Methods") == "POST, OPTIONS")
            #expect(preflight.header("Access-Control-Allow-Headers") == "content-type")
            #expect(try await fetch("http://127.0.0.1:\(port)/nowhere", method: "OPTIONS").status == 404)
        }
        var configuration = HTTPServer.Configuration()
        configuration.isCORSEnabled = false
        try await withServer(Self.router, configuration: configuration) { _, port in
            let response = try await fetch("http://127.0.0.1:\(port)/vod/a/b/main.m3u8")
            #expect(response.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test("keep-alive: several requests, dynamic and static, share one connection")
    func keepAlive() async throws {
        let directory = try StaticFixture()
        var router = Self.router
        router.files("/media", directory: directory.path)
        try await withServer(router) { server, port in
            let statuses = try await blocking {
                let socket = try RawSocket(port: port)
                var statuses: [Int] = []
                for path in ["/vod/a/b/main.m3u8", "/media/main.m3u8", "/nope", "/media/large.bin", "/query?x=1"] {
                    try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    statuses.append(try socket.readResponse().status)
                }
                try socket.send("HEAD /media/large.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                statuses.append(try socket.readResponse(hasBody: false).status)
                try socket.send("GET /vod/a/b/main.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let last = try socket.readResponse()
                statuses.append(last.status)
                #expect(last.head.contains("Connection: close"))
                #expect(try socket.readUntilClosed())
                return statuses
            }
            #expect(statuses == [200, 200, 404, 200, 200, 200, 200])
            #expect(try await eventually { server.openConnectionCount == 0 })
        }
    }

    @Test("the access log sees method, path, status, bytes and duration of each response")
    func accessLog() async throws {
        let entries = Collected<HTTPAccessLogEntry>()
        var configuration = HTTPServer.Configuration()
        configuration.accessLog = { entries.append($0) }
        try await withServer(Self.router, configuration: configuration) { _, port in
            _ = try await fetch("http://127.0.0.1:\(port)/vod/s/v/main.m3u8")
            _ = try await fetch("http://127.0.0.1:\(port)/missing")
            _ = try await fetch("http://127.0.0.1:\(port)/failing")
        }
        let logged = entries.all
        #expect(logged.map(\.path) == ["/vod/s/v/main.m3u8", "/missing", "/failing"])
        #expect(logged.map(\.status) == [200, 404, 500])
        #expect(logged.map(\.method) == [.get, .get, .get])
        #expect(logged[0].bodyBytes == "#EXTM3U\n# s for v\n".utf8.count)
        #expect(logged[0].duration > .zero)
        #expect(logged[0].remoteAddress == "127.0.0.1")
        #expect(logged[2].error?.contains("Oops") == true)
    }

    @Test("port 0 binds a free port; a taken port makes run() throw")
    func ports() async throws {
        try await withServer(Self.router) { _, port in
            #expect(port > 0)
            let second = HTTPServer(configuration: .init(port: port), router: Self.router)
            await #expect(throws: NetworkIOError.bindFailed(host: "127.0.0.1", port: port)) { try await second.run() }
            await #expect(throws: NetworkIOError.bindFailed(host: "127.0.0.1", port: port)) { try await second.listeningPort() }
        }
    }

    @Test("shutdown() lets an in-flight response complete, refuses new requests, and run() returns")
    func gracefulShutdown() async throws {
        let entered = Signal<Void>()
        let release = Signal<Void>()
        var router = HTTPRouter()
        router.get("/slow") { _ in
            entered.send(())
            await release.value
            return HTTPResponse(body: "finished")
        }
        router.get("/fast") { _ in HTTPResponse(body: "fast") }
        let server = HTTPServer(router: router)
        let running = Task { try await server.run() }
        let port = try await server.listeningPort()
        let slow = Task { try await fetch("http://127.0.0.1:\(port)/slow") }
        await entered.value
        server.shutdown()
        // While draining, a new request is refused rather than queued behind the slow one.
        let refused = try await fetch("http://127.0.0.1:\(port)/fast")
        #expect(refused.status == 503)
        #expect(refused.header("Connection") == "close")
        release.send(())
        let response = try await slow.value
        #expect(response.status == 200)
        #expect(response.text == "finished")
        try await running.value
        await #expect(throws: (any Error).self) { try await fetch("http://127.0.0.1:\(port)/fast") }
    }

    @Test("cancelling the task that runs the server stops it once in-flight responses are sent")
    func cancellation() async throws {
        let entered = Signal<Void>()
        let release = Signal<Void>()
        var router = Self.router
        router.get("/slow") { _ in
            entered.send(())
            await release.value
            return HTTPResponse(body: "answered \(Task.isCancelled ? "after" : "before") cancellation")
        }
        let server = HTTPServer(router: router)
        let running = Task { try await server.run() }
        let port = try await server.listeningPort()
        #expect(try await fetch("http://127.0.0.1:\(port)/query?a=1").status == 200)
        let slow = Task { try await fetch("http://127.0.0.1:\(port)/slow") }
        try await withTimeout { await entered.value }
        running.cancel()
        release.send(())
        #expect(try await slow.value.text == "answered after cancellation")
        try await withTimeout(.seconds(5)) { try await running.value }
        await #expect(throws: (any Error).self) { try await fetch("http://127.0.0.1:\(port)/query") }
    }
}

/// A temporary directory with one file per HLS content type and a multi-chunk binary file.
final class StaticFixture: Sendable {
    static let files: [(String, String)] = [
        ("main.m3u8", "application/vnd.apple.mpegurl"),
        ("seg-000.ts", "video/mp2t"),
        ("init.mp4", "video/mp4"),
        ("part-1.m4s", "video/mp4"),
        ("assets.json", "application/json"),
        ("audio.aac", "audio/aac"),
        ("captions.vtt", "text/vtt"),
        ("unknown.xyz", "application/octet-stream"),
    ]

    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "networkio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        for (index, (name, _)) in Self.files.enumerated() {
            try Data("file \(index): \(name)\n".utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
        }
        var generator = SystemRandomNumberGenerator()
        let large = (0..<(300_000 + 17)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(large).write(to: URL(fileURLWithPath: "\(path)/large.bin"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: "\(path)/.secret"))
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func contents(of name: String) -> Data {
        (try? Data(contentsOf: URL(fileURLWithPath: "\(path)/\(name)"))) ?? Data()
    }
}

@Suite("HTTPServer edge cases over loopback")
struct HTTPServerEdgeCaseTests {
    @Test("pipelined requests are answered in order, even when the first one is slow")
    func pipelining() async throws {
        var router = HTTPRouter()
        router.get("/slow") { _ in
            try await Task.sleep(for: .milliseconds(200))
            return HTTPResponse(body: "slow")
        }
        router.get("/fast") { _ in HTTPResponse(body: "fast") }
        try await withServer(router) { _, port in
            let bodies = try await blocking {
                let socket = try RawSocket(port: port)
                try socket.send(
                    "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                )
                return try (0..<3).map { _ in
                    let response = try socket.readResponse()
                    return "\(response.status) \(String(decoding: response.body, as: UTF8.self))"
                }
            }
            #expect(bodies[0] == "200 slow")
            #expect(bodies[1] == "200 fast")
            #expect(bodies[2].hasPrefix("404 "))
        }
    }

    @Test("a client that asks before sending its body gets 100 Continue, then the response")
    func expectContinue() async throws {
        var router = HTTPRouter()
        router.post("/echo") { request in HTTPResponse(body: request.body) }
        try await withServer(router) { _, port in
            let (interim, final) = try await blocking {
                let socket = try RawSocket(port: port)
                try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                let interim = String(decoding: try socket.read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
                try socket.send("hello")
                let final = try socket.readResponse()
                return (interim, "\(final.status) \(String(decoding: final.body, as: UTF8.self))")
            }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            #expect(final == "200 hello")
        }
    }

    @Test("a client that leaves while its handler runs is forgotten, and the server carries on")
    func clientLeavesDuringHandler() async throws {
        let entered = Signal<Void>()
        let release = Signal<Void>()
        let finished = Signal<Void>()
        var router = HTTPRouter()
        router.get("/slow") { _ in
            entered.send(())
            await release.value
            finished.send(())
            return HTTPResponse(body: "too late")
        }
        router.get("/fast") { _ in HTTPResponse(body: "fast") }
        try await withServer(router) { server, port in
            let socket = try await blocking { () -> RawSocket in
                let socket = try RawSocket(port: port)
                try socket.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                return socket
            }
            try await withTimeout { await entered.value }
            socket.abort()
            release.send(())
            try await withTimeout { await finished.value }
            #expect(try await eventually { server.openConnectionCount == 0 })
            #expect(try await fetch("http://127.0.0.1:\(port)/fast").text == "fast")
        }
    }

    @Test("an idle keep-alive connection is closed after the keep-alive timeout")
    func idleTimeout() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.keepAliveTimeout = .seconds(1)
        var router = HTTPRouter()
        router.get("/hello") { _ in HTTPResponse(body: "hello") }
        try await withServer(router, configuration: configuration) { server, port in
            let (status, elapsed) = try await blocking {
                let socket = try RawSocket(port: port)
                try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let status = try socket.readResponse().status
                let start = ContinuousClock.now
                _ = try socket.readUntilClosed()
                return (status, ContinuousClock.now - start)
            }
            #expect(status == 200)
            #expect(elapsed >= .milliseconds(900))
            #expect(elapsed < .seconds(15))
            #expect(try await eventually { server.openConnectionCount == 0 })
        }
    }

    @Test("a handler's large body and file responses are written whole, with ranges for files")
    func largeHandlerResponses() async throws {
        let directory = try StaticFixture()
        let large = (0..<(1 << 20) + 11).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var router = HTTPRouter()
        router.get("/bytes") { _ in HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: large) }
        router.get("/segments/:name") { request in
            HTTPResponse(body: .file(path: directory.path + "/" + (request.pathParameters["name"] ?? "")))
        }
        try await withServer(router) { _, port in
            let bytes = try await fetch("http://127.0.0.1:\(port)/bytes")
            #expect(bytes.body == Data(large))
            let file = try await fetch("http://127.0.0.1:\(port)/segments/large.bin", headers: ["Range": "bytes=1000-"])
            #expect(file.status == 206)
            #expect(file.body == directory.contents(of: "large.bin")[1000...])
            #expect(try await fetch("http://127.0.0.1:\(port)/segments/seg-000.ts").header("Content-Type") == "video/mp2t")
            #expect(try await fetch("http://127.0.0.1:\(port)/segments/absent.ts").status == 404)
        }
    }
}
