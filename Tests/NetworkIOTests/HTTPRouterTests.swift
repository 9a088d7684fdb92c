import NetworkIO
import Testing

@Suite("HTTPRouter")
struct HTTPRouterTests {
    private func parameters(_ match: HTTPRouter.Match) -> [String: String]? {
        if case .handler(_, let parameters) = match { return parameters }
        return nil
    }

    private var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/vod/:stream/:viewer/main.m3u8") { _ in HTTPResponse() }
        router.get("/vod/:stream/live.m3u8") { _ in HTTPResponse() }
        router.post("/sessions") { _ in HTTPResponse() }
        router.get("/assets/*rest") { _ in HTTPResponse() }
        router.files("/media", directory: "/srv/media/")
        return router
    }

    @Test("path parameters take the segments they stand for")
    func pathParameters() {
        let match = router.match(.get, path: "/vod/main/viewer-7/main.m3u8")
        #expect(parameters(match) == ["stream": "main", "viewer": "viewer-7"])
    }

    @Test("a literal segment must match exactly and segment counts must agree")
    func literalsAndCounts() {
        #expect(parameters(router.match(.get, path: "/vod/main/viewer-7/other.m3u8")) == nil)
        #expect(parameters(router.match(.get, path: "/vod/main/viewer-7/main.m3u8/extra")) == nil)
        #expect(parameters(router.match(.get, path: "/vod/main/live.m3u8")) == ["stream": "main"])
    }

    @Test("a tail parameter takes the rest of the path")
    func tail() {
        #expect(parameters(router.match(.get, path: "/assets/a/b/c.json")) == ["rest": "a/b/c.json"])
        #expect(parameters(router.match(.get, path: "/assets")) == nil)
    }

    @Test("a tail parameter drops empty segments, and a segment is split only at '/'")
    func tailSegments() {
        #expect(parameters(router.match(.get, path: "/assets//a//b/c.json/")) == ["rest": "a/b/c.json"])
        #expect(parameters(router.match(.get, path: "/assets/a/b")) == ["rest": "a/b"])
        // A combining mark after '/' makes one Character of the two, but the path is still split there.
        #expect(parameters(router.match(.get, path: "/assets/\u{301}x/y")) == ["rest": "\u{301}x/y"])
        #expect(parameters(router.match(.get, path: "/vod/\u{301}/viewer/main.m3u8")) == ["stream": "\u{301}", "viewer": "viewer"])
    }

    @Test("a GET route answers HEAD too")
    func headFallsBackToGet() {
        #expect(parameters(router.match(.head, path: "/vod/x/live.m3u8")) == ["stream": "x"])
    }

    @Test("a known path with the wrong method lists the methods it allows")
    func methodNotAllowed() {
        guard case .methodNotAllowed(let allowed) = router.match(.delete, path: "/sessions") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.post, .options])
        guard case .methodNotAllowed(let forGet) = router.match(.post, path: "/vod/a/live.m3u8") else {
            Issue.record("expected 405")
            return
        }
        #expect(forGet == [.get, .head, .options])
    }

    @Test("unknown paths are not found")
    func notFound() {
        guard case .notFound = router.match(.get, path: "/nothing/here") else {
            Issue.record("expected 404")
            return
        }
    }

    @Test("files resolve under their directory, and unsafe or hidden paths do not")
    func files() {
        guard case .file(let path) = router.match(.get, path: "/media/content/seg-001.ts") else {
            Issue.record("expected a file")
            return
        }
        #expect(path == "/srv/media/content/seg-001.ts")
        for unsafe in ["/media/../etc/passwd", "/media/content/.hidden", "/media/./x", "/media"] {
            if case .file = router.match(.get, path: unsafe) { Issue.record("\(unsafe) must not resolve to a file") }
        }
        guard case .methodNotAllowed(let allowed) = router.match(.post, path: "/media/a.ts") else {
            Issue.record("expected 405 for POST on a file")
            return
        }
        #expect(allowed.contains(.get))
    }
}
