internal import CLibWebSockets
import Glibc
import Synchronization

/// The service thread's side of a `ServiceLoop`: it creates the libwebsockets context, receives
/// every callback, owns every connection and carries out the commands other threads post.
/// Nothing here is thread-safe; nothing here is touched off the service thread.
final class LoopDriver {
    let loop: ServiceLoop
    let server: ServerSettings?
    private(set) var context: OpaquePointer?
    /// The libev loop the context runs on, created here and handed to lws as a foreign loop.
    private(set) var eventLoop: OpaquePointer?
    /// Where lws writes `NULL` once the context is completely destroyed (`info.pcontext`).
    private let contextSlot = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 1)
    /// The `void *` array lws reads the foreign loop from (`info.foreign_loops`).
    private let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var ownedStrings: [UnsafeMutablePointer<CChar>] = []
    /// Keep-alive and shutdown deadlines, and the libev timer armed for the earliest.
    private var timers = LoopTimers()
    private let eventTimer = UnsafeMutablePointer<interlude_ev_timer_t>.allocate(capacity: 1)
    /// Every live connection by id (they are also reachable from their wsi).
    var connections: [UInt64: LoopConnection] = [:]
    /// HTTP exchanges from request headers to the last response byte.
    var httpExchangesInFlight = 0
    /// WebSocket sessions, connecting or open.
    var webSocketSessions = 0
    private(set) var isDraining = false
    private var isStopRequested = false
    private(set) var isDestroyed = false
    /// Where responses and frames are assembled: `headroom` bytes for lws framing, then up to
    /// `sendChunkBytes + headReserveBytes` of payload. One buffer per thread, reused.
    let sendBuffer: UnsafeMutableRawPointer
    /// Where the gate peeks at a connection's first bytes (`gatePeekBytes`).
    let gatePeekBuffer: UnsafeMutableRawPointer
    private var dateCache: (second: Int, line: [UInt8]) = (-1, [])

    static let headroom = interlude_lws_pre()
    static let sendChunkBytes = 64 * 1024
    static let headReserveBytes = 16 * 1024
    static let primaryProtocolName = "interlude"

    private init(loop: ServiceLoop) {
        self.loop = loop
        if case .server(let settings) = loop.settings.role { server = settings } else { server = nil }
        sendBuffer = .allocate(byteCount: Self.headroom + Self.sendChunkBytes + Self.headReserveBytes, alignment: 16)
        gatePeekBuffer = .allocate(byteCount: Self.gatePeekBytes, alignment: 16)
        contextSlot.initialize(to: nil)
        foreignLoops.initialize(to: nil)
        eventTimer.initialize(to: interlude_ev_timer_t())
    }

    deinit {
        sendBuffer.deallocate()
        gatePeekBuffer.deallocate()
        contextSlot.deallocate()
        foreignLoops.deallocate()
        eventTimer.deallocate()
    }

    /// The body of a service thread: create the context, service it until it is destroyed,
    /// then release everything and report.
    static func runServiceThread(for loop: ServiceLoop) {
        configureLogging()
        let driver = LoopDriver(loop: loop)
        let unmanaged = Unmanaged.passRetained(driver)
        defer { unmanaged.release() }
        switch driver.createContext(user: unmanaged.toOpaque()) {
        case .failure(let error):
            driver.tearDown()
            loop.didFailToStart(error)
        case .success(let (context, port)):
            driver.schedule(.housekeeping, after: .seconds(1))
            loop.didStart(context: context, port: port)
            driver.serviceUntilDestroyed()
            driver.tearDown()
        }
        loop.didFinish()
    }

    /// The driver a wsi's context belongs to.
    static func driver(of wsi: OpaquePointer) -> LoopDriver? {
        guard let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
        return Unmanaged<LoopDriver>.fromOpaque(user).takeUnretainedValue()
    }

    /// libwebsockets logs errors only, unless `INTERLUDE_LWS_LOG` gives another mask
    /// (see `enum lws_log_levels`; 15 adds warnings, notices and info).
    private static func configureLogging() {
        var mask = Int32(LLL_ERR)
        if let text = getenv("INTERLUDE_LWS_LOG"), let value = Int32(String(cString: text)) { mask = value }
        lws_set_log_level(mask, nil)
    }

    private func own(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(string)!
        ownedStrings.append(copy)
        return copy
    }

    // MARK: Context life cycle

    /// lws's own idle checks (its "validity" pings and hang-ups) are off: NetworkIO keeps
    /// WebSockets alive itself (`WebSocketConfiguration.pingInterval`), and to keep its own lws
    /// re-sorts a timer list that holds every connection on each frame received (with 5,000
    /// connections, a sixth of a busy server's time). Never freed; lws reads it for the
    /// context's life.
    nonisolated(unsafe) private static let withoutIdleChecks: UnsafePointer<lws_retry_bo_t> = {
        let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        policy.initialize(to: lws_retry_bo_t())
        return UnsafePointer(policy)
    }()

    private func createContext(user: UnsafeMutableRawPointer) -> Result<(OpaquePointer, Int), NetworkIOError> {
        let subprotocols = server?.router.subprotocols ?? []
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: subprotocols.count + 2)
        protocols.initialize(repeating: lws_protocols(), count: subprotocols.count + 2)
        self.protocols = protocols
        let names = [Self.primaryProtocolName] + subprotocols
        for (index, name) in names.enumerated() {
            protocols[index].name = UnsafePointer(own(name))
            if index == 0 {
                protocols[index].callback = interludePrimaryProtocolCallback
            } else {
                protocols[index].callback = interludeSubprotocolCallback
            }
            protocols[index].id = UInt32(index)
            // lws reads at most this much per RECEIVE callback; messages are reassembled here.
            protocols[index].rx_buffer_size = 16 * 1024
            // Each write is at most one send chunk plus framing, so lws never splits it itself.
            protocols[index].tx_packet_size = Self.sendChunkBytes + Self.headReserveBytes + 16
        }

        guard let eventLoop = interlude_ev_loop_new() else {
            return .failure(.bindFailed(host: server?.configuration.host ?? "", port: server?.configuration.port ?? 0))
        }
        self.eventLoop = eventLoop
        foreignLoops.pointee = UnsafeMutableRawPointer(eventLoop)
        interlude_ev_timer_init(eventTimer, user, interludeLoopTimerFired)

        var info = lws_context_creation_info()
        info.foreign_loops = foreignLoops
        info.pcontext = contextSlot
        info.protocols = UnsafePointer(protocols)
        info.user = user
        info.options = interlude_option_libev() | interlude_option_validate_utf8()
        info.vhost_name = UnsafePointer(own("interlude"))
        info.pt_serv_buf_size = 32 * 1024
        info.retry_and_idle_policy = Self.withoutIdleChecks
        if let server {
            let configuration = server.configuration
            info.port = Int32(configuration.port)
            info.iface = UnsafePointer(own(configuration.host))
            info.options |= interlude_option_fail_upon_unable_to_bind() | interlude_option_fallback_to_listen_accept_config()
            info.listen_accept_role = UnsafePointer(own("raw-skt"))
            info.listen_accept_protocol = UnsafePointer(own(Self.primaryProtocolName))
            if Self.isIPv4Literal(configuration.host) { info.options |= interlude_option_disable_ipv6() }
            info.keepalive_timeout = Int32(max(1, configuration.keepAliveTimeout.components.seconds))
            // Room for a head larger than HTTPRequestCheck accepts, so one over its limits is
            // answered 414 or 431 rather than closed by lws for want of space.
            info.max_http_header_data = 60 * 1024
        } else {
            info.port = CONTEXT_PORT_NO_LISTEN
        }
        if let error = configureTLS(&info, own: own) { return .failure(error) }
        let created = Self.createContext(&info)
        guard let context = created else {
            return .failure(.bindFailed(host: server?.configuration.host ?? "", port: server?.configuration.port ?? 0))
        }
        self.context = context
        contextSlot.pointee = context
        var port = 0
        if server != nil, let vhost = lws_get_vhost_by_name(context, "interlude") {
            port = Int(lws_get_vhost_listen_port(vhost))
        }
        return .success((context, port))
    }

    private static func isIPv4Literal(_ host: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// Runs the libev loop until lws reports the context completely destroyed.
    private func serviceUntilDestroyed() {
        guard let eventLoop else { return }
        var finalisations = 0
        while contextSlot.pointee != nil {
            if interlude_ev_run_once(eventLoop) == 0, let context = contextSlot.pointee {
                // No watcher is left yet the context is not gone: start or finish the
                // destruction outside any callback (or, if lws never reports it, stop waiting).
                if !isDestroyed {
                    destroyContext()
                    continue
                }
                guard finalisations < 2 else { break }
                finalisations += 1
                lws_context_destroy(context)
            }
        }
    }

    /// Destroys the context, once, from inside the loop (dependencies.md §1: destroying wakes
    /// the loop again, hence the flag).
    private func destroyContext() {
        guard !isDestroyed, let context else { return }
        isDestroyed = true
        for command in loop.stopAcceptingCommands() { dropCommand(command) }
        if let eventLoop { interlude_ev_timer_stop(eventLoop, eventTimer) }
        lws_context_destroy(context)
        self.context = nil
    }

    /// Releases what the context used, after it is gone, and fails what is still waiting.
    private func tearDown() {
        context = nil
        if let eventLoop {
            interlude_ev_timer_stop(eventLoop, eventTimer)
            interlude_ev_loop_destroy(eventLoop)
        }
        eventLoop = nil
        for command in loop.stopAcceptingCommands() { dropCommand(command) }
        for connection in connections.values {
            if let session = connection.webSocket { finishSession(session, of: connection) }
        }
        connections.removeAll()
        server?.events.finish()
        if let protocols {
            protocols.deinitialize(count: (server?.router.subprotocols.count ?? 0) + 2)
            protocols.deallocate()
        }
        protocols = nil
        for string in ownedStrings { free(string) }
        ownedStrings = []
    }

    /// A command that arrived too late to be carried out.
    private func dropCommand(_ command: LoopCommand) {
        if case .connect(let request) = command {
            request.connection.loopDidClose(
                WebSocketClose(code: .abnormalClosure, reason: "the client has stopped", isLocal: true),
                endsCleanly: false
            )
        }
    }

    // MARK: Shutdown

    private func beginShutdown(gracePeriod: Duration) {
        guard !isDraining, context != nil else { return }
        isDraining = true
        schedule(.drainDeadline, after: gracePeriod)
        for connection in connections.values {
            guard let session = connection.webSocket, let wsi = connection.wsi else { continue }
            if session.isEstablished {
                if session.connection.loopRequestClose(code: .goingAway, reason: "shutting down") {
                    lws_callback_on_writable(wsi)
                }
            }
        }
        checkDrained()
    }

    /// Stops once nothing is in flight while draining.
    func checkDrained() {
        if isDraining, httpExchangesInFlight == 0, webSocketSessions == 0 { requestStop() }
    }

    // MARK: Timers

    /// Adds a deadline, re-arming the libev timer when it is the new earliest.
    func schedule(_ kind: LoopTimers.Kind, after delay: Duration) {
        let deadline = ContinuousClock.now + delay
        let previous = timers.earliest
        timers.insert(LoopTimers.Entry(deadline: deadline, kind: kind))
        if previous.map({ deadline < $0 }) ?? true { armTimer() }
    }

    private func armTimer() {
        guard let eventLoop, let earliest = timers.earliest else { return }
        let delay = earliest - ContinuousClock.now
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        interlude_ev_timer_arm(eventLoop, eventTimer, max(0, seconds))
    }

    /// The libev timer fired: run every due deadline, then re-arm for the next.
    func timersFired() {
        guard !isDestroyed else { return }
        let now = ContinuousClock.now
        while let entry = timers.popDue(at: now) {
            switch entry.kind {
            case .drainDeadline:
                requestStop()
            case .housekeeping:
                if let context { lws_cancel_service(context) }
                schedule(.housekeeping, after: .seconds(1))
            case .keepAlive(let id, let generation):
                keepAliveDeadlinePassed(connectionID: id, generation: generation)
            }
        }
        armTimer()
    }

    private func requestStop() {
        guard !isStopRequested, let context else { return }
        isStopRequested = true
        lws_cancel_service(context)
    }

    // MARK: Callbacks

    func handle(
        _ wsi: OpaquePointer,
        _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            processCommands()
            if isStopRequested { destroyContext() }
            return 0
        case LWS_CALLBACK_HTTP:
            return onHTTPRequest(wsi)
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
            startGate(wsi)
            return 0
        case LWS_CALLBACK_RAW_RX:
            return onUnparsableRequest(wsi, input, length)
        case LWS_CALLBACK_HTTP_BODY:
            return onHTTPBody(wsi, input, length)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return onHTTPBodyCompletion(wsi)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return onHTTPWritable(wsi)
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return onConfirmUpgrade(wsi, input, length)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return onFilterWebSocket(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            return onServerWebSocketEstablished(wsi)
        case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH:
            onClientHandshakeResponse(wsi)
            return 0
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            return onClientWebSocketEstablished(wsi)
        case LWS_CALLBACK_RECEIVE, LWS_CALLBACK_CLIENT_RECEIVE:
            return onWebSocketReceive(wsi, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE, LWS_CALLBACK_CLIENT_WRITEABLE:
            return onWebSocketWritable(wsi)
        case LWS_CALLBACK_RECEIVE_PONG, LWS_CALLBACK_CLIENT_RECEIVE_PONG:
            onWebSocketPong(wsi)
            return 0
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            onWebSocketPeerClose(wsi, input, length)
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            onClientConnectionError(wsi, input, length)
            return 0
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            return onClientAppendHeaders(wsi, input, length)
        case LWS_CALLBACK_CLOSED, LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_RAW_CLOSE, LWS_CALLBACK_WSI_DESTROY:
            release(wsi)
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func processCommands() {
        for command in loop.takeCommands() {
            switch command {
            case .respond(let id, let response, let error):
                guard let connection = connections[id], let wsi = connection.wsi,
                      let exchange = connection.exchange, exchange.isAwaitingHandler else { continue }
                exchange.isAwaitingHandler = false
                resumeReceiving(exchange, wsi)
                exchange.output = makeOutput(response, for: exchange, error: error)
                // Write the first chunk now rather than after another turn of the loop: this
                // wsi is not the one being serviced, so it may be closed here if it must be.
                if lws_send_pipe_choked(wsi) != 0 {
                    lws_callback_on_writable(wsi)
                } else if writeHTTP(connection, wsi) != 0 {
                    interlude_close_now(wsi)
                }
            case .webSocketWritable(let id):
                guard let connection = connections[id], let wsi = connection.wsi,
                      connection.webSocket?.isEstablished == true else { continue }
                lws_callback_on_writable(wsi)
            case .webSocketResumeReceiving(let id):
                guard let connection = connections[id], let wsi = connection.wsi else { continue }
                lws_rx_flow_control(wsi, 1)
            case .connect(let request):
                openClientConnection(request)
            case .shutdown(let gracePeriod):
                beginShutdown(gracePeriod: gracePeriod)
            }
        }
    }

    // MARK: Connections

    /// The connection a wsi carries, created on first sight.
    func connection(for wsi: OpaquePointer) -> LoopConnection {
        if let existing = existingConnection(for: wsi) { return existing }
        let connection = LoopConnection(id: ConnectionID.next(), wsi: wsi)
        connections[connection.id] = connection
        lws_set_opaque_user_data(wsi, Unmanaged.passUnretained(connection).toOpaque())
        server?.statistics.openConnections.add(1, ordering: .relaxed)
        return connection
    }

    func existingConnection(for wsi: OpaquePointer) -> LoopConnection? {
        guard let raw = lws_get_opaque_user_data(wsi) else { return nil }
        let connection = Unmanaged<LoopConnection>.fromOpaque(raw).takeUnretainedValue()
        if connection.wsi == nil { connection.wsi = wsi }
        return connection
    }

    /// The wsi is closing: forget it, fail or finish what it carried. Idempotent.
    func release(_ wsi: OpaquePointer) {
        guard let connection = detach(wsi) else { return }
        if let exchange = connection.exchange {
            exchange.output?.body.closeFile()
            exchange.output = nil
            httpExchangesInFlight -= 1
            connection.exchange = nil
        }
        if let session = connection.webSocket { finishSession(session, of: connection) }
        checkDrained()
    }

    /// Unties the wsi from its connection, which is forgotten; lws's later callbacks for the wsi
    /// find nothing. Returns the connection, or nil when it was untied already.
    func detach(_ wsi: OpaquePointer) -> LoopConnection? {
        guard let connection = existingConnection(for: wsi) else { return nil }
        stopGate(connection)
        lws_set_opaque_user_data(wsi, nil)
        connection.wsi = nil
        connections[connection.id] = nil
        server?.statistics.openConnections.subtract(1, ordering: .relaxed)
        return connection
    }

    /// Reports how a WebSocket ended and stops counting it.
    func finishSession(_ session: WebSocketSession, of connection: LoopConnection) {
        connection.webSocket = nil
        webSocketSessions -= 1
        if session.isEstablished, !session.isClient {
            server?.statistics.openWebSockets.subtract(1, ordering: .relaxed)
        }
        let (close, endsCleanly) = session.outcome
        session.connection.loopDidClose(close, endsCleanly: endsCleanly)
    }

    // MARK: Helpers

    /// The `Date` header line for now (`Date: …\r\n`), formatted once per second (RFC 9110 §5.6.7).
    func httpDateLine() -> [UInt8] {
        let now = time(nil)
        if now == dateCache.second { return dateCache.line }
        var seconds = now
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let value = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        dateCache = (now, Array("Date: \(value)\r\n".utf8))
        return dateCache.line
    }

    /// The peer's address, looked up on the connection's first request and kept for the others
    /// (it cannot change while the connection lasts; the look-up is a system call).
    func remoteAddress(of connection: LoopConnection, _ wsi: OpaquePointer) -> String {
        if let known = connection.remoteAddress { return known }
        let address = Self.remoteAddress(of: wsi)
        connection.remoteAddress = address
        return address
    }

    /// The peer's address.
    static func remoteAddress(of wsi: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard let text = lws_get_peer_simple(wsi, buffer.baseAddress, 64) else { return "" }
            return String(cString: text)
        }
    }

    /// A header (or other token) copied out of the wsi's header table.
    static func header(_ token: lws_token_indexes, of wsi: OpaquePointer) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            guard lws_hdr_copy(wsi, buffer.baseAddress, Int32(length + 1), token) >= 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: length), as: UTF8.self)
        }
    }
}
