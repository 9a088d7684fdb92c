/// Opens WebSocket connections (RFC 6455) with libwebsockets' client, because Foundation's
/// `URLSessionWebSocketTask` is compiled out of this toolchain's Linux Foundation
/// (dependencies.md §5).
///
///     let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:8080/ws")
///     try await connection.send(.text("hello"))
///     let reply = try await connection.receive()
///
/// A client owns one service thread, started by the first `connect`, shared by all of its
/// connections. `shared` lives for the whole process and trusts the system's certificate
/// authorities for `wss://`; a client made with other ``TLS`` trusts what it says.
public final class WebSocketClient: Sendable {
    /// The process-wide client.
    public static let shared = WebSocketClient()

    /// How `wss://` servers are verified, for every connection of this client.
    public let tls: TLS
    private let loop: ServiceLoop

    /// A client with its own service thread, verifying `wss://` servers as `tls` says.
    public init(tls: TLS = TLS()) {
        self.tls = tls
        loop = ServiceLoop(settings: LoopSettings(role: .client(tls)))
    }

    deinit {
        loop.post(.shutdown(gracePeriod: .seconds(1)))
    }

    /// Connects with the shared client; see `connect(to:headers:subprotocols:configuration:)`.
    public static func connect(
        url: String,
        headers: HTTPHeaders = [:],
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws -> WebSocketConnection {
        try await shared.connect(to: url, headers: headers, subprotocols: subprotocols, configuration: configuration)
    }

    /// Opens a connection to a `ws://` or `wss://host[:port]/path[?query]` URL, offering
    /// `subprotocols` and sending the extra handshake `headers`, and returns once the handshake
    /// has completed. Throws `WebSocketError.invalidURL` or `.connectionFailed` (refused, timed
    /// out, not a 101, a TLS handshake or certificate refused), or `NetworkIOError.tlsUnusable`
    /// when the client's trusted-certificates file cannot be loaded.
    public func connect(
        to url: String,
        headers: HTTPHeaders = [:],
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws -> WebSocketConnection {
        let target = try WebSocketURL(url)
        _ = try await loop.start()
        let request = HTTPRequest(
            method: .get,
            path: target.path,
            queryItems: HTTPQueryItem.parse(query: target.query ?? ""),
            headers: headers
        )
        let connection = WebSocketConnection(
            id: ConnectionID.next(),
            loop: loop,
            request: request,
            subprotocol: nil,
            configuration: configuration,
            isOpen: false
        )
        let command = WebSocketClientRequest(target: target, headers: headers, subprotocols: subprotocols, connection: connection)
        guard loop.post(.connect(command)) else { throw NetworkIOError.stopped }
        try await connection.waitUntilOpen()
        return connection
    }

    /// Closes every connection of this client with 1001 (going away) and stops its service
    /// thread, returning when it has stopped.
    public func shutdown() async {
        guard loop.post(.shutdown(gracePeriod: .seconds(5))) else { return }
        await loop.waitUntilFinished()
    }
}

/// A connection the service thread must open.
struct WebSocketClientRequest: Sendable {
    var target: WebSocketURL
    var headers: HTTPHeaders
    var subprotocols: [String]
    var connection: WebSocketConnection
}

/// The parts of a `ws://` or `wss://` URL libwebsockets' client needs.
package struct WebSocketURL: Sendable, Equatable {
    /// Whether the URL is `wss://` (TLS).
    package var isSecure: Bool
    /// The host without brackets (`::1` for `[::1]`).
    package var host: String
    package var port: Int
    /// The path and query as sent in the request line, for example `/ws?x=1`.
    package var pathAndQuery: String

    var path: String { String(pathAndQuery.prefix { $0 != "?" }) }
    var query: String? {
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return nil }
        return String(pathAndQuery[pathAndQuery.index(after: mark)...])
    }

    /// The `Host` header value.
    var hostHeader: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return port == (isSecure ? 443 : 80) ? host : "\(host):\(port)"
    }

    /// Parses `ws://host[:port][/path][?query]` (port 80 by default) or the same with `wss://`
    /// (port 443 by default).
    package init(_ url: String) throws(WebSocketError) {
        if url.hasPrefix("ws://") {
            isSecure = false
        } else if url.hasPrefix("wss://") {
            isSecure = true
        } else {
            throw .invalidURL(url)
        }
        let rest = url.dropFirst(isSecure ? "wss://".count : "ws://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var pathAndQuery = String(rest[authorityEnd...])
        if pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") { pathAndQuery = "/" + pathAndQuery }
        var hostPart = authority
        var port = isSecure ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(url) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else { throw .invalidURL(url) }
                port = value
            } else if !after.isEmpty {
                throw .invalidURL(url)
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            guard let value = Int(authority[authority.index(after: colon)...]), (1...65535).contains(value) else {
                throw .invalidURL(url)
            }
            port = value
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else { throw .invalidURL(url) }
        host = String(hostPart)
        self.port = port
        self.pathAndQuery = pathAndQuery
    }
}
