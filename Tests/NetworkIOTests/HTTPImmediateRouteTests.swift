import Foundation
import NetworkIO
import Synchronization
import Testing

/// Routes with a fast path: answered on the service thread when it can, by the handler when it
/// declines, with the same headers, ranges and HEAD behaviour either way.
@Suite("HTTPServer's immediate routes")
struct HTTPImmediateRouteTests {
    /// Which thread answered each request: the fast path records the service thread's id, the
    /// handler the pool thread's.
    private final class Threads: Sendable {
        let immediate = Mutex<Set<UInt>>([])
        let handler = Mutex<Set<UInt>>([])
        static var current: UInt { UInt(bitPattern: Int(pthread_self())) }
    }

    private static func router(_ threads: Threads) -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/items/:name", immediate: { request in
            threads.immediate.withLock { _ = $0.insert(Threads.current) }
            guard let name = request.pathParameters["name"], name.hasSuffix(".m3u8") else { return nil }
            return HTTPResponse(headers: ["Content-Type": "application/vnd.apple.mpegurl", "Accept-Ranges": "bytes"], body: "#EXTM3U\n# \(name)\n")
        }) { request in
            threads.handler.withLock { _ = $0.insert(Threads.current) }
            return HTTPResponse(headers: ["Content-Type": "video/mp2t"], body: "segment \(request.pathParameters["name"] ?? "?")")
        }
        return router
    }

    @Test("the fast path answers what it can, the handler the rest, and the two run on different threads")
    func answersOrDeclines() async throws {
        let threads = Threads()
        try await withServer(Self.router(threads)) { _, port in
            let playlist = try await fetch("http://127.0.0.1:\(port)/items/a.m3u8")
            #expect(playlist.status == 200 && playlist.text == "#EXTM3U\n# a.m3u8\n")
            #expect(playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
            let segment = try await fetch("http://127.0.0.1:\(port)/items/7.ts")
            #expect(segment.status == 200 && segment.text == "segment 7.ts")
            #expect(segment.header("Content-Type") == "video/mp2t")
        }
        let immediate = threads.immediate.withLock { $0 }
        #expect(immediate.count == 1)
        #expect(immediate.isDisjoint(with: threads.handler.withLock { $0 }))
    }

    @Test("an immediate answer gets ranges and HEAD like a handler's: a 206 slice, a body-less HEAD")
    func rangesAndHead() async throws {
        try await withServer(Self.router(Threads())) { _, port in
            let slice = try await fetch("http://127.0.0.1:\(port)/items/b.m3u8", headers: ["Range": "bytes=0-6"])
            #expect(slice.status == 206 && slice.text == "#EXTM3U")
            #expect(slice.header("Content-Range") == "bytes 0-6/17")
            let head = try await fetch("http://127.0.0.1:\(port)/items/b.m3u8", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "17")
        }
    }

    @Test("a request with a body never takes the fast path: the handler answers it, and the next request on the connection is read whole")
    func bodyGoesToTheHandler() async throws {
        let threads = Threads()
        try await withServer(Self.router(threads)) { _, port in
            let (first, second) = try await blocking {
                let socket = try RawSocket(port: port, timeoutSeconds: 10)
                try socket.send("GET /items/c.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                let first = try socket.readResponse()
                try socket.send("GET /items/d.m3u8 HTTP/1.1\r\nHost: x\r\n\r\n")
                return (first, try socket.readResponse())
            }
            #expect(first.status == 200 && String(decoding: first.body, as: UTF8.self) == "segment c.m3u8")
            #expect(second.status == 200 && String(decoding: second.body, as: UTF8.self) == "#EXTM3U\n# d.m3u8\n")
        }
        #expect(threads.handler.withLock { $0 }.count == 1)
    }
}
