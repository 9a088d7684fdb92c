import Foundation
import GroupCoordination
import NetworkIO
import Synchronization

/// The group-session server (`interlude serve`): WebSocket participants on `/group`, sessions
/// created on `POST /sessions`, Prometheus metrics on `/metrics`, one JSON log line per session
/// event.
///
/// One driver task owns the ``GroupServiceCore`` and the store: it takes what the sockets say in
/// arrival order, feeds the core, commits what the core wrote (all inputs that arrived together in
/// one transaction), and only then hands the outputs to each connection's sender, so an
/// acknowledgement or an event never reaches anyone before it is durable. Nothing else touches
/// the core, so there is no lock to hold while calling out.
public final class GroupServer: Sendable {
    /// Where and how it serves.
    public struct Configuration: Sendable {
        /// The HTTP server's settings (host, port, TLS).
        public var http: HTTPServer.Configuration
        /// The keys that sign and verify invitations.
        public var keyRing: TokenKeyRing
        /// Where sessions are kept.
        public var store: any SessionStore
        /// The core's limits and intervals.
        public var core: GroupServiceCore.Configuration
        /// Browser origins allowed to connect (`Origin` header); a native client sends none.
        public var allowedOrigins: Set<String>
        /// The largest message a participant may send.
        public var maximumMessageBytes: Int
        /// Where the session log's JSON lines go.
        public var log: @Sendable (String) -> Void
        /// A path that echoes every WebSocket message back (for conformance tests such as
        /// Autobahn|Testsuite against this server's WebSocket stack); `nil`: none.
        public var echoPath: String?
        /// More routes served beside the group's own (pages and sockets of other modules, such as
        /// the browser participant's), added after them.
        public var moreRoutes: @Sendable (inout HTTPRouter) -> Void = { _ in }

        /// A configuration.
        public init(
            http: HTTPServer.Configuration, keyRing: TokenKeyRing, store: any SessionStore,
            core: GroupServiceCore.Configuration = .init(), allowedOrigins: Set<String> = [],
            maximumMessageBytes: Int = 64 << 10, echoPath: String? = nil, log: @escaping @Sendable (String) -> Void = { print($0) }
        ) {
            self.echoPath = echoPath
            self.http = http
            self.keyRing = keyRing
            self.store = store
            self.core = core
            self.allowedOrigins = allowedOrigins
            self.maximumMessageBytes = maximumMessageBytes
            self.log = log
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let server: HTTPServer
    private let inputs: DriverMailbox
    private let restored: Mutex<GroupServiceCore?>
    private static let nextConnection = Atomic<UInt64>(1)
    /// How many sessions were restored from the store.
    public let restoredSessionCount: Int

    /// A server over `configuration.store`, with every session the store holds restored.
    ///
    /// - Throws: when the store cannot be read.
    public init(configuration: Configuration) throws {
        var configuration = configuration
        let isShared = configuration.store is any SharedSessionStore
        if isShared, configuration.core.node == nil { configuration.core.node = Self.newNodeName() }
        self.configuration = configuration
        var core = GroupServiceCore(configuration: configuration.core)
        let now = Self.wallClock()
        // A shared store's sessions are loaded when a participant of this process joins one.
        if !isShared {
            for stored in try configuration.store.loadAll() { _ = ServiceWire.restore(stored, into: &core, at: now) }
        }
        restoredSessionCount = core.sessions.count
        restored = Mutex(core)
        let inputs = DriverMailbox()
        self.inputs = inputs
        server = HTTPServer(configuration: configuration.http, router: Self.router(inputs: inputs, configuration: configuration))
    }

    /// A name for this process among those sharing a store: host, pid and a random part, so
    /// that a restarted process is a new one.
    static func newNodeName() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(name.isEmpty ? "host" : name)-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }

    /// Serves until ``shutdown()``.
    public func run() async throws {
        guard let core = restored.withLock({ state in defer { state = nil }; return state }) else { return }
        let driver = Driver(core: core, configuration: configuration)
        await driver.beat()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await driver.run(self.inputs) }
            if let shared = configuration.store as? any SharedSessionStore {
                group.addTask {
                    for await notice in shared.notices { self.inputs.yield(.store(notice)) }
                }
            }
            group.addTask {
                // The keep-alive check runs when the core's next deadline falls due (a participant
                // silent for two intervals is lost then, not up to a period later), and at least
                // every 250 ms: a deadline can only move later, or appear at least a hello timeout
                // or two keep-alives ahead.
                while !Task.isCancelled {
                    let wait = (await driver.nextDeadline()).map { $0 - GroupServer.wallClock() } ?? Self.tickPeriod
                    try? await Task.sleep(for: min(Self.tickPeriod, max(.milliseconds(1), wait + .milliseconds(1))))
                    self.inputs.yield(.tick)
                }
            }
            try await server.run()
            inputs.finish()
            (configuration.store as? any SharedSessionStore)?.close()
            group.cancelAll()
        }
    }

    /// The longest the keep-alive check waits.
    static let tickPeriod: Duration = .milliseconds(250)

    /// The port it listens on (once running).
    public func listeningPort() async throws -> Int { try await server.listeningPort() }

    /// Stops serving.
    public func shutdown() { server.shutdown() }

    /// The server's wall clock as a duration since the Unix epoch.
    static func wallClock() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    // MARK: - Routes

    private static func router(inputs: DriverMailbox, configuration: Configuration) -> HTTPRouter {
        var router = HTTPRouter()
        let webSocket = WebSocketConfiguration(
            maximumMessageBytes: configuration.maximumMessageBytes, sendQueueBytes: 1 << 20, receiveQueueMessages: 64,
            pingInterval: .seconds(15), pongTimeout: .seconds(10))
        // A browser page from an origin not allowed is refused at the handshake (403), before
        // anything of the session is spent on it.
        let admission: HTTPRouter.WebSocketAdmission = { request in
            guard let origin = request.foreignOrigin(allowing: configuration.allowedOrigins) else { return nil }
            configuration.log(ServiceLogEntry(at: wallClock(), session: "", event: "connection.refused", fields: ["code": "forbidden-origin", "origin": origin]).jsonLine)
            return .error(.forbidden, message: "origin \(origin) is not allowed (serve --allow-origin)")
        }
        router.webSocket("/group", configuration: webSocket, admission: admission) { connection in
            let id = Self.nextConnection.add(1, ordering: .relaxed).oldValue
            // The driver writes to the connection itself (never waiting on it). What it receives
            // goes straight from the service thread into the driver's mailbox (which only queues
            // it): no task wakes for each message; this one waits for the end.
            inputs.yield(.opened(id, connection))
            connection.deliver { message in
                switch message {
                case .text(let text): inputs.yield(.text(id, text))
                case .binary: inputs.yield(.binary(id))
                }
            }
            let close = await connection.closed
            if close.isLocal && close.code == .messageTooBig {
                // NetworkIO closed it with 1009 before the message was whole.
                inputs.yield(.tooBig(id, close.reason))
            }
            inputs.yield(.closed(id))
        }
        // The web view: a page, and the feed it opens (docs/group-protocol.md, "The web view").
        router.get("/view") { _ in
            HTTPResponse(headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"], body: Array(WebViewPage.html.utf8))
        }
        let feed = WebSocketConfiguration(maximumMessageBytes: 8 << 10, sendQueueBytes: 4 << 20, receiveQueueMessages: 16, pingInterval: .seconds(15), pongTimeout: .seconds(10))
        router.webSocket("/view/feed", configuration: feed, admission: admission) { connection in
            let id = Self.nextConnection.add(1, ordering: .relaxed).oldValue
            inputs.yield(.viewOpened(id, connection))
            do {
                for try await message in connection.messages {
                    guard case .text(let text) = message else {
                        inputs.yield(.viewText(id, "binary"))
                        continue
                    }
                    inputs.yield(.viewText(id, text))
                }
            } catch {}
            inputs.yield(.viewClosed(id))
        }
        if let path = configuration.echoPath {
            // 16 MiB messages, as Autobahn's limits cases (9.*) send.
            router.webSocket(path, configuration: WebSocketConfiguration(maximumMessageBytes: 16 << 20, sendQueueBytes: 32 << 20)) { connection in
                do {
                    for try await message in connection.messages { try await connection.send(message) }
                } catch {}
            }
        }
        router.post("/sessions") { request in
            await withCheckedContinuation { continuation in
                inputs.yield(.createSession(request, continuation))
            }
        }
        router.post("/sessions/:session/revocations") { request in
            await withCheckedContinuation { continuation in
                inputs.yield(.revoke(request, continuation))
            }
        }
        router.get("/metrics") { _ in
            await withCheckedContinuation { continuation in
                inputs.yield(.metrics(continuation))
            }
        }
        configuration.moreRoutes(&router)
        return router
    }

    enum DriverInput: Sendable {
        case opened(ServiceConnectionID, WebSocketConnection)
        case text(ServiceConnectionID, String)
        case binary(ServiceConnectionID)
        /// The transport closed the connection with 1009: a message over the limit.
        case tooBig(ServiceConnectionID, String)
        case closed(ServiceConnectionID)
        case tick
        case createSession(HTTPRequest, CheckedContinuation<HTTPResponse, Never>)
        case revoke(HTTPRequest, CheckedContinuation<HTTPResponse, Never>)
        case metrics(CheckedContinuation<HTTPResponse, Never>)
        /// What a shared store said (another process's change, a subscription, a reconnection).
        case store(SharedStoreNotice)
        /// A web view opened its feed, sent a message on it, closed it.
        case viewOpened(ServiceConnectionID, WebSocketConnection)
        case viewText(ServiceConnectionID, String)
        case viewClosed(ServiceConnectionID)
    }
}
