import NetworkIO
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Opens many WebSocket connections with NetworkIO's client (one service thread for all of
/// them), keeps them idle (apart from the 30-second keep-alive pings both sides send by
/// default), and on SIGUSR1 checks that every one is still open and still echoes.
struct WebSocketHolder {
    var count: Int
    var url: String
    var handshakesInFlight: Int

    /// Returns whether all `count` connections were opened, stayed open and echoed.
    func run() async -> Bool {
        let signals = SignalEvents.stream([SIGUSR1])
        let client = WebSocketClient()
        let started = ContinuousClock.now
        var connections: [WebSocketConnection] = []
        connections.reserveCapacity(count)
        var failures: [String] = []
        await withTaskGroup(of: Result<WebSocketConnection, any Error>.self) { group in
            var launched = 0
            while launched < min(count, handshakesInFlight) {
                group.addTask { await Self.connect(client, url) }
                launched += 1
            }
            while let result = await group.next() {
                switch result {
                case .success(let connection): connections.append(connection)
                case .failure(let error): failures.append(String(describing: error))
                }
                let done = connections.count + failures.count
                if done % 1_000 == 0 { printError("hold: \(connections.count) open, \(failures.count) failed") }
                if launched < count {
                    group.addTask { await Self.connect(client, url) }
                    launched += 1
                }
            }
        }
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        if let first = failures.first { printError("hold: first failure: \(first)") }
        printStatus("held opened=\(connections.count) failed=\(failures.count) seconds=\((seconds * 10).rounded() / 10)")

        for await _ in signals { break }
        let open = connections.filter { $0.closeStatus == nil }
        for connection in connections where connection.closeStatus != nil {
            printError("hold: \(connection) closed: \(connection.closeStatus!)")
            break
        }
        let echoed = await Self.echo(on: open, inFlight: handshakesInFlight)
        printStatus("RESULT held=\(connections.count) open=\(open.count) echoed=\(echoed)")
        await client.shutdown()
        return connections.count == count && open.count == count && echoed == count
    }

    private static func connect(_ client: WebSocketClient, _ url: String) async -> Result<WebSocketConnection, any Error> {
        do {
            return .success(try await client.connect(to: url))
        } catch {
            return .failure(error)
        }
    }

    /// Sends one text message on each connection and counts the replies that echo it.
    private static func echo(on connections: [WebSocketConnection], inFlight: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var echoed = 0
            while next < min(connections.count, inFlight) {
                group.addTask { [connection = connections[next], next] in await Self.echo(on: connection, index: next) }
                next += 1
            }
            while let isEchoed = await group.next() {
                if isEchoed { echoed += 1 }
                if next < connections.count {
                    group.addTask { [connection = connections[next], next] in await Self.echo(on: connection, index: next) }
                    next += 1
                }
            }
            return echoed
        }
    }

    private static func echo(on connection: WebSocketConnection, index: Int) async -> Bool {
        do {
            try await connection.send(.text("still here \(index)"))
            return try await connection.receive() == .text("still here \(index)")
        } catch {
            return false
        }
    }
}
