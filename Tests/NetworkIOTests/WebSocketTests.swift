import Foundation
import NetworkIO
import Synchronization
import Testing

@Suite("WebSocket over loopback")
struct WebSocketTests {
    /// Echoes every message back, then reports how the connection ended and whether `messages`
    /// finished normally.
    private static func echoRouter(
        configuration: WebSocketConfiguration? = nil,
        ended: Signal<(WebSocketClose, threw: Bool)>? = nil,
        opened: Signal<WebSocketConnection>? = nil
    ) -> HTTPRouter {
        var router = HTTPRouter()
        router.webSocket("/ws", configuration: configuration) { connection in
            opened?.send(connection)
            var threw = false
            do {
                for try await message in connection.messages { try await connection.send(message) }
            } catch {
                threw = true
            }
            ended?.send((await connection.closed, threw))
        }
        return router
    }

    @Test("text and binary messages echo back in order, large ones fragmented and reassembled")
    func echo() async throws {
        let ended = Signal<(WebSocketClose, threw: Bool)>()
        try await withServer(Self.echoRouter(ended: ended)) { _, port in
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
            let large = (0..<(1 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let longText = String(repeating: "día ✓ ", count: 40_000)
            let messages: [WebSocketMessage] = [.text("hello"), .binary([0, 1, 2, 255]), .binary(large), .text(longText), .text("")]
            for message in messages { try await client.send(message) }
            for message in messages {
                let received = try await withTimeout { try await client.receive() }
                #expect(received == message)
            }
            let close = await client.close()
            #expect(close == WebSocketClose(code: .normalClosure, reason: "", isLocal: true))
            let (serverClose, threw) = try await withTimeout { await ended.value }
            #expect(serverClose.code == .normalClosure)
            #expect(!serverClose.isLocal)
            #expect(!threw)
            await #expect(throws: WebSocketError.closed(close)) { try await client.send(.text("late")) }
        }
    }

    @Test("200 clients at once each get their own echo, and the server frees every connection")
    func manyClients() async throws {
        try await withServer(Self.echoRouter()) { server, port in
            let echoed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
                        try await client.send(.text("client \(index)"))
                        let reply = try await client.receive()
                        await client.close()
                        return reply == .text("client \(index)")
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(echoed == 200)
            #expect(try await eventually { server.openWebSocketCount == 0 && server.openConnectionCount == 0 })
        }
    }

    @Test("ping/pong keeps a quiet connection alive, in both directions")
    func pingPong() async throws {
        let keepAlive = WebSocketConfiguration(pingInterval: .milliseconds(50), pongTimeout: .seconds(10))
        let opened = Signal<WebSocketConnection>()
        try await withServer(Self.echoRouter(configuration: keepAlive, opened: opened)) { _, port in
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws", configuration: keepAlive)
            let serverSide = try await withTimeout { await opened.value }
            #expect(try await eventually { serverSide.pongCount >= 3 }, "server saw \(serverSide.pongCount) pongs")
            #expect(try await eventually { client.pongCount >= 3 }, "client saw \(client.pongCount) pongs")
            #expect(serverSide.closeStatus == nil)
            #expect(client.closeStatus == nil)
            try await client.send(.text("still here"))
            #expect(try await client.receive() == .text("still here"))
            await client.close()
        }
    }

    @Test("a peer that stops answering pings is dropped after the pong timeout")
    func deadPeer() async throws {
        let keepAlive = WebSocketConfiguration(pingInterval: .milliseconds(100), pongTimeout: .milliseconds(300))
        let ended = Signal<(WebSocketClose, threw: Bool)>()
        try await withServer(Self.echoRouter(configuration: keepAlive, ended: ended)) { server, port in
            let socket = try await blocking { () -> RawSocket in
                let socket = try RawSocket(port: port)
                let head = try socket.upgradeToWebSocket(path: "/ws")
                #expect(head.hasPrefix("HTTP/1.1 101"))
                return socket
            }
            // The raw socket reads nothing and answers no ping.
            let (close, threw) = try await withTimeout { await ended.value }
            #expect(close.code == .abnormalClosure)
            #expect(close.isLocal)
            #expect(close.reason.contains("no pong"))
            #expect(threw)
            #expect(try await eventually { server.openWebSocketCount == 0 })
            withExtendedLifetime(socket) {}
        }
    }

    @Test("a client that vanishes without a close frame is noticed and freed")
    func abruptDisconnect() async throws {
        let opened = Signal<WebSocketConnection>()
        let ended = Signal<(WebSocketClose, threw: Bool)>()
        try await withServer(Self.echoRouter(ended: ended, opened: opened)) { server, port in
            let socket = try await blocking { () -> RawSocket in
                let socket = try RawSocket(port: port)
                _ = try socket.upgradeToWebSocket(path: "/ws")
                return socket
            }
            _ = try await withTimeout { await opened.value }
            #expect(server.openWebSocketCount == 1)
            socket.abort()
            let (close, threw) = try await withTimeout { await ended.value }
            #expect(close.code == .abnormalClosure)
            #expect(!close.isLocal)
            #expect(threw)
            #expect(try await eventually { server.openWebSocketCount == 0 && server.openConnectionCount == 0 })
        }
    }

    @Test("a message over the size limit is refused with close code 1009, seen on both sides")
    func oversizedMessage() async throws {
        let limited = WebSocketConfiguration(maximumMessageBytes: 1024)
        let ended = Signal<(WebSocketClose, threw: Bool)>()
        try await withServer(Self.echoRouter(configuration: limited, ended: ended)) { _, port in
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
            let fits = [UInt8](repeating: 7, count: 1024)
            try await client.send(.binary(fits))
            #expect(try await client.receive() == .binary(fits))
            try await client.send(.binary([UInt8](repeating: 8, count: 2048)))
            let failure = await #expect(throws: WebSocketError.self) { try await withTimeout { try await client.receive() } }
            guard case .closed(let close) = failure else {
                Issue.record("expected a close, got \(String(describing: failure))")
                return
            }
            #expect(close.code == .messageTooBig)
            #expect(!close.isLocal)
            #expect(await client.closed == close)
            let (serverClose, threw) = try await withTimeout { await ended.value }
            #expect(serverClose.code == .messageTooBig)
            #expect(serverClose.isLocal)
            #expect(threw)
        }
    }

    @Test("a slow reader makes send suspend at the queue bound instead of buffering without limit")
    func backPressure() async throws {
        let messageBytes = 256 * 1024
        let total = 200
        let serverConfiguration = WebSocketConfiguration(receiveQueueMessages: 4, pingInterval: nil)
        let clientConfiguration = WebSocketConfiguration(sendQueueBytes: 1 << 20, pingInterval: nil)
        let opened = Signal<WebSocketConnection>()
        let startReading = Signal<Void>()
        var router = HTTPRouter()
        router.webSocket("/slow", configuration: serverConfiguration) { connection in
            opened.send(connection)
            await startReading.value
            var count = 0
            for try await message in connection.messages {
                guard case .binary(let bytes) = message, bytes.count == messageBytes,
                      bytes.first == UInt8(truncatingIfNeeded: count) else { break }
                count += 1
                if count == total { break }
            }
            try await connection.send(.text("\(count)"))
        }
        try await withServer(router) { _, port in
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/slow", configuration: clientConfiguration)
            let sent = Counter()
            let sender = Task {
                for index in 0..<total {
                    try await client.send(.binary([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: messageBytes)))
                    sent.increment()
                }
            }
            let serverSide = try await withTimeout { await opened.value }
            #expect(try await eventually { client.blockedSenderCount == 1 && serverSide.isReceivingPaused })
            #expect(sent.value < total)
            #expect(client.queuedSendBytes <= 1 << 20)
            startReading.send(())
            try await withTimeout { try await sender.value }
            #expect(sent.value == total)
            #expect(try await withTimeout { try await client.receive() } == .text("\(total)"))
            await client.close()
        }
    }

    @Test("a sink takes over the received messages: those that waited first, in order, then the rest as they come, and reading paused at the queue bound resumes")
    func sinkDelivery() async throws {
        let total = 300
        let configuration = WebSocketConfiguration(receiveQueueMessages: 4, pingInterval: nil)
        let opened = Signal<WebSocketConnection>()
        let handOver = Signal<Void>()
        let received = Mutex<[String]>([])
        let ended = Signal<WebSocketClose>()
        var router = HTTPRouter()
        router.webSocket("/sink", configuration: configuration) { connection in
            opened.send(connection)
            await handOver.value
            connection.deliver { message in
                guard case .text(let text) = message else { return }
                received.withLock { $0.append(text) }
            }
            ended.send(await connection.closed)
        }
        try await withServer(router) { _, port in
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/sink")
            let sender = Task {
                for index in 0..<total { try await client.send(.text("\(index)")) }
            }
            let serverSide = try await withTimeout { await opened.value }
            // Nobody reads yet: the server stops reading at its queue bound.
            #expect(try await eventually { serverSide.isReceivingPaused })
            handOver.send(())
            try await withTimeout { try await sender.value }
            #expect(try await eventually { received.withLock { $0.count } == total })
            #expect(received.withLock { $0 } == (0..<total).map { "\($0)" })
            await client.close()
            #expect(try await withTimeout { await ended.value }.code == .normalClosure)
        }
    }

    @Test("close codes and reasons are observed on both sides, whichever side closes")
    func closeCodes() async throws {
        let ended = Signal<(WebSocketClose, threw: Bool)>()
        var router = HTTPRouter()
        router.webSocket("/ws") { connection in
            var threw = false
            do {
                for try await message in connection.messages where message == .text("close please") {
                    await connection.close(code: WebSocketCloseCode(rawValue: 4001), reason: "asked to")
                }
            } catch {
                threw = true
            }
            ended.send((await connection.closed, threw))
        }
        try await withServer(router) { _, port in
            // The server closes with an application code: the client's reader throws with it.
            let first = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
            try await first.send(.text("close please"))
            await #expect(throws: WebSocketError.closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "asked to", isLocal: false))) {
                try await withTimeout { try await first.receive() }
            }
            let (serverClose, serverThrew) = try await withTimeout { await ended.value }
            #expect(serverClose == WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "asked to", isLocal: true))
            #expect(!serverThrew)
        }
        let goingAway = Signal<(WebSocketClose, threw: Bool)>()
        try await withServer(Self.echoRouter(ended: goingAway)) { _, port in
            // The client goes away: the server's reader finishes normally and sees 1001 and the reason.
            let second = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
            let close = await second.close(code: .goingAway, reason: "navigating away")
            #expect(close == WebSocketClose(code: .goingAway, reason: "navigating away", isLocal: true))
            let (serverClose, threw) = try await withTimeout { await goingAway.value }
            #expect(serverClose == WebSocketClose(code: .goingAway, reason: "navigating away", isLocal: false))
            #expect(!threw)
        }
    }

    @Test("shutting the server down closes its WebSockets with 1001")
    func serverShutdown() async throws {
        let server = HTTPServer(router: Self.echoRouter())
        let running = Task { try await server.run() }
        let port = try await server.listeningPort()
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
        try await client.send(.text("ping"))
        #expect(try await client.receive() == .text("ping"))
        server.shutdown()
        #expect(try await withTimeout { try await client.receive() } == nil)
        let close = await client.closed
        #expect(close.code == .goingAway)
        #expect(!close.isLocal)
        try await withTimeout { try await running.value }
    }

    @Test("an upgrade to an unknown path, or a refused connection, fails to connect")
    func failedConnections() async throws {
        try await withServer(Self.echoRouter()) { _, port in
            await #expect(throws: WebSocketError.self) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/not-a-socket")
            }
            let plain = try await fetch("http://127.0.0.1:\(port)/ws")
            #expect(plain.status == 404)
        }
        let closedPort = try await withServer(Self.echoRouter()) { _, port in port }
        await #expect(throws: WebSocketError.self) {
            try await withTimeout { try await WebSocketClient.connect(url: "ws://127.0.0.1:\(closedPort)/ws") }
        }
    }

    @Test("a route's admission refuses an upgrade with its response before the handshake completes; the handler never runs")
    func admissionRefuses() async throws {
        let handled = Counter()
        var router = HTTPRouter()
        router.webSocket("/ws", admission: { request in
            request.headers["origin"] == "https://evil.example" ? .error(.forbidden, message: "origin not allowed") : nil
        }) { connection in
            handled.increment()
            for try await message in connection.messages { try await connection.send(message) }
        }
        try await withServer(router) { _, port in
            let refused = try await blocking { () -> (status: Int, head: String, body: [UInt8]) in
                let socket = try RawSocket(port: port)
                try socket.send(
                    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: https://evil.example\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("origin not allowed"))
            let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws")
            try await client.send(.text("admitted"))
            #expect(try await withTimeout { try await client.receive() } == .text("admitted"))
            await client.close()
            #expect(handled.value == 1)
        }
    }

    @Test("routes give WebSockets path parameters, query items, handshake headers and subprotocols")
    func handshake() async throws {
        var router = HTTPRouter()
        router.webSocket("/sessions/:session/ws", subprotocol: "interlude.v1") { connection in
            let request = connection.request
            let summary = [
                request.pathParameters["session"] ?? "-",
                request.queryValue("token") ?? "-",
                request.headers["authorization"] ?? "-",
                connection.subprotocol ?? "-",
            ].joined(separator: " ")
            try await connection.send(.text(summary))
            _ = try await connection.receive()
        }
        try await withServer(router) { _, port in
            let client = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/sessions/abc/ws?token=t%201",
                headers: ["Authorization": "Bearer secret"],
                subprotocols: ["interlude.v1"]
            )
            #expect(client.subprotocol == "interlude.v1")
            #expect(try await withTimeout { try await client.receive() } == .text("abc t 1 Bearer secret interlude.v1"))
            await client.close()
            await #expect(throws: WebSocketError.self) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/sessions/abc/ws")
            }
        }
    }
}
