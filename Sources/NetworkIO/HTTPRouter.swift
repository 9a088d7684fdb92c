/// Maps request paths to handlers, static file directories and WebSocket endpoints.
///
///     var router = HTTPRouter()
///     router.get("/vod/:stream/:viewer/main.m3u8") { request in
///         HTTPResponse(body: playlist(for: request.pathParameters["viewer"]!))
///     }
///     router.files("/media", directory: "/srv/media")
///     router.webSocket("/ws") { connection in
///         for try await message in connection.messages { try await connection.send(message) }
///     }
///
/// Patterns are matched segment by segment: a literal segment matches itself, `:name` matches
/// any one segment and `*name` (last only) matches the rest of the path. Handler routes are tried
/// in the order they were added, then file directories; matching costs O(routes × segments).
/// A `GET` route also answers `HEAD` (without the body) unless a `HEAD` route is given.
public struct HTTPRouter: Sendable {
    /// A request handler. It runs on the Swift concurrency pool, never on the service thread.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// A fast path beside a route's handler: it runs on the service thread as soon as a request
    /// without a body has arrived, and its response is written at once, with no hop to the
    /// concurrency pool and back; `nil` hands the request to the handler as usual. It must answer
    /// in bounded time from what it holds (a cached body, a small rendering), never wait, block,
    /// sleep or take a lock that is held while anything waits: every other connection of the
    /// server waits while it runs.
    public typealias ImmediateHandler = @Sendable (HTTPRequest) -> HTTPResponse?
    /// A WebSocket handler; it owns the connection until it returns, after which the server
    /// closes the connection with 1000 (or 1011 when the handler throws).
    public typealias WebSocketHandler = @Sendable (WebSocketConnection) async throws -> Void
    /// Looks at a WebSocket upgrade request before it is accepted: a response refuses the upgrade
    /// with it (a 403 for an `Origin` that is not allowed), `nil` lets it through. It runs on the
    /// service thread, between two reads of the socket: keep it quick, never block.
    public typealias WebSocketAdmission = @Sendable (HTTPRequest) -> HTTPResponse?

    struct Route: Sendable {
        var method: HTTPMethod
        var pattern: RoutePattern
        var handler: Handler
        var immediate: ImmediateHandler?
    }

    struct FileDirectory: Sendable {
        var prefix: [String]
        var directory: String
    }

    struct WebSocketRoute: Sendable {
        var pattern: RoutePattern
        var subprotocol: String?
        var configuration: WebSocketConfiguration?
        var admission: WebSocketAdmission?
        var handler: WebSocketHandler
    }

    /// What a request path resolves to.
    package enum Match {
        case handler(Handler, parameters: [String: String])
        /// A route with a fast path: `immediate` first, `handler` when it declines.
        case immediate(ImmediateHandler, handler: Handler, parameters: [String: String])
        case file(path: String)
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private(set) var routes: [Route] = []
    private(set) var fileDirectories: [FileDirectory] = []
    private(set) var webSocketRoutes: [WebSocketRoute] = []

    /// An empty router: every request gets a 404.
    public init() {}

    /// Adds a handler for `method` requests whose path matches `pattern`.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    /// Adds a `GET` (and implicit `HEAD`) handler.
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { on(.get, pattern, handler) }
    /// Adds a `GET` (and implicit `HEAD`) handler with a fast path that answers on the service
    /// thread when it can (``ImmediateHandler``).
    public mutating func get(_ pattern: String, immediate: @escaping ImmediateHandler, _ handler: @escaping Handler) {
        routes.append(Route(method: .get, pattern: RoutePattern(pattern), handler: handler, immediate: immediate))
    }
    /// Adds a `HEAD` handler, overriding the implicit one a `GET` route gives.
    public mutating func head(_ pattern: String, _ handler: @escaping Handler) { on(.head, pattern, handler) }
    /// Adds a `POST` handler; it runs once the whole body has arrived.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { on(.post, pattern, handler) }
    /// Adds a `PUT` handler.
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { on(.put, pattern, handler) }
    /// Adds a `PATCH` handler.
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { on(.patch, pattern, handler) }
    /// Adds a `DELETE` handler.
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { on(.delete, pattern, handler) }

    /// Serves the regular files under `directory` at `prefix` (for `GET` and `HEAD`), on the
    /// service thread without a handler hop, with byte ranges and content types by extension.
    /// Paths with `..`, `.` or hidden segments are refused with 404; directories are not listed.
    ///
    /// NetworkIO reads the files itself rather than using libwebsockets' file mounts: Debian's
    /// lws 4.1 is built without `LWS_WITH_RANGES` (mounts ignore `Range`), mounts answer misses
    /// with HTML rather than the JSON errors every other path gives, would need per-vhost header
    /// lists for CORS, and bypass the access log (`LWS_WITH_ACCESS_LOG` is off too). Each chunk is
    /// read with `pread` straight into the send buffer, the one copy before the kernel's.
    public mutating func files(_ prefix: String, directory: String) {
        let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        fileDirectories.append(FileDirectory(prefix: RoutePattern.segments(of: prefix).map(String.init), directory: trimmed))
    }

    /// Accepts WebSocket upgrades whose path matches `pattern` (and, when given, that offer the
    /// `subprotocol` and that `admission` lets through), with `configuration` or the server's
    /// default WebSocket configuration.
    public mutating func webSocket(
        _ pattern: String,
        subprotocol: String? = nil,
        configuration: WebSocketConfiguration? = nil,
        admission: WebSocketAdmission? = nil,
        _ handler: @escaping WebSocketHandler
    ) {
        webSocketRoutes.append(
            WebSocketRoute(
                pattern: RoutePattern(pattern), subprotocol: subprotocol, configuration: configuration, admission: admission, handler: handler)
        )
    }

    /// Resolves a request. O(routes × segments).
    package func match(_ method: HTTPMethod, path: String) -> Match {
        let segments = RoutePattern.segments(of: path)
        var allowed: [HTTPMethod] = []
        var headFallback: (Route, [String: String])?
        func found(_ route: Route, _ parameters: [String: String]) -> Match {
            guard let immediate = route.immediate else { return .handler(route.handler, parameters: parameters) }
            return .immediate(immediate, handler: route.handler, parameters: parameters)
        }
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == method { return found(route, parameters) }
            if method == .head, route.method == .get, headFallback == nil { headFallback = (route, parameters) }
            allowed.append(route.method)
        }
        if let (route, parameters) = headFallback { return found(route, parameters) }
        if let file = filePath(for: segments) {
            if method == .get || method == .head { return .file(path: file) }
            allowed.append(contentsOf: [.get, .head])
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        allowed.append(.options)
        var unique: [HTTPMethod] = []
        for method in allowed where !unique.contains(method) { unique.append(method) }
        return .methodNotAllowed(allowed: unique)
    }

    /// The WebSocket route for an upgrade request's path, with its parameters. O(routes × segments).
    func matchWebSocket(path: String) -> (WebSocketRoute, [String: String])? {
        let segments = RoutePattern.segments(of: path)
        for route in webSocketRoutes {
            if let parameters = route.pattern.match(segments) { return (route, parameters) }
        }
        return nil
    }

    /// The subprotocol names the WebSocket routes accept.
    var subprotocols: [String] {
        var names: [String] = []
        for route in webSocketRoutes {
            if let name = route.subprotocol, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The file a path names under one of the file directories, if it is a safe path.
    private func filePath(for segments: [Substring]) -> String? {
        for mount in fileDirectories where segments.count > mount.prefix.count {
            guard zip(mount.prefix, segments).allSatisfy({ $0 == $1 }) else { continue }
            let rest = segments[mount.prefix.count...]
            guard rest.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") }) else { return nil }
            return mount.directory + "/" + rest.joined(separator: "/")
        }
        return nil
    }
}

/// A compiled route pattern such as `/vod/:stream/:viewer/main.m3u8`.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case tail(String)
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        description = pattern
        segments = Self.segments(of: pattern).map { segment in
            if segment.hasPrefix(":") { return .parameter(String(segment.dropFirst())) }
            if segment.hasPrefix("*") { return .tail(String(segment.dropFirst())) }
            return .literal(String(segment))
        }
    }

    /// The path's non-empty segments: `/a//b/` has two.
    static func segments(of path: some StringProtocol) -> [Substring] {
        PathSegments.split(Substring(path), omittingEmpty: true)
    }

    /// The parameters if `path` matches, else `nil`. O(segments).
    func match(_ path: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .tail(let name):
                guard index < path.count else { return nil }
                parameters[name] = Self.joined(path[index...])
                return parameters
            case .literal(let text):
                guard index < path.count, path[index].utf8.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters[name] = String(path[index])
            }
        }
        return path.count == segments.count ? parameters : nil
    }

    /// The segments joined with `/`: when one `/` separates each from the next in the path they
    /// came from (the usual case), that stretch of the path as it is.
    private static func joined(_ segments: ArraySlice<Substring>) -> String {
        guard let first = segments.first, let last = segments.last else { return "" }
        let whole = first.base[first.startIndex..<last.endIndex]
        let contiguous = segments.reduce(segments.count - 1) { $0 + $1.utf8.count }
        if whole.utf8.count == contiguous { return String(whole) }
        return segments.joined(separator: "/")
    }
}

/// Splitting a path at its `/` bytes (RFC 3986 §3.3 defines segments on the characters of the
/// target, not on grapheme clusters), without walking `Character`s.
package enum PathSegments {
    /// The stretches of `text` between `/`s, in order; `omittingEmpty` drops the empty ones
    /// (`/a//b/` has two non-empty segments and five in all). O(n).
    package static func split(_ text: Substring, omittingEmpty: Bool) -> [Substring] {
        let bytes = text.utf8
        var segments: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/") {
                if !omittingEmpty || start != index { segments.append(text[start..<index]) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if !omittingEmpty || start != index { segments.append(text[start..<index]) }
        return segments
    }
}
