import NetworkIO
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// How `serve` and `baseline` run their server: on 127.0.0.1, printing `listening PORT` once it
/// listens and `websockets open=N` on each SIGUSR1, until SIGINT or SIGTERM starts a graceful
/// shutdown. No access log.
enum ServerProcess {
    static func run(router: HTTPRouter, port: Int, echo: EchoWebSocket) async throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: port), router: router)
        let signals = SignalEvents.stream([SIGINT, SIGTERM, SIGUSR1])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            group.addTask {
                for await number in signals {
                    guard number == SIGUSR1 else {
                        server.shutdown()
                        return
                    }
                    printStatus("websockets open=\(echo.openConnections)")
                }
            }
            printStatus("listening \(try await server.listeningPort())")
            try await group.next()
            group.cancelAll()
            try await group.waitForAll()
        }
    }
}
