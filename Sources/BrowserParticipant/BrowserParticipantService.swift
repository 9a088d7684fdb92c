import Foundation
import GroupWire
import NetworkIO
import Synchronization

/// The browser participant of `interlude serve`: the page an invitation link opens
/// (`GET /join`, its script and style) and the socket it talks to (`/browser`), where each
/// connection gets a ``BrowserBridge`` that takes part in the group for it
/// (docs/browser-participant.md).
///
/// The bridges connect to the server's own `/group` over loopback, whose address is known once
/// the server listens: ``serverDidStart(groupURL:)`` tells it; until then `/browser` refuses.
public final class BrowserParticipantService: Sendable {
    /// How the service runs.
    public struct Configuration: Sendable {
        /// Browser origins allowed besides the server's own (`serve --allow-origin`).
        public var allowedOrigins: Set<String> = []
        /// The bridges' limits and intervals.
        public var bridge = BrowserBridgeStateMachine.Configuration()
        /// How often a bridge looks at its player.
        public var tickInterval: Duration = .milliseconds(100)
        /// TLS for a `wss://` loopback connection (the server's own certificate).
        public var tls: WebSocketClient.TLS?
        /// Where the JSON log lines go (the server's log).
        public var log: @Sendable (String) -> Void = { print($0) }

        /// The defaults.
        public init() {}
    }

    public let configuration: Configuration
    private let groupURL = Mutex<String?>(nil)

    /// A service; it refuses browsers until ``serverDidStart(groupURL:)``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The server listens: bridges connect to `groupURL` (`ws://127.0.0.1:PORT/group`).
    public func serverDidStart(groupURL url: String) {
        groupURL.withLock { $0 = url }
    }

    /// The routes: `GET /join`, `GET /join.js`, `GET /join.css`, the `/browser` socket.
    public func install(in router: inout HTTPRouter) {
        let headers: @Sendable (String) -> HTTPHeaders = { type in ["Content-Type": type, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"] }
        router.get("/join") { _ in HTTPResponse(headers: headers("text/html; charset=utf-8"), body: BrowserPage.html) }
        router.get("/join.js") { _ in HTTPResponse(headers: headers("text/javascript; charset=utf-8"), body: BrowserPage.script) }
        router.get("/join.css") { _ in HTTPResponse(headers: headers("text/css; charset=utf-8"), body: BrowserPage.style) }
        let allowed = configuration.allowedOrigins
        let log = configuration.log
        let admission: HTTPRouter.WebSocketAdmission = { [self] request in
            if let origin = request.foreignOrigin(allowing: allowed) {
                log(Self.logLine("browser.refused", ["code": "forbidden-origin", "origin": origin]))
                return .error(.forbidden, message: "origin \(origin) is not allowed (serve --allow-origin)")
            }
            guard groupURL.withLock({ $0 }) != nil else { return .error(.serviceUnavailable, message: "the server is starting; try again") }
            return nil
        }
        let socket = WebSocketConfiguration(
            maximumMessageBytes: BrowserPageMessage.maximumBytes, sendQueueBytes: 256 << 10, receiveQueueMessages: 16,
            pingInterval: .seconds(5), pongTimeout: .seconds(5))
        router.webSocket("/browser", configuration: socket, admission: admission) { [self] connection in
            guard let url = groupURL.withLock({ $0 }) else { return }
            let context = BrowserBridge.Context(
                groupURL: url, tls: configuration.tls, machine: configuration.bridge, tickInterval: configuration.tickInterval,
                log: { event, fields in log(Self.logLine(event, fields)) })
            log(Self.logLine("browser.opened", ["remote": connection.request.remoteAddress]))
            await BrowserBridge(connection: connection, context: context).run()
            log(Self.logLine("browser.closed", ["remote": connection.request.remoteAddress]))
        }
    }

    /// One JSON log line in the server's form: `time_ms`, `session` (empty), `event`, the fields
    /// as strings.
    static func logLine(_ event: String, _ fields: [String: String]) -> String {
        var object: WireObject = ["time_ms": .integer(Int64(BrowserBridge.serverTime() / .milliseconds(1))), "session": .string(fields["session"] ?? ""), "event": .string(event)]
        for key in fields.keys.sorted() where key != "session" { object[key] = .string(fields[key]!) }
        return WireValue.object(object).jsonText
    }
}
