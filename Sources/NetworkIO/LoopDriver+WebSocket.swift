internal import CLibWebSockets
import Glibc
import Synchronization

/// WebSockets on the service thread, server and client alike: messages are reassembled up to
/// the size limit, written in fragments of at most `sendChunkBytes` (one `lws_write` per writable
/// callback), kept alive with pings on the connection's lws timer, and closed with codes.
extension LoopDriver {
    // MARK: Server handshake

    func onConfirmUpgrade(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let server else { return -1 }
        let connection = connection(for: wsi)
        let path = Self.header(WSI_TOKEN_GET_URI, of: wsi) ?? "/"
        let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        guard upgrade.lowercased() == "websocket" else {
            return refuseUpgrade(.error(.badRequest, message: "cannot upgrade to \(upgrade)"), on: wsi, path: path)
        }
        guard !isDraining else {
            return refuseUpgrade(.error(.serviceUnavailable, message: "the server is shutting down"), on: wsi, path: path)
        }
        guard let (route, parameters) = server.router.matchWebSocket(path: path) else {
            return refuseUpgrade(.error(.notFound, message: "no WebSocket endpoint at \(path)"), on: wsi, path: path)
        }
        let request = HTTPRequest(
            method: .get,
            path: path,
            queryItems: Self.queryItems(of: wsi),
            headers: Self.requestHeaders(of: wsi),
            pathParameters: parameters,
            remoteAddress: Self.remoteAddress(of: wsi)
        )
        if let refusal = route.admission?(request) {
            return refuseUpgrade(refusal, on: wsi, path: path)
        }
        connection.pendingUpgrade = (route, request)
        return 0
    }

    func onFilterWebSocket(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = existingConnection(for: wsi), let upgrade = connection.pendingUpgrade else { return 1 }
        if let required = upgrade.route.subprotocol, required != Self.chosenSubprotocol(of: wsi) {
            connection.pendingUpgrade = nil
            return 1
        }
        return 0
    }

    func onServerWebSocketEstablished(_ wsi: OpaquePointer) -> Int32 {
        guard let server, let connection = existingConnection(for: wsi), let upgrade = connection.pendingUpgrade else {
            return -1
        }
        connection.pendingUpgrade = nil
        let configuration = upgrade.route.configuration ?? server.configuration.webSocket
        let webSocket = WebSocketConnection(
            id: connection.id,
            loop: loop,
            request: upgrade.request,
            subprotocol: Self.chosenSubprotocol(of: wsi),
            configuration: configuration,
            isOpen: true
        )
        let session = WebSocketSession(connection: webSocket, isClient: false)
        session.isEstablished = true
        connection.webSocket = session
        webSocketSessions += 1
        server.statistics.openWebSockets.add(1, ordering: .relaxed)
        scheduleKeepAlive(session, wsi)
        server.events.send(.webSocket(webSocket, handler: upgrade.route.handler))
        return 0
    }

    private static func chosenSubprotocol(of wsi: OpaquePointer) -> String? {
        guard let selected = lws_get_protocol(wsi), selected.pointee.id != 0, let name = selected.pointee.name else { return nil }
        return String(cString: name)
    }

    // MARK: Client handshake

    func openClientConnection(_ request: WebSocketClientRequest, tlsRetries: Int = 0) {
        guard let context, !isDraining else {
            request.connection.loopDidClose(
                WebSocketClose(code: .abnormalClosure, reason: "the client is shutting down", isLocal: true),
                endsCleanly: false
            )
            return
        }
        let connection = LoopConnection(id: request.connection.id, wsi: nil)
        let session = WebSocketSession(connection: request.connection, isClient: true)
        session.clientRequest = request
        session.tlsGeneration = Self.tlsIndexGeneration.load(ordering: .sequentiallyConsistent)
        session.tlsRetries = tlsRetries
        connection.webSocket = session
        connections[connection.id] = connection
        webSocketSessions += 1
        func own(_ string: String) -> UnsafePointer<CChar> {
            let copy = strdup(string)!
            connection.ownedStrings.append(copy)
            return UnsafePointer(copy)
        }
        var info = lws_client_connect_info()
        info.context = context
        info.address = own(request.target.host)
        info.port = Int32(request.target.port)
        info.path = own(request.target.pathAndQuery)
        info.host = own(request.target.hostHeader)
        info.origin = own(request.target.hostHeader)
        info.protocol = request.subprotocols.isEmpty ? nil : own(request.subprotocols.joined(separator: ", "))
        info.local_protocol_name = own(Self.primaryProtocolName)
        info.ssl_connection = clientTLSFlags(for: request.target)
        if request.target.isSecure { info.alpn = own("http/1.1") }
        info.opaque_user_data = Unmanaged.passUnretained(connection).toOpaque()
        let wsi = lws_client_connect_via_info(&info)
        if let wsi, connections[connection.id] != nil {
            connection.wsi = wsi
        } else if connections[connection.id] != nil {
            // lws refused synchronously without a CLIENT_CONNECTION_ERROR.
            connections[connection.id] = nil
            session.record(WebSocketClose(code: .abnormalClosure, reason: "cannot connect to \(request.target.hostHeader)", isLocal: false), endsCleanly: false)
            finishSession(session, of: connection)
            checkDrained()
        }
    }

    func onClientAppendHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let connection = existingConnection(for: wsi), let request = connection.webSocket?.clientRequest,
              !request.headers.isEmpty, let input else { return 0 }
        let cursor = input.assumingMemoryBound(to: UnsafeMutablePointer<CChar>.self)
        var text = ""
        for field in request.headers { text += "\(field.name): \(field.value)\r\n" }
        let bytes = Array(text.utf8)
        guard bytes.count < length else { return -1 }
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(cursor.pointee).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        cursor.pointee += bytes.count
        return 0
    }

    /// The server's handshake response is in; its headers are still readable here (not later).
    func onClientHandshakeResponse(_ wsi: OpaquePointer) {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket else { return }
        session.agreedSubprotocol = Self.header(WSI_TOKEN_PROTOCOL, of: wsi)
    }

    func onClientWebSocketEstablished(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket else { return -1 }
        session.isEstablished = true
        session.clientRequest = nil
        if session.connection.loopDidOpen(subprotocol: session.agreedSubprotocol) { lws_callback_on_writable(wsi) }
        scheduleKeepAlive(session, wsi)
        if isDraining, session.connection.loopRequestClose(code: .goingAway, reason: "shutting down") {
            lws_callback_on_writable(wsi)
        }
        return 0
    }

    func onClientConnectionError(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket else { return }
        if retriesTLSHandshake(session), let request = session.clientRequest {
            // Forget this attempt without reporting it, then start another for the same request.
            _ = detach(wsi)
            connection.webSocket = nil
            webSocketSessions -= 1
            openClientConnection(request, tlsRetries: session.tlsRetries + 1)
            return
        }
        let reason = certificateRefusal(of: wsi)
            ?? input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
        session.record(WebSocketClose(code: .abnormalClosure, reason: reason, isLocal: false), endsCleanly: false)
        release(wsi)
    }

    // MARK: Receiving

    func onWebSocketReceive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket else { return -1 }
        if !session.isAssembling {
            session.isAssembling = true
            session.assemblyIsBinary = lws_frame_is_binary(wsi) != 0
            session.assembly = []
        }
        let limit = session.connection.configuration.maximumMessageBytes
        guard session.assembly.count + length <= limit else {
            session.assembly = []
            return closeForPolicy(session, wsi, code: .messageTooBig, reason: "message exceeds \(limit) bytes")
        }
        if let input, length > 0 {
            session.assembly.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        session.isAssembling = false
        let bytes = session.assembly
        session.assembly = []
        let message: WebSocketMessage = session.assemblyIsBinary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self))
        if session.connection.loopDeliver(message) { lws_rx_flow_control(wsi, 0) }
        return 0
    }

    /// Closes because of this side's policy (a message too big): the close frame carries `code`,
    /// and the reader's `messages` throws.
    private func closeForPolicy(_ session: WebSocketSession, _ wsi: OpaquePointer, code: WebSocketCloseCode, reason: String) -> Int32 {
        session.record(WebSocketClose(code: code, reason: reason, isLocal: true), endsCleanly: false)
        setCloseReason(wsi, code: code, reason: reason)
        return -1
    }

    private func setCloseReason(_ wsi: OpaquePointer, code: WebSocketCloseCode, reason: String) {
        var bytes = Array(WebSocketConnection.truncated(reason, toUTF8Bytes: 123).utf8)
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code.rawValue)), &bytes, bytes.count)
    }

    func onWebSocketPeerClose(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket else { return }
        var code = WebSocketCloseCode.noStatusReceived
        var reason = ""
        if let input, length >= 2 {
            let bytes = UnsafeRawBufferPointer(start: input, count: length)
            code = WebSocketCloseCode(rawValue: UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
            reason = String(decoding: bytes[2...], as: UTF8.self)
        }
        let isNormal = code == .normalClosure || code == .goingAway || code == .noStatusReceived
        session.record(WebSocketClose(code: code, reason: reason, isLocal: false), endsCleanly: isNormal)
    }

    // MARK: Writing

    func onWebSocketWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket, session.isEstablished else {
            return 0
        }
        let base = sendBuffer + Self.headroom
        if session.current == nil {
            if session.isPingDue {
                session.isPingDue = false
                // A small payload: some peers (and lws itself) treat an empty write as nothing to send.
                let payload: [UInt8] = Array("interlude".utf8)
                payload.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                guard lws_write(wsi, base.assumingMemoryBound(to: UInt8.self), payload.count, LWS_WRITE_PING) >= 0 else {
                    return -1
                }
                lws_callback_on_writable(wsi)
                return 0
            }
            if let close = session.connection.loopPendingClose() {
                session.record(WebSocketClose(code: close.code, reason: close.reason, isLocal: true), endsCleanly: true)
                setCloseReason(wsi, code: close.code, reason: close.reason)
                return -1
            }
            guard let message = session.connection.loopTakeOutgoing() else { return 0 }
            session.current = WebSocketSession.OutgoingFrame(message: message)
        }
        guard var frame = session.current else { return 0 }
        let total = frame.message.byteCount
        let count = min(Self.sendChunkBytes, total - frame.offset)
        let isBinary: Bool
        switch frame.message {
        case .binary(let bytes):
            isBinary = true
            bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + frame.offset, byteCount: count) }
        case .text(var text):
            isBinary = false
            text.withUTF8 { base.copyMemory(from: UnsafeRawPointer($0.baseAddress!) + frame.offset, byteCount: count) }
        }
        let isFirst = frame.offset == 0
        frame.offset += count
        let isLast = frame.offset == total
        var kind = isFirst ? (isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) : LWS_WRITE_CONTINUATION
        if !isLast { kind = lws_write_protocol(rawValue: kind.rawValue | LWS_WRITE_NO_FIN.rawValue) }
        guard lws_write(wsi, base.assumingMemoryBound(to: UInt8.self), count, kind) >= 0 else { return -1 }
        session.current = isLast ? nil : frame
        // Ask again even when this was the last fragment: the next callback takes the next
        // message, or finds the queue empty and lets the next `send` wake the loop.
        lws_callback_on_writable(wsi)
        return 0
    }

    // MARK: Keep-alive

    /// Starts (or restarts) the wait for the next ping.
    func scheduleKeepAlive(_ session: WebSocketSession, _ wsi: OpaquePointer) {
        guard let interval = session.connection.configuration.pingInterval else { return }
        session.keepAlive = .idle
        session.keepAliveGeneration += 1
        schedule(.keepAlive(connectionID: session.connection.id, generation: session.keepAliveGeneration), after: interval)
    }

    /// A keep-alive deadline passed: time to ping, or the pong is overdue and the peer is dead.
    /// Runs from the loop's timer, outside any lws callback.
    func keepAliveDeadlinePassed(connectionID: UInt64, generation: UInt64) {
        guard let connection = connections[connectionID], let wsi = connection.wsi, let session = connection.webSocket,
              session.isEstablished, session.keepAliveGeneration == generation,
              let interval = session.connection.configuration.pingInterval else { return }
        let timeout = session.connection.configuration.pongTimeout
        switch session.keepAlive {
        case .idle:
            session.keepAliveGeneration += 1
            let next = LoopTimers.Kind.keepAlive(connectionID: connectionID, generation: session.keepAliveGeneration)
            if session.connection.isReceivingPaused {
                // Not reading, so a pong could not be seen: the backlog is proof of life enough.
                schedule(next, after: interval)
                return
            }
            session.keepAlive = .awaitingPong
            session.isPingDue = true
            lws_callback_on_writable(wsi)
            schedule(next, after: timeout)
        case .awaitingPong:
            // A dead peer will not acknowledge a close frame either: drop the connection at once.
            session.record(WebSocketClose(code: .abnormalClosure, reason: "no pong within \(timeout)", isLocal: true), endsCleanly: false)
            interlude_close_now(wsi)
        }
    }

    func onWebSocketPong(_ wsi: OpaquePointer) {
        guard let connection = existingConnection(for: wsi), let session = connection.webSocket,
              session.keepAlive == .awaitingPong else { return }
        session.connection.loopDidReceivePong()
        scheduleKeepAlive(session, wsi)
    }
}
