import Synchronization

/// An HTTP/1.1 and WebSocket server on one port, over libwebsockets with its libev backend.
///
///     var router = HTTPRouter()
///     router.get("/hello/:name") { request in HTTPResponse(body: "hello \(request.pathParameters["name"]!)") }
///     let server = HTTPServer(configuration: .init(port: 8080), router: router)
///     try await server.run()                 // until the task is cancelled or shutdown() is called
///
/// One service thread owns the libwebsockets context and every connection: it parses requests,
/// serves files and writes responses. Handlers run as child tasks of `run()` on the Swift
/// concurrency pool, and their responses go back to the service thread through its inbox.
public final class HTTPServer: Sendable {
    /// The server's settings.
    public let configuration: Configuration
    /// The routes.
    public let router: HTTPRouter

    private struct State {
        var loop: ServiceLoop?
        var hasRun = false
        var isShutdownRequested = false
        var port: Int?
        var failure: (any Error)?
        var portWaiters: [CheckedContinuation<Int, any Error>] = []
    }

    private let state = Mutex(State())
    private let statistics = ServerStatistics()

    /// A server that will listen as `configuration` says once `run()` is called.
    public init(configuration: Configuration = Configuration(), router: HTTPRouter) {
        self.configuration = configuration
        self.router = router
    }

    /// Listens and serves until the task is cancelled or `shutdown()` is called, then shuts down
    /// gracefully: new requests get 503, in-flight responses are completed, WebSockets are
    /// closed with 1001, and after `configuration.shutdownGracePeriod` whatever is left is dropped.
    /// Handlers are child tasks of `run()`, so cancelling it cancels them too; what they answer
    /// (503 for a `CancellationError`) is still sent. Throws `NetworkIOError.bindFailed` when it
    /// cannot listen, and `.tlsUnusable` when the TLS certificate or key cannot be used. A server
    /// runs once.
    public func run() async throws {
        let events = ServerEventChannel()
        let settings = ServerSettings(configuration: configuration, router: router, events: events, statistics: statistics)
        let loop = ServiceLoop(settings: LoopSettings(role: .server(settings)))
        try state.withLock { state in
            guard !state.hasRun else { throw NetworkIOError.alreadyRunning }
            state.hasRun = true
            state.loop = loop
        }
        let port: Int
        do {
            port = try await loop.start()
        } catch {
            let waiters = state.withLock { state in
                state.failure = error
                defer { state.portWaiters = [] }
                return state.portWaiters
            }
            for waiter in waiters { waiter.resume(throwing: error) }
            events.finish()
            throw error
        }
        let (waiters, isShutdownRequested) = state.withLock { state in
            state.port = port
            defer { state.portWaiters = [] }
            return (state.portWaiters, state.isShutdownRequested)
        }
        for waiter in waiters { waiter.resume(returning: port) }
        if isShutdownRequested || Task.isCancelled { loop.post(.shutdown(gracePeriod: configuration.shutdownGracePeriod)) }

        await withTaskCancellationHandler {
            // WebSocket handlers get a group of their own. The Swift 6.3 runtime unlinks a
            // finished child by walking its group's list of children from the oldest, and
            // WebSocket handlers are the oldest and can number thousands: in one shared group,
            // every request handler would pay O(open WebSockets) when it finishes (with 10,000
            // held, more CPU than the request itself; Benchmarks/run-origin.sh).
            let sessions = ServerEventChannel()
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await withDiscardingTaskGroup { webSockets in
                        while let event = await sessions.next() {
                            guard case .webSocket(let connection, let handler) = event else { continue }
                            webSockets.addTask {
                                do {
                                    try await handler(connection)
                                    await connection.close()
                                } catch {
                                    await connection.close(code: .internalServerError, reason: "handler failed")
                                }
                            }
                        }
                        webSockets.cancelAll()
                    }
                }
                // Not `for await` over an AsyncStream: that ends as soon as this task is
                // cancelled, stranding requests the service thread already handed over, and
                // the shutdown would then wait out its whole grace period for them.
                while let event = await events.next() {
                    switch event {
                    case .request(let id, let request, let handler):
                        group.addTask {
                            let (response, error) = await Self.respond(to: request, with: handler)
                            loop.post(.respond(id: id, response: response, error: error))
                        }
                    case .webSocket:
                        sessions.send(event)
                    }
                }
                // The service thread has stopped; whatever still runs can only be dropped.
                sessions.finish()
                group.cancelAll()
            }
        } onCancel: {
            self.shutdown()
        }
        await loop.waitUntilFinished()
    }

    /// The port the server listens on, once it does (the ephemeral port when configured with 0).
    /// Throws the error `run()` failed with.
    public func listeningPort() async throws -> Int {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let result = state.withLock { state -> Result<Int, any Error>? in
                if let port = state.port { return .success(port) }
                if let failure = state.failure { return .failure(failure) }
                state.portWaiters.append(continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Starts a graceful shutdown; `run()` returns when it is complete. Safe to call from any
    /// thread, any number of times, before or during `run()`.
    public func shutdown() {
        let loop = state.withLock { state in
            state.isShutdownRequested = true
            return state.loop
        }
        loop?.post(.shutdown(gracePeriod: configuration.shutdownGracePeriod))
    }

    /// How many WebSocket connections are open.
    package var openWebSocketCount: Int { statistics.openWebSockets.load(ordering: .relaxed) }
    /// How many TCP connections the server holds (HTTP and WebSocket).
    package var openConnectionCount: Int { statistics.openConnections.load(ordering: .relaxed) }

    /// Runs a handler, turning thrown errors into JSON error responses.
    private static func respond(
        to request: HTTPRequest,
        with handler: HTTPRouter.Handler
    ) async -> (HTTPResponse, String?) {
        do {
            return (try await handler(request), nil)
        } catch let error as HTTPError {
            return (error.response, nil)
        } catch is CancellationError {
            return (.error(.serviceUnavailable, message: "the server is shutting down"), "cancelled")
        } catch {
            return (.error(.internalServerError, message: "internal server error"), String(describing: error))
        }
    }
}

extension HTTPServer {
    /// How a server listens and behaves.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal or an interface name.
        public var host: String
        /// The TCP port; 0 picks a free one (see `listeningPort()`).
        public var port: Int
        /// How long an idle keep-alive connection is kept (whole seconds; at least 1).
        public var keepAliveTimeout: Duration
        /// The largest request body accepted; a larger one is answered with 413.
        public var maximumRequestBodyBytes: Int
        /// Whether to send `Access-Control-Allow-Origin: *` on every response and answer CORS
        /// preflight (`OPTIONS`) requests, so browser players on other origins can load streams.
        public var isCORSEnabled: Bool
        /// The default limits and keep-alive for WebSocket connections.
        public var webSocket: WebSocketConfiguration
        /// When set, the port speaks only HTTPS and `wss://` (HTTP/1.1 over TLS); plain
        /// connections are dropped during the TLS handshake.
        public var tls: TLS?
        /// How long a graceful shutdown may take before remaining connections are dropped.
        public var shutdownGracePeriod: Duration
        /// Called once per completed HTTP response, on the service thread: keep it quick (append
        /// to a buffer, write a line), never block.
        public var accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)?

        /// A configuration; the defaults listen on 127.0.0.1 on a free port.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            keepAliveTimeout: Duration = .seconds(5),
            maximumRequestBodyBytes: Int = 1 << 20,
            isCORSEnabled: Bool = true,
            webSocket: WebSocketConfiguration = WebSocketConfiguration(),
            tls: TLS? = nil,
            shutdownGracePeriod: Duration = .seconds(10),
            accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.keepAliveTimeout = keepAliveTimeout
            self.maximumRequestBodyBytes = maximumRequestBodyBytes
            self.isCORSEnabled = isCORSEnabled
            self.webSocket = webSocket
            self.tls = tls
            self.shutdownGracePeriod = shutdownGracePeriod
            self.accessLog = accessLog
        }
    }
}

/// One completed HTTP response, for access logs.
public struct HTTPAccessLogEntry: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The request path (decoded, without the query).
    public var path: String
    /// The response status code.
    public var status: Int
    /// The body bytes sent (0 for `HEAD`).
    public var bodyBytes: Int
    /// From the end of the request headers to the last byte handed to the socket.
    public var duration: Duration
    /// The peer's address.
    public var remoteAddress: String
    /// What a failing handler threw, when it did.
    public var error: String?

    package init(
        method: HTTPMethod, path: String, status: Int, bodyBytes: Int, duration: Duration, remoteAddress: String, error: String?
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.bodyBytes = bodyBytes
        self.duration = duration
        self.remoteAddress = remoteAddress
        self.error = error
    }

    /// For example `127.0.0.1 GET /vod/main.m3u8 200 1234B 0.8ms`: one line, whatever the
    /// request held, with the method, path and error escaped by ``TerminalText``.
    public var line: String {
        let milliseconds = Double(duration.components.seconds) * 1_000
            + Double(duration.components.attoseconds) / 1e15
        let rounded = (milliseconds * 10).rounded() / 10
        let request = TerminalText.escaped("\(method) \(path)")
        return "\(remoteAddress) \(request) \(status) \(bodyBytes)B \(rounded)ms" + (error.map { " error: " + TerminalText.escaped($0) } ?? "")
    }
}

/// Events the service thread hands to `run()`, which turns each into a child task.
enum ServerEvent: Sendable {
    case request(id: UInt64, request: HTTPRequest, handler: HTTPRouter.Handler)
    case webSocket(WebSocketConnection, handler: HTTPRouter.WebSocketHandler)
}

/// The queue from the service thread to `run()`: unbounded (the service thread never waits),
/// one consumer, and deaf to cancellation, so every event sent before `finish()` is delivered.
final class ServerEventChannel: Sendable {
    private struct State {
        var buffer = FIFO<ServerEvent>()
        var consumer: CheckedContinuation<ServerEvent?, Never>?
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Delivers `event` to the waiting consumer or queues it. O(1) amortised.
    func send(_ event: ServerEvent) {
        let consumer = state.withLock { state -> CheckedContinuation<ServerEvent?, Never>? in
            guard !state.isFinished else { return nil }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.buffer.append(event)
            return nil
        }
        consumer?.resume(returning: event)
    }

    /// No more events: the consumer gets `nil` once the queue is empty.
    func finish() {
        let consumer = state.withLock { state -> CheckedContinuation<ServerEvent?, Never>? in
            state.isFinished = true
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(returning: nil)
    }

    /// The next event, or `nil` after `finish()`.
    func next() async -> ServerEvent? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ServerEvent?, Never>) in
            let result = state.withLock { state -> ServerEvent?? in
                if let event = state.buffer.popFirst() { return .some(event) }
                if state.isFinished { return .some(nil) }
                state.consumer = continuation
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
    }
}

/// Counters the service thread keeps for tests and diagnostics.
final class ServerStatistics: Sendable {
    let openWebSockets = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
}

/// What a service loop is for.
struct LoopSettings: Sendable {
    enum Role: Sendable {
        case server(ServerSettings)
        case client(WebSocketClient.TLS)
    }

    var role: Role
}

/// A server loop's routes, configuration and the stream of events it feeds `run()`.
struct ServerSettings: Sendable {
    var configuration: HTTPServer.Configuration
    var router: HTTPRouter
    var events: ServerEventChannel
    var statistics: ServerStatistics
}
