import NetworkIO
import Synchronization

/// The WebSocket endpoint the benchmark holds connections on: it echoes every message and counts
/// the connections whose handler is running, so the server can report how many are open.
final class EchoWebSocket: Sendable {
    private let openCount = Atomic<Int>(0)

    /// How many connections are open at the endpoint.
    var openConnections: Int { openCount.load(ordering: .relaxed) }

    /// Adds the endpoint to `router` at `path`.
    func install(on router: inout HTTPRouter, at path: String) {
        router.webSocket(path) { [self] connection in
            openCount.add(1, ordering: .relaxed)
            defer { openCount.subtract(1, ordering: .relaxed) }
            for try await message in connection.messages { try await connection.send(message) }
        }
    }
}
