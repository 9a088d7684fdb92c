import HLSPlaylist
import NetworkIO

/// An ``Origin`` over HTTP: a NetworkIO server whose every `GET` and `HEAD` request is answered
/// by ``Origin/respond(to:at:)`` at the date the injected wall clock gives.
///
///     let server = OriginServer(origin: origin, configuration: .init(port: 8080), wallClock: { now() })
///     try await server.run()          // until the task is cancelled or shutdown() is called
///
/// Asset lists need absolute URIs (Appendix D.2); they are built on the `Host` the client sent,
/// so the URLs work whichever address the client used. CORS headers come from the server
/// configuration (on by default), so browser players on other origins can load the streams.
public final class OriginServer: Sendable {
    /// What is served.
    public let origin: Origin
    private let server: HTTPServer

    /// A server for `origin`, listening as `configuration` says once ``run()`` is called.
    ///
    /// - Parameter wallClock: the current date, read once per request; only the composition root
    ///   passes the real one, tests pass dates they control.
    public init(origin: Origin, configuration: HTTPServer.Configuration, wallClock: @escaping @Sendable () -> PlaylistDate) {
        self.origin = origin
        let fallbackBaseURL = "http://\(configuration.host):\(configuration.port)"
        self.server = HTTPServer(configuration: configuration, router: Self.router(for: origin, wallClock: wallClock, fallbackBaseURL: fallbackBaseURL))
    }

    /// Serves until the task is cancelled or ``shutdown()`` is called, then shuts down gracefully.
    ///
    /// - Throws: NetworkIO's error when the server cannot listen.
    public func run() async throws { try await server.run() }

    /// The port the server listens on once it does.
    public func listeningPort() async throws -> Int { try await server.listeningPort() }

    /// Starts a graceful shutdown; ``run()`` returns when it is complete.
    public func shutdown() { server.shutdown() }

    /// The routes: every path goes to the origin for GET and HEAD, and the origin answers unknown
    /// paths with its own JSON 404; other methods get NetworkIO's 405 with `Allow: GET, HEAD,
    /// OPTIONS`, the methods an `OPTIONS` request is told of.
    ///
    /// Public so that a program can serve the origin from its own ``HTTPServer`` next to other
    /// endpoints on the same port, for example a WebSocket route (``HTTPRouter`` matches WebSocket
    /// upgrades apart from the HTTP routes, so the origin's catch-all does not hide them).
    ///
    /// - Parameters:
    ///   - wallClock: the current date, read once per request.
    ///   - fallbackBaseURL: the base of asset-list URIs for a request without a `Host` header.
    public static func router(for origin: Origin, wallClock: @escaping @Sendable () -> PlaylistDate, fallbackBaseURL: String) -> HTTPRouter {
        let respond: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            var query: [String: String] = [:]
            for item in request.queryItems { query[item.name] = item.value }
            let baseURL = request.headers["Host"].map { "http://\($0)" } ?? fallbackBaseURL
            let response = origin.respond(
                to: OriginRequest(method: request.method.rawValue, path: request.path, queryItems: query, baseURL: baseURL), at: wallClock()
            )
            var headers = HTTPHeaders()
            for header in response.headers { headers.add(name: header.name, value: header.value) }
            // NetworkIO answers Range requests on the body (206, 416) for responses that say so.
            if response.status == 200 { headers["Accept-Ranges"] = "bytes" }
            return HTTPResponse(status: HTTPStatus(code: response.status), headers: headers, body: response.body)
        }
        // Playlists and asset lists are answered on the service thread (NetworkIO's fast path):
        // each is a cached body or a rendering of a few dozen lines, from memory, in bounded
        // time, and going to the concurrency pool and back cost more than the answer. Segments,
        // which are cut and copied by the hundred kilobytes, take the handler's hop.
        let immediate: HTTPRouter.ImmediateHandler = { request in
            Self.answersImmediately(path: request.path) ? respond(request) : nil
        }
        let handler: HTTPRouter.Handler = { request in respond(request) }
        var router = HTTPRouter()
        router.get("/", immediate: immediate, handler)
        router.get("/*path", immediate: immediate, handler)
        // Only GET (and HEAD) are routed, so the router's 405 and OPTIONS advertise exactly those.
        return router
    }

    /// Whether the origin answers `path` on the service thread: a playlist, an asset list or the
    /// index, whose answers are small and made from memory.
    static func answersImmediately(path: String) -> Bool {
        path == "/" || path.hasSuffix(".m3u8") || path.hasSuffix(".json")
    }
}
